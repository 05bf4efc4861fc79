import CVipsShim
import Foundation

/// SHA-256 digests as lowercase hex, through GLib (already linked by libvips).
enum SHA256 {
    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digest = veil_sha256_hex(bytes.baseAddress, bytes.count)!
        defer { veil_vips_free(digest) }
        return String(cString: digest)
    }

    static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }
    static func hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex($0) } }

    static func hex(fileAt url: URL) throws -> String {
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        return hex(data)
    }
}
