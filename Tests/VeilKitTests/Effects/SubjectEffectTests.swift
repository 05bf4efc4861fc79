import Foundation
@testable import VeilKit
import XCTest

/// The lift effects on a synthetic image and mask: no model needed.
final class SubjectEffectTests: XCTestCase {
    /// 64x48 noisy-ish RGB image; the mask covers the left half.
    private func fixture() throws -> (VeilImage, VeilImage, [UInt8]) {
        let w = 64, h = 48
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { pixels[3 * i] = UInt8(100 + i % 50); pixels[3 * i + 1] = 120; pixels[3 * i + 2] = UInt8(60 + i % 7) }
        var mask = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<(w / 2) { mask[y * w + x] = 255 } }
        return (try VeilImage(pixels: pixels, width: w, height: h, bands: 3),
                try VeilImage(pixels: mask, width: w, height: h, bands: 1), pixels)
    }

    func testRemoveGivesAlphaAndBlackUnderTransparency() throws {
        let (image, mask, source) = try fixture()
        let out = try SubjectEffect.remove.render(image, mask: mask).pixelBytes()
        XCTAssertEqual(out.count, 64 * 48 * 4)
        XCTAssertEqual(Array(out[0..<4]), Array(source[0..<3]) + [255])
        let right = 10 * 64 + 50
        XCTAssertEqual(Array(out[right * 4..<right * 4 + 4]), [0, 0, 0, 0])
    }

    func testColorHighlightAndBokehKeepTheSubject() throws {
        let (image, mask, source) = try fixture()
        let inside = 20 * 64 + 5, outside = 20 * 64 + 60
        let color = try SubjectEffect.color(RGB(1, 2, 3)).render(image, mask: mask).pixelBytes()
        XCTAssertEqual(Array(color[outside * 3..<outside * 3 + 3]), [1, 2, 3])
        XCTAssertEqual(Array(color[inside * 3..<inside * 3 + 3]), Array(source[inside * 3..<inside * 3 + 3]))

        let dark = try SubjectEffect.highlight(ev: -1).render(image, mask: mask).pixelBytes()
        XCTAssertEqual(Int(dark[outside * 3 + 1]), 60, accuracy: 1, "one stop down halves the value")
        XCTAssertEqual(Array(dark[inside * 3..<inside * 3 + 3]), Array(source[inside * 3..<inside * 3 + 3]))

        let bokeh = try SubjectEffect.bokeh(sigma: 3).render(image, mask: mask).pixelBytes()
        XCTAssertEqual(bokeh.count, source.count)
        XCTAssertEqual(Array(bokeh[inside * 3..<inside * 3 + 3]), Array(source[inside * 3..<inside * 3 + 3]))
        // The background's green is flat (120): the blur must not pull in the subject.
        XCTAssertEqual(Int(bokeh[(20 * 64 + 40) * 3 + 1]), 120, accuracy: 2)
    }

    /// Bokeh's halo: white just outside the subject, gone further out, absent when turned off
    /// and by default (a phone's portrait mode has none).
    func testBokehHaloIsWhiteRoundTheSubject() throws {
        let (image, mask, source) = try fixture()
        XCTAssertEqual(try SubjectEffect.bokeh(sigma: 3).render(image, mask: mask).pixelBytes(),
                       try SubjectEffect.bokeh(sigma: 3, halo: 0).render(image, mask: mask).pixelBytes(), "no halo by default")
        let glowing = try SubjectEffect.bokeh(sigma: 3, halo: 6).render(image, mask: mask).pixelBytes()
        let plain = try SubjectEffect.bokeh(sigma: 3, halo: 0).render(image, mask: mask).pixelBytes()
        let near = (20 * 64 + 33) * 3, far = (20 * 64 + 50) * 3, inside = (20 * 64 + 10) * 3
        XCTAssertTrue(glowing[near..<near + 3].allSatisfy { $0 >= 235 }, "halo not white: \(Array(glowing[near..<near + 3]))")
        XCTAssertFalse(plain[near..<near + 3].allSatisfy { $0 >= 235 })
        XCTAssertEqual(Int(glowing[far + 1]), 120, accuracy: 3)
        XCTAssertEqual(Array(glowing[inside..<inside + 3]), Array(source[inside..<inside + 3]))
    }

    func testReplaceFillsTheFrameAndRejectsAWrongMask() throws {
        let (image, mask, _) = try fixture()
        let picture = try VeilImage.constant(RGB(9, 9, 9), size: PixelSize(width: 10, height: 30))
        let out = try SubjectEffect.replace(background: picture).render(image, mask: mask)
        XCTAssertEqual(out.size, image.size)
        XCTAssertEqual(Array(try out.pixelBytes()[(20 * 64 + 60) * 3..<(20 * 64 + 60) * 3 + 3]), [9, 9, 9])
        let small = try VeilImage.constant(RGB(0, 0, 0), size: PixelSize(width: 8, height: 8), bands: 1)
        XCTAssertThrowsError(try SubjectEffect.remove.render(image, mask: small)) { XCTAssertTrue($0 is VeilError) }
    }
}
