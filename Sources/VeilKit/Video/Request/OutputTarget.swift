import Foundation

/// A file output goes through a temporary name beside it, renamed over the
/// final name only when finished and flushed to disk: a failure, a full disk,
/// a cancellation or a kill leaves nothing under the final name. URLs and
/// devices are written directly.
struct OutputTarget {
    let finalPath: String
    let writePath: String
    let impliedFormat: String?

    init(_ output: String, explicitFormat: String?) {
        finalPath = output
        if Self.isFile(output, explicitFormat: explicitFormat) {
            let url = URL(fileURLWithPath: output)
            writePath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).part").path
            impliedFormat = VideoFormats.muxer(forExtension: url.pathExtension)
            TemporaryFiles.register(writePath)
        } else {
            writePath = output
            impliedFormat = nil
        }
    }

    /// Whether `output` is a file: not a URL, not a device, and no muxer named for it.
    static func isFile(_ output: String, explicitFormat: String?) -> Bool {
        !output.contains("://") && explicitFormat == nil && !output.hasPrefix("/dev/")
    }

    func commit() throws {
        guard writePath != finalPath else { return }
        let fd = open(writePath, O_RDONLY)
        let synced = fd >= 0 && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        if fd >= 0 { close(fd) }
        do {
            try TemporaryFiles.commit([writePath]) {
                guard synced, rename(writePath, finalPath) == 0 else {
                    let why = synced ? String(cString: strerror(errno)) : reason
                    unlink(writePath)
                    throw VeilError.unwritable(path: finalPath, reason: why)
                }
            }
        } catch is CancellationError {
            unlink(writePath)
            throw CancellationError()
        }
    }

    /// Removes temporary files of this output left by runs that died (a
    /// crash or a kill -9 cannot clean up after itself): `.NAME.PID.part`
    /// beside the output whose process no longer exists.
    func sweepStale() {
        guard writePath != finalPath else { return }
        let url = URL(fileURLWithPath: finalPath), prefix = ".\(url.lastPathComponent)."
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".part") {
            guard Int32(name.dropFirst(prefix.count).dropLast(".part".count)) != nil,
                  let pid = TemporaryFiles.writer(of: name), TemporaryFiles.isGone(pid) else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Creates the temporary file readable by its owner alone, for a muxer
    /// that opens it after (O_CREAT keeps an existing file's mode).
    func createOwnerOnly() {
        let fd = open(writePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd >= 0 { fchmod(fd, 0o600); close(fd) }
    }

    func discard() {
        guard writePath != finalPath else { return }
        unlink(writePath)
        TemporaryFiles.unregister(writePath)
    }
}
