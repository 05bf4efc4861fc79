import Foundation
import Synchronization

/// Every temporary file this process is writing under a hidden name beside
/// its destination (`AtomicFile`'s stages, a video's `.NAME.PID.part`), so
/// that a stop by SIGINT or SIGTERM removes them all before the process
/// exits: a batch stopped at any moment leaves outputs whole or absent, and
/// no temporary file behind. Renames into place happen under the same lock
/// (`commit`), so a stop never lands between an output and its sidecar.
public enum TemporaryFiles {
    /// The paths in flight; `stopped` once `removeAllForExit` has run (then
    /// nothing is committed any more: the process is about to end).
    private static let state = Mutex<(paths: Set<String>, stopped: Bool)>(([], false))

    public static func register(_ path: String) {
        state.withLock { _ = $0.paths.insert(path) }
    }

    public static func unregister(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    /// Runs `renames` (each a temporary file moved into place) as one step
    /// against a stop: all of them happen, or, when the process is stopping,
    /// none. The paths are unregistered after.
    public static func commit(_ temps: [String], _ renames: () throws -> Void) throws {
        try state.withLock { s in
            guard !s.stopped else { throw CancellationError() }
            defer { for t in temps { s.paths.remove(t) } }
            try renames()
        }
    }

    /// Whether the process is stopping (`removeAllForExit` has run): what
    /// fails from now on fails because of the stop (a commit refused), not
    /// because of its input.
    public static var isStopping: Bool { state.withLock { $0.stopped } }

    /// Removes every registered file and refuses later commits; for the
    /// signal's own thread, just before the process exits. Returns how many
    /// were removed.
    @discardableResult
    public static func removeAllForExit() -> Int {
        state.withLock { s in
            s.stopped = true
            for path in s.paths { unlink(path) }
            defer { s.paths = [] }
            return s.paths.count
        }
    }

    /// Hidden temporary files (`.NAME.PID.RANDOM.tmp`, `.NAME.PID.part`) in
    /// `folder`, at any depth, left by processes that no longer exist and not
    /// changed for `age` seconds (a live writer of a photo writes it in one go, of a video every frame): what a kill -9 or a crash left behind. The
    /// age guards a writer on another machine of a shared filesystem, whose
    /// process id means nothing here.
    public static func sweepStale(in folder: URL, olderThan age: TimeInterval = 10) -> Int {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.contentModificationDateKey]) else { return 0 }
        var removed = 0
        let now = Date()
        for case let url as URL in walk {
            let name = url.lastPathComponent
            guard name.hasPrefix("."), let pid = writer(of: name), isGone(pid),
                  let changed = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                  now.timeIntervalSince(changed) >= age else { continue }
            if unlink(url.path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether no process of this machine has the id `pid` (nor is it this one).
    static func isGone(_ pid: pid_t) -> Bool { pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH }

    /// The process id in a temporary file's name, or nil when it is not one of ours.
    static func writer(of name: String) -> pid_t? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // `.NAME.PID.RANDOM.tmp` (AtomicFile), or `.NAME.PID.tmp` (plans written before AtomicFile wrote them).
        if name.hasSuffix(".tmp"), parts.count >= 4 { return pid_t(parts[parts.count - 3]) ?? pid_t(parts[parts.count - 2]) }
        if name.hasSuffix(".part"), parts.count >= 3 { return pid_t(parts[parts.count - 2]) }
        return nil
    }
}
