import Foundation

/// How an editing state names the files it was made from and into: by the
/// path from the state's own folder (`../photos/a.jpg`, `a-veil.jpg`), never
/// an absolute one, so a state shared with someone discloses no folder of the
/// machine it was made on, and still finds its input when the whole tree is
/// moved or mounted elsewhere.
public enum RelativePath {
    /// The path of `file` from `folder`, both made absolute and standardized
    /// (symlinks not followed: the path the user sees).
    public static func of(_ file: URL, from folder: URL) -> String {
        let target = file.standardizedFileURL.pathComponents, base = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count - 1, base.count), target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }

    /// Where a state in `folder` says `path` is: relative to the folder (an
    /// absolute path, from states written before, as it is).
    public static func resolve(_ path: String, from folder: URL) -> URL {
        URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
    }
}
