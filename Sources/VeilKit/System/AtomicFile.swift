import Foundation

/// Writing files so that readers see the old file or the whole new one, never half.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
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
        guard rename(temp.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temp)
            throw VeilError.unwritable(path: url.path, reason: reason)
        }
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
