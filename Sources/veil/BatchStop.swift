import Foundation
import Synchronization
import VeilKit

/// What SIGINT or SIGTERM does to a batch (`blur`, `lift`, `video --out-dir`):
/// every temporary file in flight removed (`TemporaryFiles`: outputs are
/// whole or absent, an output never without its sidecar), one line saying
/// how far it got and how to finish, standard output flushed so the log ends
/// with whole lines, and exit 130 or 143. The plan was published before the
/// first output, so `veil status` says what is missing, and running the same
/// command again does the rest. The stop runs on the signal's own thread
/// (`TerminationSignals.wait(stopping:)`), not on Swift's pool, which the
/// photos' inference may hold.
enum BatchStop {
    private struct Counts { var planned = 0, done = 0, skipped = 0, failed = 0 }
    private static let counts = Mutex(Counts())
    private static let installed = Mutex(false)

    /// From the first batch of the process on; `outputFolder`: where the
    /// batch keeps its record, for the line's `veil status` hint.
    static func install(outputFolder: URL?) {
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let signals = TerminationSignals()
        Task.detached {
            _ = await signals.wait(stopping: { name in stop(name, outputFolder: outputFolder) })
        }
    }

    static func planned(_ n: Int) { counts.withLock { $0.planned = n } }

    static func finished(_ status: LedgerEntry.Status) {
        counts.withLock { c in
            switch status {
            case .done: c.done += 1
            case .skipped: c.skipped += 1
            case .failed: c.failed += 1
            }
        }
    }

    /// Once a stop has begun, waits for it: the signal's own thread ends the
    /// process with 130 or 143, and no status or line of the command's may
    /// come first. Called where an input fails, it keeps an input whose
    /// commit the stop refused out of the ledger (it is missing, not failed:
    /// the same command again does it) and out of the log.
    static func waitIfStopping() {
        guard TemporaryFiles.isStopping else { return }
        while true { pause() }
    }

    private static func stop(_ name: String, outputFolder: URL?) -> Never {
        let removed = TemporaryFiles.removeAllForExit()
        let c = counts.withLock { $0 }
        let finished = c.done + c.skipped + c.failed
        var line = "veil: stopped by \(name) after \(finished) of \(c.planned) inputs (\(c.done) done, \(c.skipped) already done, \(c.failed) failed)"
        if removed > 0 { line += "; \(removed) unfinished output(s) removed" }
        if let outputFolder { line += "; `veil status \(outputFolder.path)` lists what is missing" }
        line += "; the same command again finishes the rest\n"
        StandardOutput.flush()
        FileHandle.standardError.write(Data(line.utf8))
        _exit(name == "SIGINT" ? 130 : 143)
    }
}
