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
            throw VeilError.imaging(VipsRuntime.takeError("encoder"))
        }
        defer { veil_vips_free(data) }
        return Data(bytes: data, count: length)
    }

    /// Writes `image` to `url` through a temporary file in the same folder,
    /// renamed into place at the end, so a failure leaves nothing partial.
    /// `ownerOnly`: mode 0600, for a picture that shows faces uncovered.
    public func write(_ image: VeilImage, to url: URL, ownerOnly: Bool = false) throws {
        let data = try encode(image)
        try AtomicFile.write(data, to: url, ownerOnly: ownerOnly)
    }

    private func prepare(_ image: VeilImage) throws -> VeilImage {
        // JPEG and BMP have no alpha: flatten onto white rather than black.
        var out = image
        if (format == .jpeg || format == .bmp) && image.hasAlpha {
            out = VeilImage(try image.handle.apply { veil_vips_flatten($0, $1, 255, 255, 255) })
        }
        if keepMetadata && resetsOrientation {
            // A copy so the shared source image's header is not modified.
            let copy = try out.handle.call("copy")
            _ = veil_vips_set_int(copy.pointer, "orientation", 1)
            out = VeilImage(copy)
        }
        return out
    }
}
