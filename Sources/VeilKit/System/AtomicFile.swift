import Foundation

/// Writing files so that readers see the old file or the whole new one, never half.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, ownerOnly: Bool = false) throws {
        try stage(data, for: url, ownerOnly: ownerOnly).commit()
    }

    /// A file written in full under a temporary name beside its destination,
    /// not yet in place: stage every file of a job, then commit them, so a
    /// job whose second file cannot be written leaves nothing behind.
    public struct Staged: Sendable {
        let temp: URL
        public let destination: URL

        /// Moves the file into place.
        public func commit() throws { try AtomicFile.commit([self]) }

        /// Removes the temporary file.
        public func discard() {
            unlink(temp.path)
            TemporaryFiles.unregister(temp.path)
        }

        fileprivate func rename() throws {
            guard Foundation.rename(temp.path, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temp.path)
                throw VeilError.unwritable(path: destination.path, reason: reason)
            }
        }
    }

    /// Moves staged files into place in order, as one step against a stop
    /// (`TemporaryFiles.commit`): an output and its sidecar both, or neither
    /// when SIGINT or SIGTERM is ending the process. A rename that fails
    /// discards the files not yet moved.
    public static func commit(_ staged: [Staged]) throws {
        do {
            try TemporaryFiles.commit(staged.map(\.temp.path)) {
                for (i, file) in staged.enumerated() {
                    do { try file.rename() } catch {
                        for rest in staged.dropFirst(i + 1) { unlink(rest.temp.path) }
                        throw error
                    }
                }
            }
        } catch is CancellationError {
            for file in staged { unlink(file.temp.path) }
            throw CancellationError()
        }
    }

    /// Writes `data` under a temporary name in `url`'s folder (hidden, and
    /// short enough whatever the length of `url`'s name).
    /// `ownerOnly`: readable and writable by the owner alone (0600) from its
    /// creation on, for pictures that show faces uncovered (previews, sheets).
    public static func stage(_ data: Data, for url: URL, ownerOnly: Bool = false) throws -> Staged {
        let dir = url.deletingLastPathComponent()
        let unique = ".\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let temp = dir.appendingPathComponent(FileName.fitting("." + url.lastPathComponent, tail: unique, limit: FileName.maxBytes).name)
        TemporaryFiles.register(temp.path)
        guard FileManager.default.createFile(atPath: temp.path, contents: nil) else {
            TemporaryFiles.unregister(temp.path)
            throw VeilError.unwritable(path: url.path, reason: describeErrno(errno, in: dir))
        }
        if ownerOnly { chmod(temp.path, 0o600) }
        do {
            let handle = try FileHandle(forWritingTo: temp)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temp)
            TemporaryFiles.unregister(temp.path)
            throw VeilError.unwritable(path: url.path, reason: systemReason(error))
        }
        return Staged(temp: temp, destination: url)
    }

    /// The C library's words for an I/O error ("No space left on device"),
    /// rather than Foundation's paraphrase.
    private static func systemReason(_ error: Error) -> String {
        let ns = error as NSError
        let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        for candidate in [underlying, ns].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }

    private static func describeErrno(_ code: Int32, in dir: URL) -> String {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir) { return "folder \(dir.path) does not exist" }
        if !isDir.boolValue { return "\(dir.path) is not a folder" }
        return code != 0 ? String(cString: strerror(code)) : "cannot create a file in \(dir.path)"
    }
}
