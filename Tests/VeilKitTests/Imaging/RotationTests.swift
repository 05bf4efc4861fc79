@testable import VeilKit
import XCTest

/// `VeilImage.rotated(clockwise:)` turns the way it says, and `PlaneRotation`
/// brings a point of the turned canvas back to where it was.
final class RotationTests: XCTestCase {
    /// A black 120x60 picture with a white 3x3 dot centred at (x, y).
    private func dot(at x: Int, _ y: Int) throws -> VeilImage {
        var pixels = [UInt8](repeating: 0, count: 120 * 60 * 3)
        for yy in (y - 1)...(y + 1) { for xx in (x - 1)...(x + 1) { for c in 0..<3 { pixels[(yy * 120 + xx) * 3 + c] = 255 } } }
        return try VeilImage(pixels: pixels, width: 120, height: 60, bands: 3)
    }

    /// The brightness-weighted centre of the turned picture's bright pixels.
    private func brightest(_ image: VeilImage) throws -> (x: Double, y: Double) {
        let bytes = try image.srgb8().pixelBytes(), w = image.width
        var sx = 0.0, sy = 0.0, sum = 0.0
        for i in 0..<(bytes.count / 3) where bytes[i * 3] > 40 {
            let v = Double(bytes[i * 3]); sx += Double(i % w) * v; sy += Double(i / w) * v; sum += v
        }
        XCTAssertGreaterThan(sum, 0, "the dot vanished")
        return (sx / max(sum, 1) + 0.5, sy / max(sum, 1) + 0.5)
    }

    func testQuarterTurnClockwiseMovesTheTopEdgeToTheRight() throws {
        let (turned, _) = try dot(at: 100, 5).rotated(clockwise: 90)
        XCTAssertEqual(turned.width, 60); XCTAssertEqual(turned.height, 120)
        let p = try brightest(turned)
        // Near the source's top edge, right side: after a clockwise quarter turn, near the right edge, low down.
        XCTAssertGreaterThan(p.x, 45, "\(p)"); XCTAssertGreaterThan(p.y, 90, "\(p)")
    }

    func testPointsComeBackFromAnyTurn() throws {
        for (x, y) in [(30, 10), (100, 50), (60, 30), (5, 55)] {
            for degrees in [35.0, -35, 20, -12.5, 90, -90, 180, 270] {
                let (turned, rotation) = try dot(at: x, y).rotated(clockwise: degrees)
                let back = rotation.sourcePoint(of: try brightest(turned))
                XCTAssertEqual(back.x, Double(x) + 0.5, accuracy: 1.5, "(\(x), \(y)) turned \(degrees)°")
                XCTAssertEqual(back.y, Double(y) + 0.5, accuracy: 1.5, "(\(x), \(y)) turned \(degrees)°")
            }
        }
    }
}
