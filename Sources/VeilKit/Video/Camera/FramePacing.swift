import Foundation

/// A file shown as a live source (`veil serve --live NAME=FILE`) read at its
/// own frame rate: each frame handed on when its presentation time has come,
/// counted from the first frame's, as a camera or a stream would send it.
/// Unpaced, the Live tab read a file as fast as it decoded and showed most
/// of it as dropped ("738 frames shown, 987 dropped · ended after 122 frames").
/// Only the reader thread waits; a frame late already is not waited for.
struct FramePacing {
    private var origin: (pts: Int64, at: UInt64)?

    /// Sleeps until the frame at `pts` is due.
    mutating func wait(untilShowing pts: Int64, timeBase: (num: Int, den: Int)) {
        guard let origin else { self.origin = (pts, Uptime.now()); return }
        let due = Double(pts - origin.pts) * Double(timeBase.num) / Double(max(1, timeBase.den))
        // A jump back (a looped or damaged stream) starts the clock again.
        guard due >= 0 else { self.origin = (pts, Uptime.now()); return }
        let ahead = due - Uptime.seconds(since: origin.at)
        if ahead > 0.001 { usleep(UInt32(min(ahead, 1) * 1_000_000)) }
    }
}
