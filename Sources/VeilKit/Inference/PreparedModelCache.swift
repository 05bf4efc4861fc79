import Foundation

/// Models as ONNX Runtime runs them, kept on disk: each model is read,
/// checked, rewritten where Veil rewrites it (its graph repaired, 8 bits)
/// and optimized by ONNX Runtime once per build of Veil and CPU kind, not
/// once per process. For CenterFace in 8 bits that was 30-37 ms of rewriting
/// and 40-95 ms of ONNX Runtime's optimizing against 7-11 ms to open the
/// optimized file (AVX-512 VNNI EPYC), at every start: a Slurm array's every
/// task, every batch, every `veil serve`.
///
/// An entry is named by what made it: the pinned model's sha256, the variant,
/// this build (the rewrite is this build's code; ONNX Runtime is pinned) and
/// the CPU kind (8-bit weights are narrowed where the CPU lacks VNNI,
/// `WeightRange`, and ONNX Runtime lays convolutions out for the vector
/// width: an optimized file is for the kind of CPU that wrote it). Its bytes
/// are checked against the digest written beside them, as the pinned files
/// are, so a damaged or altered entry is made again, never loaded. Entries
/// are written under a temporary name and renamed; a folder that cannot be
/// written (a read-only image) only means no cache.
struct PreparedModelCache: Sendable {
    let folder: URL
    /// This build and CPU kind.
    let stamp: String

    init(home: VeilHome, stamp: String = PreparedModelCache.currentStamp) {
        folder = home.url.appendingPathComponent("prepared")
        self.stamp = stamp
    }

    /// The running executable's size and modification time (any rebuild or
    /// upgrade changes them), and the CPU kind.
    static let currentStamp: String = {
        var info = stat()
        let build = stat("/proc/self/exe", &info) == 0
            ? "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            : ProcessInfo.processInfo.arguments.first ?? "?"
        return "\(build)/\(CPUKind.current)"
    }()

    /// The entry's file name for `asset` as `variant` made it.
    func name(of asset: Asset, variant: String?) -> String {
        let key = SHA256.hex(Array("\(asset.sha256)|\(variant ?? "")|\(stamp)".utf8))
        return "\(asset.name)\(variant.map { "+\($0)" } ?? "")-\(key.prefix(16)).onnx"
    }

    /// The entry's bytes, if there is one and they are what was written.
    func read(_ asset: Asset, variant: String?) -> [UInt8]? {
        let url = folder.appendingPathComponent(name(of: asset, variant: variant))
        guard let bytes = try? [UInt8](Data(contentsOf: url)),
              let digest = try? String(contentsOf: url.appendingPathExtension("sha256"), encoding: .utf8),
              SHA256.hex(bytes) == digest else { return nil }
        return bytes
    }

    /// A temporary file to make the entry in (ONNX Runtime writes the
    /// optimized model there as it opens the session), after removing writes
    /// left half-done and all but the newest entry of other builds and CPU
    /// kinds for the same model and variant: two builds sharing a home (the
    /// tests' and the release's, a container's and the host's) each keep
    /// theirs, and the folder holds at most two of each. Nil when the folder
    /// cannot be written.
    func reserve(_ asset: Asset, variant: String?) -> URL? {
        let name = name(of: asset, variant: variant)
        let fm = FileManager.default
        guard (try? fm.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        let prefix = String(name.dropLast(".onnx".count + 16))
        func written(_ url: URL) -> Date { ((try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast }
        var others: [(url: URL, written: Date)] = []
        for file in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(file)
            if file.hasPrefix(prefix), !file.hasPrefix(name), file.hasSuffix(".onnx") {
                others.append((url, written(url)))
            } else if file.hasPrefix(".\(prefix)"), file.hasSuffix(".tmp"), written(url).timeIntervalSinceNow < -600 {
                // Left by a process that stopped mid-write (a writer's own is seconds old).
                try? fm.removeItem(at: url)
            }
        }
        for old in others.sorted(by: { $0.written > $1.written }).dropFirst() {
            try? fm.removeItem(at: old.url)
            try? fm.removeItem(at: old.url.appendingPathExtension("sha256"))
        }
        let temporary = folder.appendingPathComponent(".\(name).\(getpid()).tmp")
        try? fm.removeItem(at: temporary)
        return temporary
    }

    /// Makes what was written to `temporary` (by `reserve`) the entry, its
    /// digest beside it; a file that is missing or empty is dropped.
    func commit(_ temporary: URL, for asset: Asset, variant: String?) {
        defer { try? FileManager.default.removeItem(at: temporary) }
        guard let bytes = try? [UInt8](Data(contentsOf: temporary)), !bytes.isEmpty else { return }
        let url = folder.appendingPathComponent(name(of: asset, variant: variant))
        // The digest first: a reader between the two renames finds the new
        // digest beside the old bytes (or none), and makes the entry again.
        guard (try? AtomicFile.write(Data(SHA256.hex(bytes).utf8), to: url.appendingPathExtension("sha256"))) != nil else { return }
        _ = rename(temporary.path, url.path)
    }
}
