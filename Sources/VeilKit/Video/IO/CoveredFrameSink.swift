import Foundation
import Synchronization

/// Where a live view's covered frames go instead of an encoder: the realtime
/// path of `VideoAnonymizer` (the same reader, analyser, tracker and
/// renderer as `veil video --realtime`) hands each covered frame to `deliver`
/// on its writer thread, in order. `veil serve --live` turns them into JPEG
/// for the browser. The time from a frame's decoding to the end of `deliver`
/// is the run's latency.
public struct CoveredFrameSink: Sendable {
    /// One covered frame: RGB, 3 bytes a pixel, rows top to bottom.
    public struct Frame: Sendable {
        public var pixels: [UInt8]
        public var width: Int
        public var height: Int
        /// When the reader decoded it (`DispatchTime` nanoseconds).
        public var decodedAt: UInt64
        public var index: Int
    }

    public let deliver: @Sendable (Frame) -> Void
    public init(_ deliver: @escaping @Sendable (Frame) -> Void) { self.deliver = deliver }
}

/// A cover that may change while a live view runs (the Live tab's style):
/// the pipeline reads it before each frame and rebuilds its renderer when it
/// changed.
public final class CoverSwitch: Sendable {
    private let state: Mutex<(version: Int, cover: FaceCover, shape: CoverRegion.Shape)>

    public init(cover: FaceCover, shape: CoverRegion.Shape) { state = Mutex((0, cover, shape)) }

    public func set(style: CoverStyle, shape: CoverRegion.Shape? = nil) {
        state.withLock { s in
            s.cover.style = style
            if let shape { s.shape = shape }
            s.version += 1
        }
    }

    public var current: (version: Int, cover: FaceCover, shape: CoverRegion.Shape) { state.withLock { $0 } }
}


/// The writer thread of a live view: covered frames to the sink, other
/// streams' packets dropped.
enum SinkLoop {
    static func run(_ sink: CoveredFrameSink, width: Int, height: Int, from queue: ThreadChannel<WriteItem>) -> Result<WriterLoop.Summary, Error> {
        var summary = WriterLoop.Summary()
        var index = 0
        while let item = queue.receiveBlocking() {
            switch item {
            case let .frame(pixels, _, decodedAt, _, _):
                sink.deliver(.init(pixels: pixels, width: width, height: height, decodedAt: decodedAt, index: index))
                index += 1
                summary.delays.append(Float(Uptime.seconds(since: decodedAt)))
                // A live view runs for hours: keep the last minute's delays only.
                if summary.delays.count > 3000 { summary.delays.removeFirst(1500) }
            case .packet, .videoPacket, .restart: continue
            case .end: return .success(summary)
            }
        }
        return .failure(CancellationError())
    }
}

extension VideoAnonymizer {
    /// Covers a live source (a stream URL, a camera) frame by frame as it
    /// arrives, for viewing: the realtime path (detections skipped, never
    /// frames, when frames wait), each covered frame handed to `sink` instead
    /// of an encoder, the cover read from `coverSwitch` when one is given.
    /// Runs until the source ends, `stop` is requested or the task is cancelled.
    ///
    /// Frames that arrive while three wait are not shown (counted in `dropped`).
    public func view(input: String, stop: RecordingStop? = nil, sink: CoveredFrameSink, coverSwitch: CoverSwitch? = nil,
                     dropped: DroppedFrames = DroppedFrames(), progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Report {
        var live = self
        live.source.realtime = true
        // A view writes no file: nothing to check the input against.
        return try await live.run(source: VideoSource(input, format: source.format),
                                  to: .view(LiveView(sink: sink, coverSwitch: coverSwitch, dropped: dropped)), stop: stop, progress: progress, record: nil)
    }
}
