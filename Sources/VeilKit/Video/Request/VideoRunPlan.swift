import Foundation

/// How one run of a `VideoAnonymizer` goes, decided once from the request and
/// the input before a frame flows (`VideoAnonymizer.plan`). The reader
/// thread, the pipeline and the report each switch on it in one place; the
/// request itself stays settings.
enum VideoRunPlan: Sendable {
    /// The whole input into one output.
    case plain
    /// One time range of the input into a part of a split run: audio copied,
    /// the muxer's clock the segment's (`VideoSegments`).
    case segment(VideoSegment)
    /// A re-render that copies the GOPs its edits leave unchanged from the
    /// previous output and encodes the rest (`VideoSplice`).
    case splice(VideoSplice)
    /// Covered frames to a viewer instead of an encoder (`view`).
    case view(LiveView)
}

/// A live view's ends: where covered frames go, the cover a viewer may
/// change while it runs, and the count of frames not shown.
struct LiveView: Sendable {
    let sink: CoveredFrameSink
    let coverSwitch: CoverSwitch?
    let dropped: DroppedFrames
}

/// One run: the request, its plan, and what was worked out for it before
/// frames flow. Built by `VideoAnonymizer.run`; what the pipeline, the
/// analyser and the reader are handed.
struct VideoRun: Sendable {
    let request: VideoAnonymizer
    let plan: VideoRunPlan
    /// Re-rendering: where the added regions to follow were found before
    /// their key frame, by region id, then frame (`followingBack`).
    let followedBack: [Int: [Int: ImageRect]]

    var segment: VideoSegment? { if case let .segment(segment) = plan { segment } else { nil } }
    var splice: VideoSplice? { if case let .splice(splice) = plan { splice } else { nil } }
    var view: LiveView? { if case let .view(view) = plan { view } else { nil } }
}
