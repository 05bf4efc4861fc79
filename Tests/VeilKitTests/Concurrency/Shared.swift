import Synchronization

/// A `Mutex` the tests' tasks and threads can all capture (a local `Mutex`
/// cannot be captured by escaping closures: it is not copyable).
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
