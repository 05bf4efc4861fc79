import COnnxRuntimeShim
import Foundation

/// The loaded ONNX Runtime library and its environment, one per process, plus
/// the sessions opened so far (one per model and device), shared by every request.
public final class InferenceRuntime: @unchecked Sendable {
    let api: ORTAPI
    let env: OpaquePointer
    public let store: AssetStore
    private let lock = NSLock()
    private var sessions: [String: InferenceSession] = [:]

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

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var runtimes: [VeilHome: InferenceRuntime] = [:]

    /// The runtime for `home`, loaded on first use. ONNX Runtime allows one
    /// environment per process, so every caller shares it.
    public static func shared(home: VeilHome = .default) throws -> InferenceRuntime {
        sharedLock.lock(); defer { sharedLock.unlock() }
        if let runtime = runtimes[home] { return runtime }
        let runtime = try InferenceRuntime(store: AssetStore(home: home))
        runtimes[home] = runtime
        return runtime
    }

    /// The session for `asset` on `device`, created on first use from the
    /// model's bytes after `prepare` (which may repair the graph) has run.
    func session(for asset: Asset, device: ComputeDevice, prepare: ([UInt8]) throws -> [UInt8] = { $0 }) throws -> InferenceSession {
        let key = "\(asset.name)/\(device)"
        lock.lock(); defer { lock.unlock() }
        if let session = sessions[key] { return session }
        let url = try store.require(asset)
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw VeilError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        let digest = SHA256.hex(bytes)
        guard digest == asset.sha256 else {
            throw VeilError.checksumMismatch(name: url.path, expected: asset.sha256, actual: digest)
        }
        let session = try InferenceSession(runtime: self, model: try prepare(bytes), device: device)
        sessions[key] = session
        return session
    }
}
