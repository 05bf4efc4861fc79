import Synchronization

/// A task to cancel that may be set after the cancellation was asked for:
/// a task set into a box already cancelled is cancelled at once.
public final class TaskBox: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    public init() {}

    public var task: Task<Void, Never>? {
        get { state.withLock { $0.task } }
        set {
            let cancelNow = state.withLock { s in
                s.task = newValue
                return s.cancelled
            }
            if cancelNow { newValue?.cancel() }
        }
    }

    /// Cancels the task, now or when it is set.
    public func cancel() {
        let current = state.withLock { s in
            s.cancelled = true
            return s.task
        }
        current?.cancel()
    }
}
