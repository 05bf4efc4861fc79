import CVipsShim
import Foundation

/// Encodes images to files or bytes. Metadata (EXIF, XMP, GPS, IPTC) is
/// dropped by default: Veil's outputs are for sharing.
public struct ImageEncoder: Sendable {
    public var format: EncodedFormat
    /// JPEG/WebP/HEIF quality, 1...100.
    public var quality: Int
    /// Keep the source's metadata; the orientation is then reset to upright
    /// because the pixels already are.
    public var keepMetadata: Bool
    /// Whether kept metadata gets orientation 1 (tests turn this off to write
    /// photos with every EXIF orientation).
    var resetsOrientation = true

    public init(format: EncodedFormat, quality: Int = 90, keepMetadata: Bool = false) {
        self.format = format
        self.quality = quality
        self.keepMetadata = keepMetadata
    }

    var suffix: String {
        var options: [String] = []
        if !keepMetadata { options.append("strip") }
        if format.isLossy { options.append("Q=\(min(100, max(1, quality)))") }
        return ".\(format.fileExtension)[\(options.joined(separator: ","))]"
    }

    /// The encoded bytes of `image`.
    public func encode(_ image: VeilImage) throws -> Data {
        let prepared = try prepare(image)
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard veil_vips_save_buffer(prepared.handle.pointer, suffix, &data, &length) == 0, let data else {
            throw VeilError.imaging(VipsRuntime.takeError())
        }
        defer { veil_vips_free(data) }
        return Data(bytes: data, count: length)
    }

    /// Writes `image` to `url` through a temporary file in the same folder,
    /// renamed into place at the end, so a failure leaves nothing partial.
    public func write(_ image: VeilImage, to url: URL) throws {
        let data = try encode(image)
        try AtomicFile.write(data, to: url)
    }

    private func prepare(_ image: VeilImage) throws -> VeilImage {
        // JPEG and BMP have no alpha: flatten onto white rather than black.
        var out = image
        if (format == .jpeg || format == .bmp) && image.hasAlpha {
            out = VeilImage(try image.handle.apply { veil_vips_flatten($0, $1, 255, 255, 255) })
        }
        if keepMetadata && resetsOrientation {
            // A copy so the shared source image's header is not modified.
            let copy = try out.handle.apply { veil_vips_copy($0, $1) }
            _ = veil_vips_set_int(copy.pointer, "orientation", 1)
            out = VeilImage(copy)
        }
        return out
    }
}

/// Writing files so that readers see the old file or the whole new one, never half.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        try stage(data, for: url).commit()
    }

    /// A file written in full under a temporary name beside its destination,
    /// not yet in place: stage every file of a job, then commit them, so a
    /// job whose second file cannot be written leaves nothing behind.
    public struct Staged: Sendable {
        let temp: URL
        public let destination: URL

        /// Moves the file into place.
        public func commit() throws {
            guard rename(temp.path, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw VeilError.unwritable(path: destination.path, reason: reason)
            }
        }

        /// Removes the temporary file.
        public func discard() { unlink(temp.path) }
    }

    /// Writes `data` under a temporary name in `url`'s folder (hidden, and
    /// short enough whatever the length of `url`'s name).
    public static func stage(_ data: Data, for url: URL) throws -> Staged {
        let dir = url.deletingLastPathComponent()
        let unique = ".\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let temp = dir.appendingPathComponent(FileName.fitting("." + url.lastPathComponent, tail: unique, limit: FileName.maxBytes).name)
        guard FileManager.default.createFile(atPath: temp.path, contents: nil) else {
            throw VeilError.unwritable(path: url.path, reason: describeErrno(errno, in: dir))
        }
        do {
            let handle = try FileHandle(forWritingTo: temp)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw VeilError.unwritable(path: url.path, reason: systemReason(error))
        }
        return Staged(temp: temp, destination: url)
    }

    /// The C library's words for an I/O error ("No space left on device"),
    /// rather than Foundation's paraphrase.
    private static func systemReason(_ error: Error) -> String {
        let ns = error as NSError
        let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        for candidate in [underlying, ns].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }

    private static func describeErrno(_ code: Int32, in dir: URL) -> String {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir) { return "folder \(dir.path) does not exist" }
        if !isDir.boolValue { return "\(dir.path) is not a folder" }
        return code != 0 ? String(cString: strerror(code)) : "cannot create a file in \(dir.path)"
    }
}
