import CVipsShim
import Foundation

/// One-time libvips start-up, and the conversion of its error buffer into Swift errors.
enum VipsRuntime {
    private static let started: Bool = {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        return veil_vips_init(Int32(threads)) == 0
    }()

    static func ensureStarted() throws {
        guard started else { throw VeilError.imaging("libvips failed to start: \(takeError())") }
    }

    /// Reads and clears libvips' error buffer, keeping its first line.
    /// libvips' last error, taken (its buffer is cleared). It keeps no message
    /// while another thread has errors frozen, so the fallback names what
    /// failed: `operation` (an image operation) or, without one, the decoder's
    /// usual reason, not a damaged file for every silent failure.
    static func takeError(_ operation: String? = nil) -> String {
        let text = String(cString: veil_vips_error())
        veil_vips_error_clear()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.first { !$0.isEmpty }
            ?? operation.map { "libvips' \($0) failed and gave no reason" }
            ?? "unrecognised or damaged image data"
    }
}

/// Owns one reference to a `VipsImage`. libvips images are immutable once
/// built and safe to read from several threads, hence `@unchecked Sendable`.
final class VipsHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { veil_vips_unref(pointer) }

    var width: Int { Int(veil_vips_width(pointer)) }
    var height: Int { Int(veil_vips_height(pointer)) }
    var bands: Int { Int(veil_vips_bands(pointer)) }

    /// Runs one libvips operation that writes a new image to its out-parameter.
    func apply(_ body: (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws -> VipsHandle {
        try VipsHandle.make { body(pointer, $0) }
    }

    /// Runs the libvips operation `name` on this image (its `in` argument),
    /// the other arguments in libvips' string form ("sigma=2", "format=uchar").
    func call(_ name: String, _ options: String = "") throws -> VipsHandle {
        try VipsHandle.call(name, ["in": self], options)
    }

    /// Runs the libvips operation `name` with `images` bound to their argument
    /// names, the other arguments in libvips' string form, and returns its `out`.
    static func call(_ name: String, _ images: KeyValuePairs<String, VipsHandle>, _ options: String = "") throws -> VipsHandle {
        var pointers: [OpaquePointer?] = images.map { $0.value.pointer }
        let names = images.map(\.key).joined(separator: " ")
        return try withExtendedLifetime(images) {
            try make(name) { veil_vips_call(name, names, &pointers, Int32(pointers.count), options, $0) }
        }
    }

    /// The image `body` makes; `operation` names it in an error libvips left without a message.
    static func make(_ operation: String = "image operation", _ body: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws -> VipsHandle {
        var out: OpaquePointer?
        guard body(&out) == 0, let out else { throw VeilError.imaging(VipsRuntime.takeError(operation)) }
        return VipsHandle(out)
    }
}

extension ImageDecoder {
    /// Starts libvips now, on the calling thread. A server calls it once at
    /// start-up: libvips loads its plugins when it starts, and doing that
    /// lazily on a request's thread tripped a GLib assertion under
    /// ThreadSanitizer. Later calls do nothing.
    public static func prepare() throws { try VipsRuntime.ensureStarted() }
}
