import CSystemShim
import Foundation

/// SIGINT and SIGTERM, caught from creation on: a process-wide handler
/// writes to a pipe that a thread of its own reads. Signals land on any
/// thread (ONNX Runtime's and FFmpeg's included), which a dispatch source
/// alone was seen to miss. `wait` returns the first one's name. For a
/// command line that turns them into a `RecordingStop` or a cancellation.
public final class TerminationSignals: Sendable {
    private let first = OneShot<String>()

    public init() {
        let fd = veil_signal_pipe()
        guard fd >= 0 else { return }
        Thread.detachNewThread { [first] in
            var byte: UInt8 = 0
            while read(fd, &byte, 1) != 1 {}
            first.fulfil(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// The first signal's name ("SIGINT" or "SIGTERM"), waiting for it.
    public func wait() async -> String { await first.value }
}
