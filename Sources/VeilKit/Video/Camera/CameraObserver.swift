import Foundation

/// Follows the camera frame by frame, from the frames themselves (so a file,
/// a stream and a camera are followed alike): how it moved since the frame
/// before (`FrameRegistration`), or that the shot changed.
///
/// A hard cut is a frame whose blocks agree on no motion from the frame
/// before and whose grey levels are distributed differently, or differ
/// overwhelmingly (`ShotCut`). A shaking camera, a motion-blurred frame or a
/// pan keep the blocks agreeing; a new shot leaves them scattered.
struct CameraObserver {
    enum Change: Equatable {
        /// The first frame: nothing to compare with.
        case start
        case moved(CameraMotion)
        /// The same shot, but the blocks agree on no motion (a frame without
        /// texture, a flash, a whip pan): tracks stay where they were.
        case unknown
        /// A new shot begins on this frame.
        case cut
    }

    private var previous: (pyramid: FrameRegistration.Pyramid, histogram: [Double])?

    /// Compares the frame (8-bit RGB of `width`x`height`) with the one before.
    /// `avoiding`: the faces being tracked, in frame pixels. `gap`: how many
    /// frames of the source on from the one before this is (more than 1 where
    /// a live view dropped frames): the camera had that many frames to move,
    /// and the search reaches further, lest a pan read as a cut.
    mutating func observe(_ pixels: [UInt8], width: Int, height: Int, avoiding: [ImageRect] = [], gap: Int = 1) -> Change {
        let thumbnail = pixels.withUnsafeBufferPointer { GreyThumbnail(rgb: $0, width: width, height: height) }
        let pyramid = FrameRegistration.Pyramid(thumbnail)
        let histogram = thumbnail.histogram
        defer { previous = (pyramid, histogram) }
        guard let previous else { return .start }
        let registration = FrameRegistration.register(previous.pyramid, pyramid, avoiding: avoiding, reach: FrameRegistration.reach(gap: gap))
        let distance = zip(previous.histogram, histogram).map { abs($0 - $1) }.reduce(0, +)
        if ShotCut.isCut(histogramDistance: distance, registration: registration) { return .cut }
        return registration.motion.map { .moved($0) } ?? .unknown
    }

    /// Forgets the frame before (a segment's pre-roll jumped, a live source reopened).
    mutating func reset() { previous = nil }
}

/// The rule that says a frame starts a new shot. Measured on the dev clips
/// (cuts-dev and two more made by make_cuts_clip.py, pan-small, crowd-1080p):
/// within a shot the histograms differ by at most 0.18 (a motion-blurred
/// frame of a shaking camera) and the blocks agree on a motion on every
/// frame; at each of the 8 cuts they agree on none, and the histograms
/// differ by 0.34 to 0.72. A cut between shots of one scene (a stage, wide
/// then close) can leave the histogram nearly unchanged: there the blocks
/// decide alone, given texture enough to trust them (12 blocks of 40).
enum ShotCut {
    static func isCut(histogramDistance: Double, registration r: FrameRegistration.Result) -> Bool {
        if histogramDistance > 0.6 { return true }
        return r.motion == nil && (histogramDistance > 0.15 || r.looked >= 12)
    }
}
