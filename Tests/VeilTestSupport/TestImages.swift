import Foundation
import VeilKit
import XCTest

/// Builders and comparisons for test images.
public enum TestImages {
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
