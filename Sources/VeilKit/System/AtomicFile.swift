import Foundation

/// Writing files so that readers see the old file or the whole new one, never half.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        try stage(data, for: url).commit()
    }

    /// A file written in full under a temporary name beside its destination,
    /// not yet in place: stage every file of a job, then commit them, so a
    /// job whose second file cannot be written leaves nothing behind.
    public struct Staged: Sendable {
        let temp: URL
        public let destination: URL

        /// Moves the file into place.
        public func commit() throws {
            guard rename(temp.path, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw VeilError.unwritable(path: destination.path, reason: reason)
            }
        }

        /// Removes the temporary file.
        public func discard() { unlink(temp.path) }
    }

    /// Writes `data` under a temporary name in `url`'s folder (hidden, and
    /// short enough whatever the length of `url`'s name).
    public static func stage(_ data: Data, for url: URL) throws -> Staged {
        let dir = url.deletingLastPathComponent()
        let unique = ".\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let temp = dir.appendingPathComponent(FileName.fitting("." + url.lastPathComponent, tail: unique, limit: FileName.maxBytes).name)
        guard FileManager.default.createFile(atPath: temp.path, contents: nil) else {
            throw VeilError.unwritable(path: url.path, reason: describeErrno(errno, in: dir))
        }
        do {
            let handle = try FileHandle(forWritingTo: temp)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temp)
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
