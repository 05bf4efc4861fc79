import CSystemShim
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught from creation on: a process-wide handler
/// writes to a pipe that a thread of its own reads. Signals land on any
/// thread (ONNX Runtime's and FFmpeg's included), which a dispatch source
/// alone was seen to miss. `wait` returns the first one's name. For a
/// command line that turns them into a `RecordingStop` or a cancellation.
public final class TerminationSignals: Sendable {
    private let first = OneShot<String>()
    /// The signal caught, and the stops to run when it comes.
    private let state = Mutex<(caught: String?, handlers: [@Sendable (String) -> Void])>((nil, []))

    public init() {
        let fd = veil_signal_pipe()
        guard fd >= 0 else { return }
        Thread.detachNewThread { [self] in
            var byte: UInt8 = 0
            while read(fd, &byte, 1) != 1 {}
            let name = Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM"
            let run = state.withLock { s in
                s.caught = name
                defer { s.handlers = [] }
                return s.handlers
            }
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
        let already: String? = state.withLock { s in
            if s.caught == nil { s.handlers.append(stopping) }
            return s.caught
        }
        if let already { stopping(already) }
        return await first.value
    }
}
