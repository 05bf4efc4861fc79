@testable import VeilKit
import XCTest

/// The review video draws upright over rotated frames: a stored rectangle's
/// upright place holds the same pixels, and the inverse turn gives the stored
/// frame back, for each turn a phone records with.
final class VideoPreviewTests: XCTestCase {
    func testUprightRectsAndTheInverseTurnMatchThePixels() throws {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8().cropped(to: PixelRect(x: 0, y: 0, width: 512, height: 300))
        let stored = try photo.pixelBytes(), size = PixelSize(width: 512, height: 300)
        let face = ImageRect(x: 180, y: 62, width: 92, height: 116)
        for turn in [ImageOrientation.up, .right, .down, .left] {
            let upright = try photo.applying(turn)
            let pixels = try upright.pixelBytes()
            let r = turn.uprightRect(for: face, storedSize: size)
            XCTAssertEqual(turn.storedRect(for: r, uprightSize: PixelSize(width: upright.width, height: upright.height)), face, "\(turn)")
            // The face's pixels, sampled on a grid of the stored rectangle and at the matching upright places.
            for (fx, fy) in [(0.25, 0.25), (0.5, 0.5), (0.75, 0.3), (0.3, 0.8)] {
                let sx = Int(face.x + fx * face.width), sy = Int(face.y + fy * face.height)
                let (ux, uy): (Int, Int) = switch turn {
                case .right: (size.height - 1 - sy, sx)
                case .left: (sy, size.width - 1 - sx)
                case .down: (size.width - 1 - sx, size.height - 1 - sy)
                default: (sx, sy)
                }
                XCTAssertTrue(Double(ux) >= r.x && Double(ux) < r.x + r.width && Double(uy) >= r.y && Double(uy) < r.y + r.height,
                              "\(turn): (\(ux), \(uy)) outside \(r)")
                XCTAssertEqual(pixels[(uy * upright.width + ux) * 3], stored[(sy * size.width + sx) * 3], "\(turn) at (\(sx), \(sy))")
            }
            XCTAssertEqual(try upright.applying(turn.inverse).pixelBytes(), stored, "\(turn)'s inverse turns it back")
        }
    }

    /// An outline drawn in the buffer lies outside its rectangle, clipped to the frame.
    func testOutlineIsOutsideTheRectAndClipped() {
        let size = PixelSize(width: 40, height: 30)
        var pixels = [UInt8](repeating: 0, count: 40 * 30 * 3)
        VideoPreview.outline(PixelRect(x: 30, y: 10, width: 20, height: 10), thickness: 4, color: RGB(0, 255, 0), in: &pixels, size: size)
        func green(_ x: Int, _ y: Int) -> Bool { pixels[(y * 40 + x) * 3 + 1] == 255 }
        XCTAssertTrue(green(28, 12), "left edge, outside the rect")
        XCTAssertTrue(green(35, 8), "top edge")
        XCTAssertFalse(green(35, 15), "inside stays as it was")
        XCTAssertFalse(green(20, 15), "away from it")
    }
}
