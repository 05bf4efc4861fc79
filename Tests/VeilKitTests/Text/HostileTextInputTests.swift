import Foundation
@testable import VeilKit
import XCTest

/// Inputs made to cost: bounded by design (caps on regions read and lines'
/// widths), not by timing.
final class HostileTextInputTests: XCTestCase {
    private func requireModels() throws { try TestData.requireFaceModel([.textDetector, .textRecognizer, .textOrientation]) }

    /// A photo that is all text (the plate repeated in a grid of 12 x 24):
    /// at most `maximumRecognized` lines are read (the largest), however many are found.
    func testPhotoThatIsAllText() async throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let plate = try ImageDecoder().decode(.url(scene.url)).image.cropped(to: scene.plate.rect.integral.clamped(to: scene.size))
        let (tile, bands) = try plate.interleavedPixels()
        let tw = plate.width, th = plate.height, columns = 12, rows = 24, w = tw * columns, h = th * 2 * rows
        var pixels = [UInt8](repeating: 255, count: w * h * 3)
        for r in 0..<rows { for c in 0..<columns { for y in 0..<th { for x in 0..<tw { for k in 0..<3 {
            pixels[((r * 2 * th + y) * w + c * tw + x) * 3 + k] = tile[(y * tw + x) * bands + k]
        } } } } }
        var request = RecognizeTextRequest()
        request.maximumRecognized = 10
        let lines = try await request.perform(on: VeilImage(pixels: pixels, width: w, height: h, bands: 3))
        // Each of the 24 rows is at least one line: exactly the cap is read, and read well.
        XCTAssertEqual(lines.count, 10)
        XCTAssertTrue(lines.allSatisfy { $0.confidence > 0.5 })
    }

    /// 100,000 tiny glyphs (2 x 2 dots every 6 pixels of a 1900 x 1900 image):
    /// detection keeps at most `maximumObservations` regions.
    func testHundredThousandTinyGlyphs() async throws {
        try requireModels()
        let w = 1900, h = 1900
        var pixels = [UInt8](repeating: 250, count: w * h * 3)
        for y in stride(from: 2, to: h - 2, by: 6) { for x in stride(from: 2, to: w - 2, by: 6) {
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { for k in 0..<3 { pixels[((y + dy) * w + x + dx) * 3 + k] = 10 } }
        } }
        var request = RecognizeTextRequest()
        request.detector.maximumObservations = 300
        request.maximumRecognized = 100
        let lines = try await request.perform(on: VeilImage(pixels: pixels, width: w, height: h, bands: 3))
        XCTAssertLessThanOrEqual(lines.count, 100)
    }

    /// A 30000 x 20 strip: one pass within the tiler's budget, lines read at
    /// most `maximumColumns` wide.
    func testThirtyThousandByTwentyStrip() async throws {
        try requireModels()
        let w = 30000, h = 20
        var pixels = [UInt8](repeating: 255, count: w * h * 3)
        for x in 0..<w where (x / 3) % 3 == 0 { for y in 5..<15 { for k in 0..<3 { pixels[(y * w + x) * 3 + k] = 0 } } }
        let image = try VeilImage(pixels: pixels, width: w, height: h, bands: 3)
        let passes = DetectTextRectanglesRequest().passes(for: image.size)
        XCTAssertEqual(passes.count, 1)
        XCTAssertLessThanOrEqual(Double(w * h) * passes[0].scale * passes[0].scale, Double(DetectTextRectanglesRequest().tiling.wholePixels) * 1.01)
        let lines = try await RecognizeTextRequest().perform(on: image)
        XCTAssertLessThanOrEqual(lines.count, RecognizeTextRequest().maximumRecognized)
    }

    /// A 24-megapixel photo is cut into a shrunk whole pass and full-resolution tiles within the budget.
    func testLargePhotoIsTiled() {
        let request = DetectTextRectanglesRequest()
        let passes = request.passes(for: PixelSize(width: 6000, height: 4000))
        XCTAssertGreaterThan(passes.count, 10)
        for pass in passes.dropFirst() {
            XCTAssertEqual(pass.scale, 1)
            XCTAssertLessThanOrEqual(pass.region.width * pass.region.height, 2 * request.tiling.tilePixels)
        }
    }
}
