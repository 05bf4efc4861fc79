import CSystemShim
import Foundation

/// SIGINT and SIGTERM, caught from creation on: a process-wide handler
/// writes to a pipe that a thread of its own reads. Signals land on any
/// thread (ONNX Runtime's and FFmpeg's included), which a dispatch source
/// alone was seen to miss. `wait` returns the first one's name. For a
/// command line that turns them into a `RecordingStop` or a cancellation.
public final class TerminationSignals: @unchecked Sendable {
    private let first = OneShot<String>()
    private let lock = NSLock()
    private var caught: String?
    private var handlers: [@Sendable (String) -> Void] = []

    public init() {
        let fd = veil_signal_pipe()
        guard fd >= 0 else { return }
        Thread.detachNewThread { [self] in
            var byte: UInt8 = 0
            while read(fd, &byte, 1) != 1 {}
            let name = Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM"
            let run = lock.withLock { caught = name; defer { handlers = [] }; return handlers }
            for handler in run { handler(name) }
            first.fulfil(name)
        }
    }

    /// The first signal's name ("SIGINT" or "SIGTERM"), waiting for it.
    public func wait() async -> String { await first.value }

    /// Runs `stopping` on the signal's own thread when the first signal comes
    /// (at once if it came already), before `wait` returns: a stop that must
    /// not depend on Swift's cooperative pool, which CPU-bound work may hold.
    public func wait(stopping: @escaping @Sendable (String) -> Void) async -> String {
        let already: String? = lock.withLock {
            if caught == nil { handlers.append(stopping) }
            return caught
        }
        if let already { stopping(already) }
        return await first.value
    }
}
