import CSystemShim
import Foundation

/// Catches SIGINT and SIGTERM from its creation on (a process-wide handler
/// writing to a pipe, read by a thread of its own); `wait` returns the first one's name.
public final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var caught: String?
    private var continuation: CheckedContinuation<String, Never>?

    public init() {
        let fd = veil_signal_pipe()
        guard fd >= 0 else { return }
        Thread.detachNewThread { [self] in
            var byte: UInt8 = 0
            while read(fd, &byte, 1) != 1 {}
            deliver(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    private func deliver(_ name: String) {
        let waiting: CheckedContinuation<String, Never>? = lock.withLock {
            if caught != nil { return nil }
            caught = name
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: name)
    }

    public func wait() async -> String {
        await withCheckedContinuation { c in
            let already: String? = lock.withLock {
                if let caught { return caught }
                continuation = c
                return nil
            }
            if let already { c.resume(returning: already) }
        }
    }
}
