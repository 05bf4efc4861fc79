import Foundation

/// How a live source's frames are paced against the source: which frames may
/// run their detection, and whether the cheaper live schedule
/// (`VideoAnonymizer.liveSchedule(for:)`) is used. Files are never paced:
/// every frame may detect, with the file's schedule.
///
/// One value per run, owned by the pipeline's task; times are `Uptime`
/// nanoseconds, passed in so that a decision reads the clock once.
struct LivePacing {
    /// Live: when covering falls behind the source, detections are skipped
    /// (never frames) and the tracker covers between them: every second
    /// frame is detected once more than two frames wait or a frame is
    /// `late`, every fourth once more than `backlog` wait or it is
    /// `veryLate`. The tracker alone loses moving faces, so the gap widens
    /// only as far as keeping up needs; lateness (seconds since the frame
    /// was decoded) reacts to a stall before the queue shows it
    /// (docs/design/video-tracking.md#live-sources-and---realtime).
    static let backlog = 8
    static let late = 0.1, veryLate = 0.15

    /// What one frame may do.
    struct Decision: Equatable {
        var mayDetect: Bool
        /// The live schedule (the source is kept up with), not the file's.
        var keepingUp: Bool
    }

    let realtime: Bool
    /// A live view (`veil serve --live`): its queue holds three frames, the newest matter.
    let view: Bool
    private var lastDetection: Int?
    /// When the last detection of every pass (`FrameAnalyzer.Step.full`: the
    /// first frame, a new shot) ended.
    private var fullDetectionEnded: UInt64 = 0

    init(realtime: Bool, view: Bool) {
        self.realtime = realtime
        self.view = view
    }

    /// Frame `index`, decoded at `decodedAt`, with `waiting` frames queued
    /// behind it and `skipped` dropped just before it, at `now`.
    func decide(frame index: Int, waiting: Int, skipped: Int, decodedAt: UInt64, now: UInt64) -> Decision {
        guard realtime else { return Decision(mayDetect: true, keepingUp: false) }
        let late = Uptime.seconds(since: decodedAt, now: now)
        let veryLate = waiting > Self.backlog || late > Self.veryLate
        // Once a frame is very late the file's schedule returns (at 1080p its
        // 1.1-megapixel whole pass, not the live one), which held coverage
        // when the machine cannot keep up. But not for the frames that queued
        // while a detection of every pass ran: they are late because of it,
        // and the file's costlier pass kept them late for most of a stream
        // (docs/design/video-tracking.md#a-streams-first-second).
        let keepingUp = !veryLate || decodedAt < fullDetectionEnded
        return Decision(mayDetect: mayDetect(frame: index, waiting: waiting, skipped: skipped, late: late, veryLate: veryLate),
                        keepingUp: keepingUp)
    }

    private func mayDetect(frame index: Int, waiting: Int, skipped: Int, late: Double, veryLate: Bool) -> Bool {
        guard let last = lastDetection else { return true }
        // A live view's queue holds three frames (the newest matter): one
        // waiting is already falling behind, and it skips at most every
        // second detection. A frame that follows dropped ones (`skipped`) is
        // always detected: the faces moved for as many frames as were
        // dropped, and one may have come in. (Judged by the drops counted
        // since the last detection instead, frames after drops counted while
        // it ran went undetected, and under load a face that came in during
        // the drops was shown bare: bench/live_view.py.)
        if view {
            guard waiting > 0, skipped == 0 else { return true }
            return index - last >= 2
        }
        // Frames queued behind a detection of every pass still detect, as
        // the rule says: skipping them all until the queue drained lost
        // faces entering the picture
        // (docs/design/video-tracking.md#a-streams-first-second).
        guard waiting > 2 || late > Self.late else { return true }
        return index - last >= (veryLate ? 4 : 2)
    }

    /// After frame `index` was analysed, at `now`.
    mutating func analysed(frame index: Int, detected: Bool, full: Bool, at now: UInt64) {
        if detected { lastDetection = index }
        if full { fullDetectionEnded = now }
    }
}
