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
        let loader = String(cString: veil_vips_loader(raw.pointer))
        let format = EncodedFormat(loader: loader)
        if loader.hasPrefix("pngload") { try ImageDecoder.checkPNGEnds(source) }
        try checkBudget(raw)
        let stored = ImageOrientation(rawValue: Int(veil_vips_orientation(raw.pointer))) ?? .up
        var upright: VeilImage
        if let orientation {
            upright = try VeilImage(raw.call("copy")).applying(orientation)
        } else {
            upright = VeilImage(try raw.call("autorot"))
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

    /// Refuses, with one line each, a path that is missing, a folder, not a
    /// regular file (a FIFO would block the read forever, a device never ends),
    /// or not readable. `stat` follows symlinks, so a link to a photo is fine.
    static func checkReadable(_ url: URL) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            let reason = errno == ENOENT || errno == ENOTDIR ? "no such file" : String(cString: strerror(errno))
            throw VeilError.unreadable(path: url.path, reason: reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw VeilError.unreadable(path: url.path, reason: "is a directory")
        default: throw VeilError.unreadable(path: url.path, reason: "not a regular file")
        }
        guard access(url.path, R_OK) == 0 else {
            throw VeilError.unreadable(path: url.path, reason: "permission denied")
        }
    }

    /// A PNG ends with its IEND chunk. libvips' PNG loader reports a file cut
    /// in its last rows only some of the time (the short read surfaces, or
    /// not, as its lazy reader finishes), so a cut file gave an error on one
    /// run and a picture with missing rows on the next: a PNG without IEND in
    /// its last 64 KiB (room for data some tools append after it) is refused
    /// here, every time.
    static func checkPNGEnds(_ source: ImageSource) throws {
        let window = 64 << 10
        let tail: Data
        switch source {
        case let .url(url):
            guard let file = try? FileHandle(forReadingFrom: url) else { return }
            defer { try? file.close() }
            let size = (try? file.seekToEnd()) ?? 0
            try? file.seek(toOffset: size > UInt64(window) ? size - UInt64(window) : 0)
            tail = (try? file.readToEnd()) ?? Data()
        case let .data(data):
            tail = data.suffix(window)
        case .image:
            return
        }
        let iend = Data([0x49, 0x45, 0x4E, 0x44])
        if tail.range(of: iend) == nil {
            throw VeilError.undecodable(reason: "the PNG is cut short (no IEND chunk at its end)")
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

/// Image file formats Veil reads and writes. An output's bytes are always
/// what its name says: a name Veil cannot write is refused before any work
/// (`init(outputPath:)`), and an output Veil names itself keeps the input's
/// extension only when it can write that format (`outputExtension(forInput:)`).
public enum EncodedFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, tiff, heif, avif, gif, bmp

    /// The format libvips decoded from; formats Veil does not write back
    /// unasked (a GIF's palette, a BMP's size) come out as PNG.
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
        case "heic", "heif": self = .heif
        case "avif": self = .avif
        case "gif": self = .gif
        case "bmp": self = .bmp
        default: return nil
        }
    }

    /// The format an output named `path` must hold; nil when the name has
    /// no extension (the caller then picks one). Throws for an extension
    /// Veil cannot write, so `-o out.xyz` fails before any work is done.
    public init?(outputPath path: String) throws {
        let ext = (path as NSString).pathExtension
        if ext.isEmpty { return nil }
        guard let format = EncodedFormat(pathExtension: ext) else {
            let known = EncodedFormat.allCases.map(\.fileExtension).joined(separator: ", ")
            throw VeilError.invalidArgument("cannot write .\(ext) files (\(path)); name the output with one of: \(known)")
        }
        self = format
    }

    /// The extension for an output Veil names after an input with extension
    /// `ext`: the same when Veil writes that format, else `png` (what it then writes).
    public static func outputExtension(forInput ext: String) -> String {
        EncodedFormat(pathExtension: ext) == nil ? EncodedFormat.png.fileExtension : ext
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .tiff: "tif"
        case .heif: "heic"
        case .avif: "avif"
        case .gif: "gif"
        case .bmp: "bmp"
        }
    }

    /// The media type, for HTTP answers.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .heif: "image/heif"
        default: "image/\(rawValue)"
        }
    }

    /// Whether the format has a quality setting.
    var isLossy: Bool { [.jpeg, .webp, .heif, .avif].contains(self) }
}
