import Synchronization

/// Runs the first closure given to it and ignores the rest, from any thread:
/// how exactly one of several racers (an answer and its deadline) gets to act.
public final class Once: Sendable {
    private let done = Mutex(false)

    public init() {}

    /// True when `body` ran (this was the first call).
    @discardableResult
    public func run(_ body: () -> Void) -> Bool {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { body() }
        return first
    }
}
