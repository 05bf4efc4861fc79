import Foundation
@testable import VeilKit
import XCTest

/// A detector's 8-bit input made in one pass (`networkBytes`) is byte for
/// byte what libvips' linear resize, a black border and a band of zeros gave:
/// the detections, tuned on those bytes, cannot move.
final class NetworkInputTests: XCTestCase {
    /// libvips' way: resize, pad, then RGB with a fourth band of zeros.
    private func reference(_ image: VeilImage, width: Int, height: Int, paddedWidth: Int, paddedHeight: Int) throws -> [UInt8] {
        let rgb = try image.resized(width: width, height: height, kernel: .linear).padded(toWidth: paddedWidth, height: paddedHeight).pixelBytes()
        var out = [UInt8](repeating: 0, count: paddedWidth * paddedHeight * 4)
        for i in 0..<(paddedWidth * paddedHeight) {
            out[i * 4] = rgb[i * 3]; out[i * 4 + 1] = rgb[i * 3 + 1]; out[i * 4 + 2] = rgb[i * 3 + 2]
        }
        return out
    }

    func testTheSameBytesAsLibvipsAtEveryScaleTheDetectorsUse() throws {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8().materialized()
        // Crops of the photo as the passes make them, odd sizes and edges included,
        // at the finer passes' 1.5 and `--tile-scale 2`, at the photo's own scale,
        // and shrunk as a large photo's whole pass is.
        let crops = [PixelRect(x: 0, y: 0, width: photo.width, height: photo.height),
                     PixelRect(x: 37, y: 11, width: 301, height: 219),
                     PixelRect(x: photo.width - 97, y: photo.height - 61, width: 97, height: 61),
                     PixelRect(x: 5, y: 200, width: 17, height: 13),
                     PixelRect(x: 300, y: 300, width: 1, height: 1), PixelRect(x: 0, y: photo.height - 2, width: 3, height: 2)]
        var compared = 0
        for crop in crops {
            let source = try photo.cropped(to: crop)
            for scale in [1.5, 2, 1.33, 1, 0.4375] {
                let (w, h, pw, ph) = CenterFace.networkSize(of: source, scale: scale)
                let made = try source.networkBytes(width: w, height: h, paddedWidth: pw, paddedHeight: ph)
                let expected = try reference(source, width: w, height: h, paddedWidth: pw, paddedHeight: ph)
                XCTAssertEqual(made.count, expected.count)
                let differing = zip(made, expected).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(crop) at \(scale): \(differing) of \(made.count) bytes differ")
                compared += made.count
            }
        }
        XCTAssertGreaterThan(compared, 2_000_000)
    }

    func testPaddingAndTheFourthBandAreZero() throws {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8()
        let bytes = try photo.networkBytes(width: 150, height: 100, paddedWidth: 160, paddedHeight: 128)
        XCTAssertEqual(bytes.count, 160 * 128 * 4)
        for y in 0..<128 {
            for x in 0..<160 {
                let i = (y * 160 + x) * 4
                XCTAssertEqual(bytes[i + 3], 0)
                if x >= 150 || y >= 100 { XCTAssertEqual(bytes[i..<(i + 3)].max(), 0, "padding at \(x),\(y)") }
            }
        }
        XCTAssertGreaterThan(bytes.max() ?? 0, 0, "the picture itself is there")
        XCTAssertThrowsError(try photo.networkBytes(width: 150, height: 100, paddedWidth: 140, paddedHeight: 128))
        XCTAssertThrowsError(try photo.luminance().networkBytes(width: 150, height: 100, paddedWidth: 160, paddedHeight: 128))
    }
}
