import Foundation
@testable import VeilKit
import XCTest

final class TextMapTests: XCTestCase {
    /// A map with a bar 120 x 16 turned 12 degrees: one region, at that angle,
    /// grown by DB's unclip distance (area x 1.6 / perimeter) on every side.
    func testRotatedBarGivesOneRotatedGrownRegion() {
        let w = 300, h = 200, angle = 12.0 * .pi / 180
        var map = [Float](repeating: 0.02, count: w * h)
        let c = cos(angle), s = sin(angle)
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) - 150, dy = Double(y) - 100
                if abs(dx * c + dy * s) <= 60, abs(-dx * s + dy * c) <= 8 { map[y * w + x] = 0.9 }
            }
        }
        let found = map.withUnsafeBufferPointer { TextMap().regions(in: $0, width: w, height: h) }
        XCTAssertEqual(found.count, 1)
        let region = try! XCTUnwrap(found.first)
        let top = region.corners[1], left = region.corners[0]
        XCTAssertEqual(atan2(top.y - left.y, top.x - left.x) * 180 / .pi, 12, accuracy: 1.5)
        // Pixel centres span about 120 x 16; the unclip distance is about 120*16*1.6/272 = 11.3.
        let width = TextLineCrop.distance(region.corners[0], region.corners[1])
        let height = TextLineCrop.distance(region.corners[0], region.corners[3])
        XCTAssertEqual(width, 120 + 2 * 11.3, accuracy: 3)
        XCTAssertEqual(height, 16 + 2 * 11.3, accuracy: 3)
        XCTAssertGreaterThan(region.score, 0.8)
    }

    /// 110,000 specks of 3 x 3 above the threshold: the regions kept are capped, and so is the work.
    func testSpecksAreCapped() {
        let w = 2000, h = 2000
        var map = [Float](repeating: 0, count: w * h)
        for y in stride(from: 0, to: h, by: 6) { for x in stride(from: 0, to: w, by: 6) { for k in 0..<9 where y + k / 3 < h && x + k % 3 < w { map[(y + k / 3) * w + x + k % 3] = 1 } } }
        var text = TextMap()
        text.minimumSide = 0
        text.maximumCandidates = 500
        let found = map.withUnsafeBufferPointer { text.regions(in: $0, width: w, height: h) }
        XCTAssertLessThanOrEqual(found.count, 500)
        XCTAssertGreaterThan(found.count, 0)
    }

    /// A filled stroke covers its polygon's pixels and nothing else.
    func testFilledStrokeCoversItsQuadrilateral() throws {
        let w = 64, h = 48
        var pixels = [UInt8](repeating: 200, count: w * h * 3)
        let quad = [ImageRect.Point(x: 10, y: 10), ImageRect.Point(x: 50, y: 14), ImageRect.Point(x: 48, y: 30), ImageRect.Point(x: 8, y: 26)]
        let renderer = try FaceCover(style: .solid(RGB(0, 0, 0))).renderer()
        try renderer.render(into: &pixels, width: w, height: h, strokes: [Stroke(points: quad, width: 0, filled: true)])
        for y in 0..<h {
            for x in 0..<w {
                let inside = ConvexPolygon.columns(of: quad, atY: Double(y) + 0.5).map { Double(x) + 0.5 >= $0.0 && Double(x) + 0.5 <= $0.1 } ?? false
                XCTAssertEqual(pixels[(y * w + x) * 3], inside ? 0 : 200, "pixel \(x),\(y)")
            }
        }
    }
}
