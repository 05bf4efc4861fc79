import Synchronization

/// Asks a running `VideoAnonymizer` to stop reading: the frames read so far
/// are covered and the output finished, as when a live stream ends. Safe
/// from any thread (a signal-handling one included); asking twice is once.
public final class RecordingStop: Sendable {
    /// Whether the stop was asked for, and what to run when it is.
    private let state = Mutex<(requested: Bool, actions: [@Sendable () -> Void])>((false, []))

    public init() {}

    public func request() {
        let run: [@Sendable () -> Void] = state.withLock { s in
            guard !s.requested else { return [] }
            s.requested = true
            defer { s.actions.removeAll() }
            return s.actions
        }
        for action in run { action() }
    }

    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Runs `action` on the request (at once if it was already made).
    func onRequest(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = state.withLock { s in
            if s.requested { return true }
            s.actions.append(action)
            return false
        }
        if now { action() }
    }
}
