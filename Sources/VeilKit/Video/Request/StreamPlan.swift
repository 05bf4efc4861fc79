import CVideoShim

/// What an output does with each of the input's other streams (audio,
/// subtitles, data), decided here from what the shim reports: copied as they
/// are where the container takes their codec; audio it does not take
/// re-encoded with the container's audio codec; the rest left out; all of
/// them left out with `--no-audio`.
enum StreamPlan {
    enum Action: Int32 { case drop = 0, copy = 1, reencode = 2 }

    /// By input stream index (the video's `.drop`: it is encoded, not mapped).
    static func actions(for streams: VideoStreams, format: String?, url: String, dropOthers: Bool) -> [Action] {
        let count = Int(veil_streams_count(streams.pointer)), video = Int(veil_streams_video(streams.pointer))
        return (0..<count).map { i in
            guard i != video, !dropOthers else { return .drop }
            if veil_muxer_takes(format, url, streams.pointer, Int32(i)) != 0 { return .copy }
            return veil_streams_is_audio(streams.pointer, Int32(i)) != 0 ? .reencode : .drop
        }
    }
}
