import Foundation

/// Models as ONNX Runtime is given them, kept on disk: a model Veil rewrites
/// before loading it (its graph repaired, rewritten to 8 bits) is rewritten
/// once per build of Veil and CPU kind, not once per process. The rewrite of
/// CenterFace cost 30-37 ms of a one-photo `veil blur` (~0.25 s, AVX-512 VNNI
/// EPYC), on every start: a Slurm array's every task, every batch.
///
/// An entry is named by what made it: the pinned model's sha256, the variant,
/// this build (the rewrite is this build's code) and the CPU kind (8-bit
/// weights are narrowed where the CPU lacks VNNI, `WeightRange`). Its bytes
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

    /// Keeps `bytes` as the entry, and removes the entries of other builds
    /// and CPU kinds for the same model and variant. Failures are ignored.
    func write(_ bytes: [UInt8], for asset: Asset, variant: String?) {
        let name = name(of: asset, variant: variant)
        let fm = FileManager.default
        try? fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let prefix = String(name.dropLast(".onnx".count + 16))
        for old in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(old)
            if old.hasPrefix(prefix) && !old.hasPrefix(name) {
                try? fm.removeItem(at: url)
            } else if old.hasPrefix(".\(prefix)"), old.hasSuffix(".tmp"),
                      let written = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                      written.timeIntervalSinceNow < -600 {
                // Left by a process that stopped mid-write (a writer's own is seconds old).
                try? fm.removeItem(at: url)
            }
        }
        let url = folder.appendingPathComponent(name)
        // The digest first: a reader between the two renames finds the new
        // digest beside the old bytes (or none), and makes the entry again.
        for (data, target) in [(Data(SHA256.hex(bytes).utf8), url.appendingPathExtension("sha256")), (Data(bytes), url)] {
            let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
            guard (try? data.write(to: temporary)) != nil, rename(temporary.path, target.path) == 0 else {
                try? fm.removeItem(at: temporary)
                return
            }
        }
    }
}
