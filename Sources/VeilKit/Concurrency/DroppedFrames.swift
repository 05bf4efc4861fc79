import Synchronization

/// Frames a live view did not show: they arrived while the frames before
/// them were still waiting to be covered (the newest frame matters more to
/// a viewer than every frame; a recording, `--realtime`, keeps them all).
public final class DroppedFrames: Sendable {
    private let n = Atomic<Int>(0)
    public init() {}
    func count() { n.add(1, ordering: .relaxed) }
    public var total: Int { n.load(ordering: .relaxed) }
}
