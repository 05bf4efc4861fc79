import VeilKit
import XCTest

/// The mask's profile: full inside 0.8 r, linear to nothing at 1.1 r, r = min(w, h) / 1.5.
final class SoftMaskTests: XCTestCase {
    let size = PixelSize(width: 400, height: 300)
    // A face 120 wide and 90 tall centred at (200, 150): r = 60.
    let face = CoverRegion(rect: ImageRect(x: 140, y: 105, width: 120, height: 90))

    private func value(_ bytes: [UInt8], x: Int, y: Int) -> Int { Int(bytes[y * size.width + x]) }

    func testDiscProfileMatchesTheNumbers() throws {
        let mask = try SoftMask(regions: [face]).render(size: size)
        XCTAssertEqual(mask.bands, 1)
        let bytes = try mask.pixelBytes()
        let r = 60.0
        // Every pixel of the row and the column through the centre, against the formula.
        for i in 0..<300 {
            let d = abs(Double(i) + 0.5 - 200) / r
            let expected = 255 * min(1, max(0, (1.1 - d) / 0.3))
            XCTAssertEqual(Double(value(bytes, x: i, y: 150)), expected, accuracy: 2, "x \(i), d \(d)")
            let dv = abs(Double(i) + 0.5 - 150) / r
            XCTAssertEqual(Double(value(bytes, x: 200, y: i)), 255 * min(1, max(0, (1.1 - dv) / 0.3)), accuracy: 2, "y \(i)")
            if d <= 0.8 { XCTAssertEqual(value(bytes, x: i, y: 150), 255) }
            if d >= 1.1 { XCTAssertEqual(value(bytes, x: i, y: 150), 0) }
        }
        XCTAssertEqual(value(bytes, x: 0, y: 0), 0)
    }

    func testEllipseAndBoxFollowTheFaceAspect() throws {
        let ellipse = try SoftMask(regions: [CoverRegion(rect: face.rect, shape: .ellipse)]).render(size: size).pixelBytes()
        let box = try SoftMask(regions: [CoverRegion(rect: face.rect, shape: .box)]).render(size: size).pixelBytes()
        // Half-axes 80 x 60: x = 200 + 0.79 * 80 is covered, y likewise with 60.
        XCTAssertGreaterThanOrEqual(value(ellipse, x: 263, y: 150), 245)
        XCTAssertEqual(value(ellipse, x: 290, y: 150), 0)
        // The box covers its corners where the ellipse does not.
        XCTAssertGreaterThanOrEqual(value(box, x: 200 + 60, y: 150 + 45), 250)
        XCTAssertEqual(value(ellipse, x: 200 + 75, y: 150 + 56), 0)
    }

    func testOverlappingRegionsTakeTheMaximumAndStrokesCover() throws {
        let other = CoverRegion(rect: ImageRect(x: 200, y: 105, width: 120, height: 90))
        let stroke = Stroke(points: [.init(x: 20, y: 280), .init(x: 120, y: 280)], width: 10)
        let bytes = try SoftMask(regions: [face, other], strokes: [stroke]).render(size: size).pixelBytes()
        XCTAssertEqual(value(bytes, x: 230, y: 150), 255)
        XCTAssertEqual(value(bytes, x: 70, y: 280), 255)
        XCTAssertEqual(value(bytes, x: 70, y: 270), 0)
        XCTAssertEqual(value(bytes, x: 130, y: 280), 0)
    }
}
