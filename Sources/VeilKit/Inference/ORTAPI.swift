import COnnxRuntimeShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ONNX Runtime's C function table: the library is opened with `dlopen`,
/// `OrtGetApiBase()->GetApi(VEIL_ORT_API_VERSION)` returns an `OrtApi`, laid
/// out (with its entries' signatures) in `COnnxRuntimeShim/include/veil_ort.h`,
/// and its entries are called by name: `api.table.Run!(...)`.
final class ORTAPI: @unchecked Sendable {
    static let apiVersion = UInt32(VEIL_ORT_API_VERSION)

    /// The function table; its entries are non-null for the requested version.
    let table: OrtApi
    let version: String

    init(libraryPath: String) throws {
        let base = try ORTAPI.apiBase(libraryPath: libraryPath)
        version = ORTAPI.version(base)
        guard let api = base.pointee.GetApi!(ORTAPI.apiVersion) else {
            throw VeilError.inference("ONNX Runtime \(version) does not offer API version \(ORTAPI.apiVersion)")
        }
        table = api.pointee
    }

    /// `OrtGetApiBase()` of the library at `libraryPath`, opened with `dlopen`
    /// (a second open of the same file returns the same handle).
    static func apiBase(libraryPath: String) throws -> UnsafePointer<OrtApiBase> {
        // ONNX Runtime 1.32's Linux build carries Microsoft's 1DS telemetry: on
        // its first environment it writes a device id and an event database
        // under ~/.cache/Microsoft/DeveloperTools/.onnxruntime (in a container
        // with HOME=/data, into the user's photo folder) and queues events to
        // upload. Veil promises nothing leaves the machine: it is turned off
        // before the library is loaded, whatever the caller's environment says.
        setenv("ORT_DISABLE_TELEMETRY", "1", 1)
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw VeilError.inference("cannot load ONNX Runtime from \(libraryPath): \(reason)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw VeilError.inference("\(libraryPath) has no OrtGetApiBase: not ONNX Runtime")
        }
        guard let base = unsafeBitCast(symbol, to: OrtGetApiBaseFunction.self)() else {
            throw VeilError.inference("\(libraryPath): OrtGetApiBase returned nothing")
        }
        return base
    }

    /// `GetVersionString` of `OrtApiBase`: no environment is created.
    static func version(_ base: UnsafePointer<OrtApiBase>) -> String {
        String(cString: base.pointee.GetVersionString!()!)
    }

    /// Turns an `OrtStatus*` into a thrown error carrying ORT's message.
    func check(_ status: OpaquePointer?) throws {
        guard let status else { return }
        let message = String(cString: table.GetErrorMessage!(status)!)
        table.ReleaseStatus!(status)
        throw VeilError.inference(message)
    }
}
