import VeilKit

/// How a video is read and written as streams: the demuxer, the muxer, a
/// live source's pace. `veil video`'s streams, each option one line.
public struct SourceOptions: ParsableOptions {
    public var inputFormat: String?, outputFormat: String?, realtime = false

    public init() {}

    public static var options: [Option<Self>] {
        [
            .text("input-format", "F", \.inputFormat, .source, "the FFmpeg demuxer to open INPUT with (v4l2 for a camera)", sample: "mp4"),
            .text("output-format", "F", \.outputFormat, .source, "the FFmpeg muxer to write with (a v4l2 loopback, rtsp, udp)", sample: "mp4"),
            .flag("realtime", \.realtime, .source, "a live source: when frames queue up, skip detections (counted), never frames"),
        ]
    }

    /// The source group, with the time range to read (`--segment`).
    public func video(segment: VideoSegment?) -> VideoAnonymizer.Source {
        VideoAnonymizer.Source(format: inputFormat, realtime: realtime, segment: segment)
    }
}
