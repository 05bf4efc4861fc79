import CSystem
import Foundation

/// SHA-256 digests as lowercase hex, through Nettle (GnuTLS's hashing library,
/// which FFmpeg and libmicrohttpd load already): its x86-64 code uses the CPU's SHA
/// instructions where they exist. They name a photo in editing states and the
/// service's state folder, and check installed models on every load. GLib's
/// checksum, used before, is portable C: 53 ms for CenterFace's 7.3 MB
/// against Nettle's 6 ms on an AMD EPYC (Zen 3), a tenth of a one-photo
/// `veil blur`, and each photo's input and output are hashed too.
enum SHA256 {
    /// The running digest of bytes fed in pieces.
    private struct Running: ~Copyable {
        private var context = sha256_ctx()
        init() { nettle_sha256_init(&context) }
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
        }
        consuming func hex() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            nettle_sha256_digest(&context, 32, &digest)
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
        }
    }

    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var running = Running()
        running.update(bytes)
        return running.hex()
    }

    static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }
    static func hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex($0) } }

    /// A file's digest read in 8 MiB pieces: a long video is never held whole.
    static func hex(streaming url: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw VeilError.unreadable(path: url.path, reason: "cannot open it")
        }
        defer { try? handle.close() }
        var running = Running()
        while let piece = try handle.read(upToCount: 8 << 20), !piece.isEmpty {
            piece.withUnsafeBytes { running.update($0) }
        }
        return running.hex()
    }

    static func hex(fileAt url: URL) throws -> String {
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        return hex(data)
    }
}
