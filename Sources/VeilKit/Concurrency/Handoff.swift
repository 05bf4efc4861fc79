import Synchronization

/// A value handed to the first caller of `take()` only, and let go by the box
/// at that moment. Two racers answering one request (a handler and a timer)
/// each hold the box, not the value: a timer set for 33 s that captured the
/// answer itself kept every request's connection, task and buffers alive for
/// those 33 s after it was answered, a plateau of RSS that grew with the
/// request rate (`veil serve`, 60 requests a second: 30 MB).
public final class Handoff<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`, and handed out once.
    private let lock = Mutex(())
    private var value: Value?

    public init(_ value: Value) { self.value = value }

    /// The value for the first caller; nil for every later one.
    public func take() -> Value? {
        lock.withLock { _ in
            defer { value = nil }
            return value
        }
    }
}
