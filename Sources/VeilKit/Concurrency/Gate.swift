/// At most `limit` requests work at once; the next few wait briefly for a
/// slot and the rest are turned away (`veil serve` answers them 503), so a
/// burst cannot pile up memory.
public actor Gate {
    private let limit: Int
    private let maxWaiting: Int
    private var busy = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    public init(limit: Int, maxWaiting: Int) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// True when a slot was taken (call `release` later); false after `wait`
    /// seconds, or at once when too many are already waiting.
    public func acquire(wait: Double) async -> Bool {
        if busy < limit { busy += 1; return true }
        if waiters.count >= maxWaiting || wait <= 0 { return false }
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

    public func release() {
        if waiters.isEmpty { busy -= 1 } else { waiters.removeFirst().continuation.resume(returning: true) }
    }

    private func expire(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }
}
