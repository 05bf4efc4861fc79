/// At most `limit` requests work at once; the others wait their turn, in
/// order, while a turn can come within their wait, and are turned away at
/// once when it cannot (`veil serve` answers them 503 with `Retry-After`).
///
/// How long a turn takes is measured, not guessed: every release says how
/// long its slot was held, and a caller arriving when all slots are busy is
/// told at once "no" when the callers before it, at the measured hold, would
/// use up its wait. So a client that sends four requests to one slot (as
/// rembg's clients do) sees them answered in turn, and a burst no wait can
/// serve is refused in a moment, not after a timeout. What a waiting request
/// holds in memory is its body, which the HTTP transport bounds (its body
/// budget); `maxWaiting` bounds the connections held open.
public actor Gate {
    private let limit: Int
    private let maxWaiting: Int
    private var busy = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0
    /// Seconds a slot is held, smoothed over the releases (nil before the first measured).
    private(set) var meanHold: Double?

    public init(limit: Int, maxWaiting: Int) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// True when a slot was taken (call `release` later); false after `wait`
    /// seconds, or at once when too many are already waiting or the turn
    /// would come after `wait` at the measured hold (`expectedWait`).
    public func acquire(wait: Double) async -> Bool {
        if busy < limit { busy += 1; return true }
        if waiters.count >= maxWaiting || wait <= 0 { return false }
        if let expected = expectedWait(), expected > wait { return false }
        nextID += 1
        let id = nextID
        return await withCheckedContinuation { continuation in
            waiters.append((id, continuation))
            Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
                await self?.expire(id)
            }
        }
    }

    /// Gives the slot to the next waiter, or back. `heldFor`: the seconds it
    /// was held, what `expectedWait` is measured from.
    public func release(heldFor seconds: Double? = nil) {
        if let seconds, seconds.isFinite, seconds >= 0 {
            meanHold = meanHold.map { 0.8 * $0 + 0.2 * seconds } ?? seconds
        }
        if waiters.isEmpty { busy -= 1 } else { waiters.removeFirst().continuation.resume(returning: true) }
    }

    /// How long a caller arriving now would wait for a slot: the callers
    /// waiting before it and itself, each a measured hold spread over the
    /// slots; 0 while a slot is free, nil before any hold was measured.
    public func expectedWait() -> Double? {
        guard busy >= limit else { return 0 }
        return meanHold.map { Double(waiters.count + 1) * $0 / Double(limit) }
    }

    private func expire(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }
}
