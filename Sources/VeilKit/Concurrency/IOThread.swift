import Foundation

/// A dedicated thread for blocking work (FFmpeg's reads and writes), joined
/// from async code by awaiting `value`: the thread's result, delivered
/// without blocking a thread of the cooperative pool.
final class IOThread<Result: Sendable>: Sendable {
    private let result = OneShot<Result>()

    init(name: String, _ body: @escaping @Sendable () -> Result) {
        let thread = Thread { [result] in result.fulfil(body()) }
        thread.name = name
        thread.start()
    }

    /// Waits (suspending) for the thread to finish.
    var value: Result { get async { await result.value } }
}
