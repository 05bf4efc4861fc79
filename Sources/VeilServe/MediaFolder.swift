import Foundation
import VeilKit

/// The videos `veil serve --media DIR` may show: regular files directly in
/// DIR (not in sub-folders, not hidden, not symbolic links), with a video
/// extension. A request names a video by its file name only; a name with a
/// slash, a leading dot or anything not listed is refused, so no request can
/// reach another path on the server.
struct MediaFolder: Sendable {
    let directory: URL
    /// Outputs and their editing states, by the source's name (in --state-dir).
    let outputs: URL

    static let extensions = VideoFormats.extensions

    /// The names of the videos, sorted.
    var names: [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { MediaFolder.isAllowed($0) && isRegularFile($0) }.sorted()
    }

    /// The path of the video named `name`, or nil when there is no such video.
    func path(_ name: String) -> String? {
        guard MediaFolder.isAllowed(name), isRegularFile(name) else { return nil }
        return directory.appendingPathComponent(name).path
    }

    static func isAllowed(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
            && extensions.contains((name as NSString).pathExtension.lowercased())
    }

    private func isRegularFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(directory.appendingPathComponent(name).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Where the covered copy of `name` goes: `NAME-veil.EXT`, its state
    /// beside it; a container Veil does not write becomes mp4 with its old
    /// extension kept in the name (`a.avi` → `a.avi-veil.mp4`), so it cannot
    /// meet `a.mp4`'s.
    func output(for name: String) -> URL {
        let ext = (name as NSString).pathExtension.lowercased()
        let kept = VideoFormats.container(forExtension: ext)?.written ?? false
        return outputs.appendingPathComponent(kept ? ((name as NSString).deletingPathExtension) + "-veil." + ext : name + "-veil.mp4")
    }

    func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
