import Foundation
import VeilKit
import XCTest

/// Builders and comparisons for test images.
public enum TestImages {
    /// A crowd: the sample photo shrunk to `side` pixels and tiled
    /// `columns` x `rows`, one face a tile (about 40 px at the side of 160).
    public static func crowd(columns: Int, rows: Int, side: Int = 160) throws -> VeilImage {
        let tile = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: side, height: side).srgb8().pixelBytes()
        let width = columns * side
        var canvas = [UInt8](repeating: 0, count: width * rows * side * 3)
        for row in 0..<rows {
            for column in 0..<columns {
                for y in 0..<side {
                    let to = ((row * side + y) * width + column * side) * 3
                    canvas.replaceSubrange(to..<to + side * 3, with: tile[(y * side * 3)..<((y + 1) * side * 3)])
                }
            }
        }
        return try VeilImage(pixels: canvas, width: width, height: rows * side, bands: 3)
    }

    /// Mean absolute difference per byte of two images of the same size.
    public static func meanAbsoluteDifference(_ a: VeilImage, _ b: VeilImage) throws -> Double {
        let pa = try a.pixelBytes(), pb = try b.pixelBytes()
        XCTAssertEqual(pa.count, pb.count)
        guard pa.count == pb.count, !pa.isEmpty else { return .infinity }
        var total = 0
        for i in pa.indices { total += abs(Int(pa[i]) - Int(pb[i])) }
        return Double(total) / Double(pa.count)
    }

    /// The same inside `rect` (clamped to the first image), as a judge of one region's change.
    public static func meanAbsoluteDifference(_ a: VeilImage, _ b: VeilImage, in rect: ImageRect) throws -> Double {
        let r = rect.integral.clamped(to: a.size)
        return try meanAbsoluteDifference(a.cropped(to: r), b.cropped(to: r))
    }

    /// The same for two image files.
    public static func meanAbsoluteDifference(_ a: URL, _ b: URL, in rect: ImageRect) throws -> Double {
        try meanAbsoluteDifference(ImageDecoder().decode(.url(a)).image, ImageDecoder().decode(.url(b)).image, in: rect)
    }

    /// Writes raw bytes to a file in `dir`.
    public static func file(_ name: String, _ bytes: [UInt8], in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}

extension TestImages {
    /// A PNG claiming `width` x `height` 8-bit RGB pixels: signature, IHDR, a
    /// token IDAT and IEND, CRCs correct. Tiny on disk, huge if decoded.
    public static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xffff_ffff
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
            }
            return be(UInt32(data.count)) + body + be(~crc)
        }
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
            + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + chunk("IEND", [])
    }
}
