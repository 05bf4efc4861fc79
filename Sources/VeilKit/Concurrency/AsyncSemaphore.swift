import Synchronization

/// A counting semaphore for tasks: waiting suspends the task instead of
/// blocking its thread, so the cooperative pool keeps working meanwhile.
/// Permits go to waiters first come, first served. A task cancelled before
/// or while it waits throws `CancellationError` and takes no permit, so a
/// request timed out by the server does not queue behind the one running.
final class AsyncSemaphore: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var lastID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ value: Int) { state = Mutex(State(available: value)) }

    /// Permits free now (for tests and metrics; stale as soon as read).
    var available: Int { state.withLock { $0.available } }

    /// Takes a permit, suspending until one is free; throws
    /// `CancellationError` (holding none) when the task is cancelled first.
    func wait() async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { s in
            if s.available > 0 { s.available -= 1; return nil }
            s.lastID += 1
            return s.lastID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                // Checked under the lock: a cancellation that came before this
                // point finds no waiter to remove, so it is caught here.
                let cancelled = state.withLock { s in
                    if Task.isCancelled { return true }
                    s.waiters.append(Waiter(id: id, continuation: c))
                    return false
                }
                if cancelled { c.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let removed = state.withLock { s in
                s.waiters.firstIndex { $0.id == id }.map { s.waiters.remove(at: $0) }
            }
            removed?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a permit back: to the oldest waiter, or to the pool.
    func signal() {
        let next: Waiter? = state.withLock { s in
            if s.waiters.isEmpty { s.available += 1; return nil }
            return s.waiters.removeFirst()
        }
        next?.continuation.resume()
    }

    /// Runs `body` holding a permit, given back however `body` ends.
    func withPermit<T>(_ body: () async throws -> T) async throws -> T {
        try await wait()
        defer { signal() }
        return try await body()
    }
}
