/// One box a video run covers on a frame: its track's id, where it is (in
/// the frame's stored pixels), whether the detector saw it there (else the
/// tracker carried it), and the score of its track's last detection. What
/// the tracker gives, the analyser hands on, a `FrameRecord` logs and the
/// `TrackRecorder` keeps.
public struct TrackedBox: Sendable, Equatable {
    public var id: Int
    public var box: ImageRect
    public var detected: Bool
    public var score: Float
    /// Its track is not yet confirmed as a face (`BoxTracker.Track.isFace`):
    /// covered all the same, but kept apart from the tracks to review.
    public var unsure: Bool

    public init(id: Int, box: ImageRect, detected: Bool, score: Float, unsure: Bool = false) {
        self.id = id; self.box = box; self.detected = detected; self.score = score; self.unsure = unsure
    }

    /// A box a state or a person gave: not detected, score 1.
    static func given(id: Int, box: ImageRect) -> TrackedBox { TrackedBox(id: id, box: box, detected: false, score: 1) }
}
