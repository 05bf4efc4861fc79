import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ONNX Runtime's C function table, read without its header: the library is
/// opened with `dlopen`, `OrtGetApiBase()->GetApi(ORT_API_VERSION)` returns a
/// table of function pointers whose order is fixed across releases, and each
/// entry used here is read at its index and cast to its C signature.
final class ORTAPI: @unchecked Sendable {
    typealias Status = OpaquePointer
    typealias StatusFn1 = @convention(c) (OpaquePointer?) -> Status?

    static let apiVersion: UInt32 = 23

    private let table: UnsafePointer<UnsafeRawPointer?>
    let version: String

    init(libraryPath: String) throws {
        typealias GetApi = @convention(c) (UInt32) -> UnsafeRawPointer?
        let base = try ORTAPI.apiBase(libraryPath: libraryPath)
        let getApi = unsafeBitCast(base[0]!, to: GetApi.self)
        version = ORTAPI.version(base)
        guard let api = getApi(ORTAPI.apiVersion) else {
            throw VeilError.inference("ONNX Runtime \(version) does not offer API version \(ORTAPI.apiVersion)")
        }
        table = api.assumingMemoryBound(to: UnsafeRawPointer?.self)
    }

    /// `OrtGetApiBase()` of the library at `libraryPath`, opened with `dlopen`
    /// (a second open of the same file returns the same handle).
    static func apiBase(libraryPath: String) throws -> UnsafePointer<UnsafeRawPointer?> {
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw VeilError.inference("cannot load ONNX Runtime from \(libraryPath): \(reason)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw VeilError.inference("\(libraryPath) has no OrtGetApiBase: not ONNX Runtime")
        }
        typealias GetApiBase = @convention(c) () -> UnsafePointer<UnsafeRawPointer?>
        return unsafeBitCast(symbol, to: GetApiBase.self)()
    }

    /// `GetVersionString`, the second entry of `OrtApiBase`: no environment is created.
    static func version(_ base: UnsafePointer<UnsafeRawPointer?>) -> String {
        typealias GetVersion = @convention(c) () -> UnsafePointer<CChar>
        return String(cString: unsafeBitCast(base[1]!, to: GetVersion.self)())
    }

    /// The function at `index` in the table, cast to its C type.
    func fn<F>(_ index: Int, _ type: F.Type) -> F { unsafeBitCast(table[index]!, to: F.self) }

    /// Turns an `OrtStatus*` into a thrown error carrying ORT's message.
    func check(_ status: Status?) throws {
        guard let status else { return }
        typealias Message = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>
        typealias Release = @convention(c) (OpaquePointer) -> Void
        let message = String(cString: fn(Index.getErrorMessage, Message.self)(status))
        fn(Index.releaseStatus, Release.self)(status)
        throw VeilError.inference(message)
    }

    /// Calls a `Release*` entry on `pointer`.
    func release(_ index: Int, _ pointer: OpaquePointer?) {
        guard let pointer else { return }
        typealias Release = @convention(c) (OpaquePointer) -> Void
        fn(index, Release.self)(pointer)
    }

    /// Entry positions in `OrtApi` (see onnxruntime_c_api.h).
    enum Index {
        static let getErrorMessage = 2
        static let createEnv = 3
        static let createSessionFromArray = 8
        static let run = 9
        static let createSessionOptions = 10
        static let disableMemPattern = 17
        static let setGraphOptimizationLevel = 23
        static let setIntraOpNumThreads = 24
        static let setInterOpNumThreads = 25
        static let sessionGetInputCount = 30
        static let sessionGetOutputCount = 31
        static let sessionGetInputName = 36
        static let sessionGetOutputName = 37
        static let createTensorWithDataAsOrtValue = 49
        static let getTensorMutableData = 51
        static let getDimensionsCount = 61
        static let getDimensions = 62
        static let getTensorTypeAndShape = 65
        static let createCpuMemoryInfo = 69
        static let allocatorFree = 76
        static let getAllocatorWithDefaultOptions = 78
        static let releaseEnv = 92
        static let releaseStatus = 93
        static let releaseMemoryInfo = 94
        static let releaseSession = 95
        static let releaseValue = 96
        static let releaseTensorTypeAndShapeInfo = 99
        static let releaseSessionOptions = 100
        static let addSessionConfigEntry = 130
    }
}
