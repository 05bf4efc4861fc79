import CSystem
import Foundation

/// SHA-256 digests as lowercase hex, through GLib's checksum (GLib is linked
/// by libvips already; no second crypto library). They name a photo in editing
/// states and the service's state folder, and check installed models.
enum SHA256 {
    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(bytes.count))!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }
    static func hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex($0) } }

    /// A file's digest read in 8 MiB pieces: a long video is never held whole.
    static func hex(streaming url: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw VeilError.unreadable(path: url.path, reason: "cannot open it")
        }
        defer { try? handle.close() }
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)!
        defer { g_checksum_free(checksum) }
        while let piece = try handle.read(upToCount: 8 << 20), !piece.isEmpty {
            piece.withUnsafeBytes { g_checksum_update(checksum, $0.baseAddress?.assumingMemoryBound(to: guchar.self), gssize($0.count)) }
        }
        return String(cString: g_checksum_get_string(checksum))
    }

    static func hex(fileAt url: URL) throws -> String {
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        return hex(data)
    }
}
