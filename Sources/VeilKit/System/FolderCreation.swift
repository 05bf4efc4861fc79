import Foundation

/// Creating the folder an output goes in, with a one-line reason a person
/// can act on when it cannot be made. In a container the image's user
/// (uid 999) cannot write a folder of the host's user; the bare "cannot
/// create the folder" left them guessing (issue 28).
public enum FolderCreation {
    public static func make(_ folder: URL, for path: String) throws {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw VeilError.unwritable(path: path, reason: reason(folder))
        }
    }

    /// Why `folder` cannot be made: a file where a folder should be, or the
    /// nearest existing folder not writable by this user (with its owner,
    /// and how to run a container as oneself).
    public static func reason(_ folder: URL) -> String {
        var ancestor = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.path != "/" { ancestor.deleteLastPathComponent() }
        var info = stat()
        guard stat(ancestor.path, &info) == 0 else { return "cannot create the folder \(folder.path)" }
        if info.st_mode & S_IFMT != S_IFDIR { return "cannot create the folder \(folder.path): \(ancestor.path) is a file, not a folder" }
        if access(ancestor.path, W_OK) != 0 {
            return "cannot create the folder \(folder.path): \(ancestor.path) belongs to uid \(info.st_uid) and Veil runs as uid \(getuid())"
                + " (in a container, run it as yourself: podman run --user $(id -u):$(id -g) ...)"
        }
        return "cannot create the folder \(folder.path)"
    }
}
