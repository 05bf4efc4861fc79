@testable import VeilKit
import XCTest

/// A lifted mask is subject, background or an edge (`GenerateForegroundInstanceMaskRequest.settled`):
/// no half-transparent ghost away from the edge, the edge's softness kept, no pixel changing side.
final class SettledMaskTests: XCTestCase {
    func testAGhostAwayFromTheEdgeGoesAndTheEdgeStaysSoft() throws {
        let (w, h) = (120, 80)
        var alpha = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                // A subject whose edge ramps over 6 px (x 30...35), and a faint ghost (alpha 90) far to the right.
                if x < 30 { alpha[y * w + x] = 255 } else if x < 36 { alpha[y * w + x] = UInt8(255 - (x - 29) * 36) }
                if x >= 80, x < 100, y >= 20, y < 40 { alpha[y * w + x] = 90 }
            }
        }
        let settled = try GenerateForegroundInstanceMaskRequest.settled(VeilImage(pixels: alpha, width: w, height: h, bands: 1)).pixelBytes()
        XCTAssertEqual(settled.count, alpha.count)
        for i in alpha.indices { XCTAssertEqual(settled[i] > 127, alpha[i] > 127, "pixel \(i) changed side") }
        XCTAssertTrue((20..<40).allSatisfy { y in (80..<100).allSatisfy { settled[y * w + $0] == 0 } }, "the ghost is gone")
        for x in 30..<34 { XCTAssertEqual(settled[40 * w + x], alpha[40 * w + x], "the edge at x \(x) stays soft") }
        XCTAssertEqual(settled[40 * w + 10], 255)
        XCTAssertEqual(settled[40 * w + 60], 0)
    }
}
