import Foundation

/// A first-in first-out queue between threads that holds at most `capacity`
/// items: `put` waits while it is full, so a fast stage cannot run ahead of a
/// slow one and memory stays flat whatever the length of the stream.
final class BoundedQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private let capacity: Int
    private let condition = NSCondition()
    private var closed = false

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds `item`, waiting for room; false if the queue was closed meanwhile.
    @discardableResult
    func put(_ item: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The oldest item, waiting for one; nil once closed and empty.
    func take() -> Element? {
        condition.lock(); defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// Items waiting now.
    var count: Int { condition.lock(); defer { condition.unlock() }; return items.count }

    /// Wakes everyone: later puts are refused, takes drain what is left.
    func close() {
        condition.lock(); closed = true; condition.broadcast(); condition.unlock()
    }
}
