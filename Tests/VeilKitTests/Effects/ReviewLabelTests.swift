@testable import VeilKit
import XCTest

/// A preview's labels never overlap (issue 28: on crowd photos the numbers
/// stacked, "52 15 50", and `--drop N` was guesswork).
final class ReviewLabelTests: XCTestCase {
    func meets(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    /// 60 faces of 14 px packed 16 px apart (a stand of a stadium), labels
    /// 22x14: no two labels meet, every one is inside the picture, and one
    /// moved away from its face is joined to it by a leader line.
    func testACrowdsLabelsDoNotOverlap() {
        let boxes = (0..<60).map { i in PixelRect(x: 40 + 16 * (i % 12), y: 60 + 18 * (i / 12), width: 14, height: 14) }
        let bounds = PixelSize(width: 320, height: 240)
        let places = ReviewMark.placeLabels(boxes: boxes, sizes: Array(repeating: PixelSize(width: 22, height: 14), count: boxes.count),
                                            within: bounds, avoiding: boxes)
        XCTAssertEqual(places.count, boxes.count)
        for (i, a) in places.enumerated() {
            XCTAssertTrue(a.rect.x >= 0 && a.rect.y >= 0 && a.rect.x + a.rect.width <= bounds.width && a.rect.y + a.rect.height <= bounds.height, "\(a.rect)")
            for b in places[(i + 1)...] { XCTAssertFalse(meets(a.rect, b.rect), "\(a.rect) and \(b.rect) overlap") }
        }
        XCTAssertTrue(places.contains { $0.leader }, "a crowd this dense moves some labels away")
    }

    /// Faces far apart keep their labels just above them, with no leader.
    func testSparseFacesKeepTheirLabelsAbove() {
        let boxes = [PixelRect(x: 20, y: 50, width: 40, height: 40), PixelRect(x: 200, y: 60, width: 40, height: 40)]
        let places = ReviewMark.placeLabels(boxes: boxes, sizes: [PixelSize(width: 20, height: 12), PixelSize(width: 20, height: 12)],
                                            within: PixelSize(width: 320, height: 240), avoiding: boxes)
        XCTAssertEqual(places.map(\.rect.y), [36, 46])
        XCTAssertEqual(places.map(\.leader), [false, false])
    }
}
