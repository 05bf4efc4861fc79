import VeilKit
import XCTest

final class GeometryTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    func testRectConversionsRoundTripBothOrigins() {
        let pixel = ImageRect(x: 100, y: 50, width: 200, height: 120)
        for origin in [CoordinateOrigin.upperLeft, .lowerLeft] {
            let normalized = NormalizedRect(imageRect: pixel, in: size, origin: origin)
            let back = normalized.toImageCoordinates(size, origin: origin)
            XCTAssertEqual(back.x, pixel.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, pixel.y, accuracy: 1e-9)
            XCTAssertEqual(back.width, pixel.width, accuracy: 1e-9)
            XCTAssertEqual(back.height, pixel.height, accuracy: 1e-9)
        }
    }

    func testLowerLeftOriginFlipsY() {
        // A box at the top of the image has a high y in Vision's lower-left coordinates.
        let top = NormalizedRect(imageRect: ImageRect(x: 0, y: 0, width: 64, height: 48), in: size, origin: .upperLeft)
        XCTAssertEqual(top.y, 0.9, accuracy: 1e-9)
        XCTAssertEqual(top.toImageCoordinates(size, origin: .lowerLeft).y, 432, accuracy: 1e-9)
        XCTAssertEqual(top.toImageCoordinates(size, origin: .upperLeft).y, 0, accuracy: 1e-9)
        let point = NormalizedPoint(x: 0.25, y: 0.75)
        XCTAssertEqual(point.toImageCoordinates(size, origin: .upperLeft).y, 120, accuracy: 1e-9)
        XCTAssertEqual(point.toImageCoordinates(size, origin: .lowerLeft).y, 360, accuracy: 1e-9)
    }

    func testIoU() {
        let a = ImageRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(a.iou(a), 1)
        XCTAssertEqual(a.iou(ImageRect(x: 20, y: 20, width: 5, height: 5)), 0)
        XCTAssertEqual(a.iou(ImageRect(x: 5, y: 0, width: 10, height: 10)), 50.0 / 150.0, accuracy: 1e-12)
    }
}
