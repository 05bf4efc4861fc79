import COnnxRuntimeShim
import Foundation
import Synchronization

/// The loaded ONNX Runtime library and its environment, one per process, plus
/// the sessions opened so far (one per model and device), shared by every request.
/// `@unchecked Sendable` for `env`, a pointer ONNX Runtime allows any thread
/// to use; the mutable table of sessions is behind a `Mutex`.
public final class InferenceRuntime: @unchecked Sendable {
    let api: ORTAPI
    let env: OpaquePointer
    public let store: AssetStore
    /// Each session key's session, or the load its first caller is making,
    /// which later callers await (see `session(for:)`).
    private enum Slot {
        case loading(OneShot<Result<InferenceSession, any Error>>)
        case ready(InferenceSession)
    }
    private let sessions = Mutex<[String: Slot]>([:])
    /// Models as an earlier process of this build prepared them and ONNX Runtime optimized them,
    /// for the CPU kind and the kernels' exact 8-bit arithmetic (`eightBitWeights`): ONNX
    /// Runtime lays an optimized file out for the kernels it chose from CPUID, which glibc's
    /// view of the CPU (`CPUKind`) can miss, and a file laid out for others fails to run.
    var cache: PreparedModelCache {
        let arithmetic = eightBitWeights.map { "\($0.peak)" } ?? "float"
        return PreparedModelCache(home: store.home, stamp: "\(PreparedModelCache.currentStamp)/\(arithmetic)")
    }
    /// `EightBitProbe`'s answer, asked once (`eightBitWeights`).
    private let probed = Mutex<WeightRange??>(nil)

    /// The ONNX Runtime version string, e.g. "1.32.0".
    public var version: String { api.version }

    private init(store: AssetStore) throws {
        self.store = store
        let library = try store.require(.onnxRuntime)
        api = try ORTAPI(libraryPath: library.path)
        var env: OpaquePointer?
        try api.check(api.table.CreateEnv!(ORT_LOGGING_LEVEL_ERROR, "veil", &env))
        self.env = env!
    }

    /// Held while a runtime is created: ONNX Runtime allows one environment
    /// per process, so two first callers must not both make one. Creating it
    /// (dlopen, CreateEnv) happens once per process and loads no model.
    private static let runtimes = Mutex<[VeilHome: InferenceRuntime]>([:])

    /// The runtime for `home`, loaded on first use. ONNX Runtime allows one
    /// environment per process, so every caller shares it.
    public static func shared(home: VeilHome = .default) throws -> InferenceRuntime {
        try runtimes.withLock { runtimes in
            if let runtime = runtimes[home] { return runtime }
            let runtime = try InferenceRuntime(store: AssetStore(home: home))
            runtimes[home] = runtime
            return runtime
        }
    }

    /// The session for `asset` on `device`, created on first use from the
    /// model's bytes after `prepare` (which may repair the graph) has run.
    ///
    /// No lock is held while a model is read, hashed, prepared and loaded (a
    /// tenth of a second to seconds): the first caller of a key marks it
    /// loading in the table and loads it; later callers of that model await
    /// its load (suspended, no thread held) and get its session, or its
    /// error; other models' callers are not held up. A failed load leaves
    /// the key empty, so a later call tries again. Two first callers each
    /// loading it cost `veil blur` a second 8-bit rewrite and session at
    /// every start: its two photos in flight reach the detector together.
    ///
    /// A `variant` (such as "int8", a rewrite by `prepare`) is a session of
    /// its own beside the file's, read from the same pinned file. What
    /// `prepare` makes, as ONNX Runtime optimized it, is kept in `cache` and
    /// read from there by the next process of this build: the pinned file is
    /// then not read, rewritten or optimized again.
    ///
    /// `inspect` sees the bytes the session is made from (prepared, or the
    /// cache's), for what a caller reads from the model itself, such as the
    /// text recogniser's character list in its metadata, which ONNX
    /// Runtime's optimized file keeps. `prepare` may not run at all.
    func session(for asset: Asset, variant: String? = nil, device: ComputeDevice,
                 prepare: ([UInt8]) throws -> [UInt8] = { $0 },
                 inspect: ([UInt8]) throws -> Void = { _ in }) async throws -> InferenceSession {
        let key = "\(asset.name)\(variant.map { "+\($0)" } ?? "")/\(device)"
        let made = OneShot<Result<InferenceSession, any Error>>()
        let found: Slot? = sessions.withLock { slots in
            if let slot = slots[key] { return slot }
            slots[key] = .loading(made)
            return nil
        }
        switch found {
        case let .ready(session)?: return session
        case let .loading(load)?: return try await load.value.get()
        case nil: break
        }
        let result = Result { try load(asset, variant: variant, device: device, prepare: prepare, inspect: inspect) }
        sessions.withLock { slots in
            if case let .success(session) = result { slots[key] = .ready(session) } else { slots[key] = nil }
        }
        made.fulfil(result)
        return try result.get()
    }

    /// Makes the session `session(for:)` keeps: from the cache when this build
    /// prepared the model before, else from the pinned file, checked, prepared
    /// and (as ONNX Runtime optimizes it) cached.
    private func load(_ asset: Asset, variant: String?, device: ComputeDevice,
                      prepare: ([UInt8]) throws -> [UInt8], inspect: ([UInt8]) throws -> Void) throws -> InferenceSession {
        let url = try store.require(asset)
        let cache = self.cache
        if let bytes = cache.read(asset, variant: variant), (try? inspect(bytes)) != nil,
           let loaded = try? InferenceSession(runtime: self, model: bytes, device: device, optimized: true) {
            return loaded
        }
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw VeilError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        let digest = SHA256.hex(bytes)
        guard digest == asset.sha256 else {
            throw VeilError.checksumMismatch(name: url.path, expected: asset.sha256, actual: digest)
        }
        let entry = cache.reserve(asset, variant: variant)
        let loaded: InferenceSession
        do {
            let prepared = try prepare(bytes)
            try inspect(prepared)
            loaded = try InferenceSession(runtime: self, model: prepared, device: device, savingOptimizedTo: entry?.path)
        } catch {
            if let entry { try? FileManager.default.removeItem(at: entry) }
            throw error
        }
        if let entry { cache.commit(entry, for: asset, variant: variant) }
        return loaded
    }

    /// The 8-bit weights this process's kernels multiply exactly (`EightBitProbe`), or nil where
    /// none do and the networks run in float. A network's 8-bit session is prepared for this
    /// range, and the prepared-model cache is keyed by it (`cache`), so a prepared model made
    /// for another range is never read back.
    var eightBitWeights: WeightRange? {
        probed.withLock { probed in
            if let known = probed { return known }
            let range = EightBitProbe.exactRange(runtime: self)
            probed = .some(range)
            return range
        }
    }

    /// Sessions open now (for tests: one per model and device, however many callers raced).
    var sessionCount: Int {
        sessions.withLock { slots in slots.values.filter { if case .ready = $0 { true } else { false } }.count }
    }
}
