import CVipsShim
import Foundation

/// Where an image comes from: a file, encoded bytes, or an image already decoded.
public enum ImageSource: Sendable {
    case url(URL)
    case data(Data)
    case image(VeilImage)
}

/// Turns files and bytes into upright `VeilImage`s, refusing what would hurt:
/// unreadable paths, non-images, damaged files, and images over a pixel budget.
public struct ImageDecoder: Sendable {
    /// Images with more pixels than this are refused before their pixels are
    /// decoded (100 megapixels by default: about 300 MB as 8-bit RGB).
    public var maxPixels: Int

    public init(maxPixels: Int = 100_000_000) { self.maxPixels = maxPixels }

    /// Decodes `source` and turns it upright. With `orientation` nil the file's
    /// EXIF orientation is honoured; a given orientation overrides it, as in Vision.
    public func decode(_ source: ImageSource, orientation: ImageOrientation? = nil) throws -> DecodedImage {
        try VipsRuntime.ensureStarted()
        let raw: VipsHandle
        // libvips reads encoded bytes in place, lazily: they must outlive the decoding below.
        var keepAlive: NSData?
        defer { withExtendedLifetime(keepAlive) {} }
        switch source {
        case let .image(image):
            let upright = try orientation.map { try image.applying($0) } ?? image
            return DecodedImage(image: upright, format: .png, storedOrientation: orientation ?? .up)
        case let .url(url):
            raw = try load(url: url)
        case let .data(data):
            let bytes = data as NSData
            keepAlive = bytes
            raw = try load(bytes: bytes)
        }
        let format = EncodedFormat(loader: String(cString: veil_vips_loader(raw.pointer)))
        try checkBudget(raw)
        let stored = ImageOrientation(rawValue: Int(veil_vips_orientation(raw.pointer))) ?? .up
        var upright: VeilImage
        if let orientation {
            upright = try VeilImage(raw.apply { veil_vips_copy($0, $1) }).applying(orientation)
        } else {
            upright = VeilImage(try raw.apply { veil_vips_autorot($0, $1) })
        }
        // Decode now, once: damaged files fail here with a decoding error, and
        // detection and rendering then read memory instead of the file twice.
        do {
            upright = try upright.srgb8(keepAlpha: true).materialized()
        } catch let VeilError.imaging(message) {
            throw VeilError.undecodable(reason: message)
        }
        return DecodedImage(image: upright, format: format, storedOrientation: orientation ?? stored)
    }

    /// Refuses, with one line each, a path that is missing, a folder, or not readable.
    static func checkReadable(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw VeilError.unreadable(path: url.path, reason: "no such file")
        }
        if isDirectory.boolValue { throw VeilError.unreadable(path: url.path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw VeilError.unreadable(path: url.path, reason: "permission denied")
        }
    }

    private func load(url: URL) throws -> VipsHandle {
        let path = url.path
        try ImageDecoder.checkReadable(url)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size == 0 { throw VeilError.undecodable(reason: "\(path) is empty") }
        guard let pointer = veil_vips_load_file(path, 0) else {
            throw VeilError.undecodable(reason: "\(path): \(VipsRuntime.takeError())")
        }
        return VipsHandle(pointer)
    }

    private func load(bytes: NSData) throws -> VipsHandle {
        if bytes.length == 0 { throw VeilError.undecodable(reason: "no bytes") }
        let pointer = veil_vips_load_buffer(bytes.bytes, bytes.length, 0)
        guard let pointer else { throw VeilError.undecodable(reason: VipsRuntime.takeError()) }
        return VipsHandle(pointer)
    }

    private func checkBudget(_ raw: VipsHandle) throws {
        let w = raw.width, h = raw.height
        if w <= 0 || h <= 0 { throw VeilError.undecodable(reason: "image has no pixels") }
        if w * h > maxPixels { throw VeilError.tooLarge(width: w, height: h, limit: maxPixels) }
    }
}

/// A decoded upright image with what was learnt about its file.
public struct DecodedImage: Sendable {
    public var image: VeilImage
    /// The format the bytes were in, used to keep the same format on output.
    public var format: EncodedFormat
    /// The orientation the pixels were stored in before being turned upright.
    public var storedOrientation: ImageOrientation
}

/// Image file formats Veil reads and writes.
public enum EncodedFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, tiff, heif

    init(loader: String) {
        let l = loader.lowercased()
        if l.hasPrefix("jpeg") { self = .jpeg }
        else if l.hasPrefix("webp") { self = .webp }
        else if l.hasPrefix("tiff") { self = .tiff }
        else if l.hasPrefix("heif") { self = .heif }
        else { self = .png }
    }

    /// The format for a file name's extension, if Veil writes it.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "tif", "tiff": self = .tiff
        case "heic", "heif", "avif": self = .heif
        default: return nil
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .tiff: "tif"
        case .heif: "heic"
        }
    }
}
