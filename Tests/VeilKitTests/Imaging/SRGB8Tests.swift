import Foundation
@testable import VeilKit
import XCTest

/// `srgb8` (flatten, colourspace, cast, extract_band, each only where needed)
/// on the kinds of image a decoder gives: grey, grey with alpha, RGBA, 16 bits.
final class SRGB8Tests: XCTestCase {
    func testEveryKindBecomesEightBitRGB() throws {
        let grey = try VeilImage(pixels: [0, 128, 255, 64], width: 2, height: 2, bands: 1)
        let rgb = try grey.srgb8()
        XCTAssertEqual(rgb.bands, 3)
        XCTAssertEqual(try rgb.pixelBytes(), [0, 0, 0, 128, 128, 128, 255, 255, 255, 64, 64, 64])

        let greyAlpha = try VeilImage(pixels: [200, 200], width: 2, height: 1, bands: 1)
            .joined(bands: VeilImage(pixels: [0, 255], width: 2, height: 1, bands: 1))
        XCTAssertEqual(try greyAlpha.srgb8().pixelBytes(), [0, 0, 0, 200, 200, 200], "alpha flattened onto black")
        XCTAssertEqual(try greyAlpha.srgb8(keepAlpha: true).pixelBytes(), [200, 200, 200, 0, 200, 200, 200, 255])

        // Through a PNG, as a photo with transparency arrives.
        let png = try ImageEncoder(format: .png).encode(VeilImage(pixels: [10, 20, 30, 255, 40, 50, 60, 0], width: 2, height: 1, bands: 4))
        let rgba = try ImageDecoder().decode(.data(png)).image
        XCTAssertEqual(try rgba.srgb8().pixelBytes(), [10, 20, 30, 0, 0, 0])
        XCTAssertEqual(try rgba.srgb8(keepAlpha: true).pixelBytes(), [10, 20, 30, 255, 40, 50, 60, 0])

        // 16 bits a sample, as a 16-bit PNG decodes: back to 8 bits, the same picture.
        let wide = try VeilImage(VipsHandle.call("colourspace", ["in": try VeilImage(pixels: [0, 128, 255], width: 1, height: 1, bands: 3).srgb8().handle],
                                                 "space=rgb16"))
        let narrowed = try wide.srgb8()
        XCTAssertEqual(narrowed.bands, 3)
        XCTAssertEqual(try narrowed.pixelBytes(), [0, 128, 255])
    }

    /// The last step, extract_band, with its required band given by name:
    /// a 4-band image that is not RGBA (no alpha) keeps its first three.
    func testExtraBandsWithoutAlphaAreDropped() throws {
        let rgb = try VeilImage(pixels: [10, 20, 30], width: 1, height: 1, bands: 3)
        let four = try rgb.joined(bands: VeilImage(pixels: [40], width: 1, height: 1, bands: 1))
        XCTAssertEqual(four.bands, 4)
        let three = try VeilImage(four.handle.call("extract_band", "band=0,n=3"))
        XCTAssertEqual(try three.pixelBytes(), [10, 20, 30])
    }
}
