import Foundation

/// How one run of a `VideoAnonymizer` goes, decided once from the request and
/// the input before a frame flows (`VideoAnonymizer.plan`). The reader
/// thread, the pipeline and the report each switch on it in one place; the
/// request itself stays settings.
enum VideoRunPlan: Sendable {
    /// A first run: the detector finds the faces of the whole input, written into one output.
    case detect
    /// A re-render from a state (the detector does not run), every frame
    /// encoded afresh: there is no previous output, or it cannot be copied
    /// from (`Replay.fullRender` says why).
    case replay(Replay)
    /// A re-render that copies the GOPs its edits leave unchanged from the
    /// previous output and encodes the rest (`VideoSplice`).
    case splice(VideoSplice, Replay)
    /// One time range of the input into a part of a split run: audio copied,
    /// the muxer's clock the segment's (`VideoSegments`).
    case segment(VideoSegment)
    /// Covered frames to a viewer instead of an encoder (`view`).
    case view(LiveView)

    /// Whether the detector runs (a re-render takes its boxes from the state).
    var detects: Bool {
        switch self {
        case .detect, .segment, .view: true
        case .replay, .splice: false
        }
    }
}

/// A re-render's state, and what was worked out for it before frames flow.
struct Replay: Sendable {
    /// The state with its edits applied.
    let state: VideoEditingState
    /// Where the added regions to follow were found before their key frame,
    /// by region id, then frame (`followingBack`).
    let followedBack: [Int: [Int: ImageRect]]
    /// Why every frame is encoded afresh, when a previous output could not be copied from.
    var fullRender: String?
    /// GOPs of a splice that found nothing to copy: all rendered.
    var renderedGOPs = 0
}

/// A live view's ends: where covered frames go, the cover a viewer may
/// change while it runs, and the count of frames not shown.
struct LiveView: Sendable {
    let sink: CoveredFrameSink
    let coverSwitch: CoverSwitch?
    let dropped: DroppedFrames
}

/// One run: the request and its plan. Built by `VideoAnonymizer.run`; what
/// the pipeline, the analyser and the reader are handed.
struct VideoRun: Sendable {
    let request: VideoAnonymizer
    let plan: VideoRunPlan
}
