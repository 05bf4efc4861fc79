import Foundation

/// A bounded first-in first-out queue between a dedicated thread and async
/// code. The thread side blocks (`sendBlocking`, `receiveBlocking`): it
/// owns its thread, so waiting there costs nothing. The async side suspends
/// (`send`, `receive`): no thread of the cooperative pool ever waits on it.
/// Bounded, so a fast stage cannot run ahead of a slow one and memory stays
/// flat whatever the length of the stream. `close` wakes everyone: senders
/// get false, receivers get what is left, then nil.
///
/// An `NSCondition`, not a `Mutex`: the thread side must sleep until the
/// other side changes something, which needs a condition variable tied to
/// the lock; `Mutex` has none. Hence `@unchecked Sendable`: every stored
/// property is read and written only with the condition's lock held.
final class ThreadChannel<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// At most `capacity` items (small): taking the first shifts the rest,
    /// and nothing is kept once taken. (An index into an array compacted
    /// only past 64 taken items held up to 64 decoded frames, 6 MB each at
    /// 1080p, after the pipeline was done with them: 400 MB of peak RSS.)
    private var items: [Element] = []
    private var closed = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Items waiting (for a stage to see whether it is falling behind).
    var count: Int { condition.withLock { items.count } }

    /// Adds `item`, waiting on this thread for room; false once closed.
    @discardableResult
    func sendBlocking(_ item: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while isFull && !closed { condition.wait() }
        return append(item)
    }

    /// Adds `item` if there is room now; nil when full (nothing added), false once closed.
    func offer(_ item: Element) -> Bool? {
        condition.withLock { isFull && !closed ? nil : append(item) }
    }

    /// The oldest item, waiting on this thread; nil once closed and empty.
    func receiveBlocking() -> Element? {
        condition.lock(); defer { condition.unlock() }
        while isEmpty && !closed { condition.wait() }
        return removeFirst()
    }

    /// Adds `item`, suspending for room; false once closed.
    @discardableResult
    func send(_ item: Element) async -> Bool {
        while true {
            let sent: Bool? = condition.withLock { isFull && !closed ? nil : append(item) }
            if let sent { return sent }
            await park { self.isFull && !self.closed }
        }
    }

    /// The oldest item, suspending for one; nil once closed and empty.
    func receive() async -> Element? {
        while true {
            let got: Element?? = condition.withLock { isEmpty && !closed ? nil : .some(removeFirst()) }
            if let got { return got }
            await park { self.isEmpty && !self.closed }
        }
    }

    func close() {
        condition.withLock {
            closed = true
            wakeAll()
        }
    }

    private var isFull: Bool { items.count >= capacity }
    private var isEmpty: Bool { items.isEmpty }

    /// Suspends until the next change, unless `stillBlocked` is already false.
    private func park(while stillBlocked: @escaping () -> Bool) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            condition.withLock {
                if stillBlocked() { waiting.append(c) } else { c.resume() }
            }
        }
    }

    /// Under the lock.
    private func append(_ item: Element) -> Bool {
        guard !closed else { return false }
        items.append(item)
        wakeAll()
        return true
    }

    /// Under the lock.
    private func removeFirst() -> Element? {
        guard !isEmpty else { return nil }
        let item = items.removeFirst()
        wakeAll()
        return item
    }

    /// Under the lock: every waiter looks again (there are at most two).
    private func wakeAll() {
        condition.broadcast()
        let resumed = waiting
        waiting.removeAll()
        for c in resumed { c.resume() }
    }
}
