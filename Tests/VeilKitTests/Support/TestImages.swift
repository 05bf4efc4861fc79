import Foundation
@testable import VeilKit
import XCTest

/// Builders and comparisons for test images.
enum TestImages {
    /// Writes `image` as a JPEG whose EXIF orientation tag is `orientation`.
    static func writeJPEG(_ image: VeilImage, orientation: ImageOrientation, to url: URL) throws {
        let tagged = try image.settingOrientationTag(orientation)
        var encoder = ImageEncoder(format: .jpeg, quality: 95, keepMetadata: true)
        encoder.resetsOrientation = false
        try encoder.write(tagged, to: url)
    }

    /// Mean absolute difference per byte of two images of the same size.
    static func meanAbsoluteDifference(_ a: VeilImage, _ b: VeilImage) throws -> Double {
        let pa = try a.pixelBytes(), pb = try b.pixelBytes()
        XCTAssertEqual(pa.count, pb.count)
        guard pa.count == pb.count, !pa.isEmpty else { return .infinity }
        var total = 0
        for i in pa.indices { total += abs(Int(pa[i]) - Int(pb[i])) }
        return Double(total) / Double(pa.count)
    }

    /// Writes raw bytes to a file in `dir`.
    static func file(_ name: String, _ bytes: [UInt8], in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}
