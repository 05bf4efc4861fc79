import Synchronization

/// A value set once, from any thread, and awaited without blocking; the
/// first `fulfil` wins, later ones are ignored.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var stored: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Sets the value (the first call only) and wakes every waiter.
    func fulfil(_ value: Value) {
        let waiting: [CheckedContinuation<Value, Never>] = state.withLock { s in
            guard s.stored == nil else { return [] }
            s.stored = value
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for c in waiting { c.resume(returning: value) }
    }

    /// The value, suspending until it is set.
    var value: Value {
        get async {
            await withCheckedContinuation { c in
                let done: Value? = state.withLock { s in
                    if let stored = s.stored { return stored }
                    s.waiters.append(c)
                    return nil
                }
                if let done { c.resume(returning: done) }
            }
        }
    }
}
