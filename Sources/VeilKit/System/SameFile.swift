import Foundation

/// Whether an output would land on an input: the one check every command
/// makes before writing, so an original is never overwritten by accident.
public enum SameFile {
    /// True when `a` and `b` name the same file: the same path once both are
    /// resolved (symlinks, `..`, `.`, doubled slashes, a relative spelling),
    /// or, when both exist, the same device and inode (hard links, bind mounts).
    /// A path that does not exist yet is resolved through its folder.
    public static func test(_ a: String, _ b: String) -> Bool {
        if resolved(a) == resolved(b) { return true }
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// Throws a one-line error when writing `output` would write `input`.
    public static func refuse(output: String, input: String) throws {
        if test(input, output) {
            throw VeilError.invalidArgument("the output \(output) is the input \(input) (same file); choose another output")
        }
    }

    /// The absolute path with every symlink followed; for a path that does
    /// not exist, its folder's resolved path and its last component.
    static func resolved(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let url = URL(fileURLWithPath: absolute)
        let folder = url.deletingLastPathComponent().path
        guard folder != absolute, let real = realpath(folder, nil) else { return absolute }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real)).appendingPathComponent(url.lastPathComponent).path
    }
}
