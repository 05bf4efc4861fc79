@testable import VeilKit
import XCTest

/// The writer's pixels and bytes done in Swift: the covers converted into
/// the decoder's 4:2:0 picture, and a copied packet's NAL lengths.
final class YUV420CoversTests: XCTestCase {
    /// Every pixel the rectangles reach (widened to whole blocks, rows in
    /// pairs) is converted as the formula says, each block once, and no
    /// other pixel changes: odd sizes, overlapping, touching, clipped and
    /// empty rectangles, against a reference that marks the pixels reached.
    func testTheCoversAreConvertedAndNothingElse() {
        var random = SystemRandomNumberGenerator()
        for (width, height) in [(37, 23), (40, 24), (1, 1), (2, 3)] {
            let rgb = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
            let rects = [PixelRect(x: 3, y: 1, width: 9, height: 6), PixelRect(x: 8, y: 4, width: 10, height: 9),  // overlapping
                         PixelRect(x: 18, y: 4, width: 4, height: 3),  // touching the one before
                         PixelRect(x: -5, y: -3, width: 8, height: 5), PixelRect(x: width - 3, y: height - 2, width: 10, height: 10),
                         PixelRect(x: 5, y: 5, width: 0, height: 4), PixelRect(x: width + 2, y: 0, width: 3, height: 3),
                         PixelRect(x: 23, y: 13, width: 1, height: 1)]
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            var y = [UInt8](repeating: 7, count: width * height), u = [UInt8](repeating: 7, count: cw * ch), v = u
            y.withUnsafeMutableBufferPointer { yp in
                u.withUnsafeMutableBufferPointer { up in
                    v.withUnsafeMutableBufferPointer { vp in
                        rgb.withUnsafeBufferPointer { p in
                            YUV420Covers.convert(rgb: p.baseAddress!, width: width, height: height,
                                                 y: .init(base: yp.baseAddress!, stride: width), u: .init(base: up.baseAddress!, stride: cw),
                                                 v: .init(base: vp.baseAddress!, stride: cw), rects: rects)
                        }
                    }
                }
            }
            let expected = Self.reference(rgb, width: width, height: height, rects: rects, fill: 7)
            XCTAssertEqual(y, expected.y, "\(width)x\(height) luma")
            XCTAssertEqual(u, expected.u, "\(width)x\(height) U")
            XCTAssertEqual(v, expected.v, "\(width)x\(height) V")
        }
    }

    /// White and black at studio range: 235 and 16, chroma 128.
    func testWhiteAndBlackAreStudioRange() {
        for (level, luma) in [(UInt8(255), UInt8(235)), (0, 16)] {
            let rgb = [UInt8](repeating: level, count: 4 * 2 * 3)
            var y = [UInt8](repeating: 0, count: 8), u = [UInt8](repeating: 0, count: 2), v = u
            y.withUnsafeMutableBufferPointer { yp in
                u.withUnsafeMutableBufferPointer { up in
                    v.withUnsafeMutableBufferPointer { vp in
                        YUV420Covers.convert(rgb: rgb, width: 4, height: 2, y: .init(base: yp.baseAddress!, stride: 4),
                                             u: .init(base: up.baseAddress!, stride: 2), v: .init(base: vp.baseAddress!, stride: 2),
                                             rects: [PixelRect(x: 0, y: 0, width: 4, height: 2)])
                    }
                }
            }
            XCTAssertEqual(y, [UInt8](repeating: luma, count: 8))
            XCTAssertEqual(u + v, [128, 128, 128, 128])
        }
    }

    /// An mp4's 4-byte NAL lengths become start codes of the same size; a
    /// length that runs past the packet, a zero length or a cut length is refused.
    func testNALLengthsBecomeStartCodes() {
        func converted(_ bytes: [UInt8]) -> [UInt8]? {
            var copy = bytes
            return copy.withUnsafeMutableBufferPointer { VideoWriter.lengthsToStartCodes($0) } ? copy : nil
        }
        XCTAssertEqual(converted([0, 0, 0, 2, 0x65, 0xAA, 0, 0, 0, 3, 0x41, 0, 0]), [0, 0, 0, 1, 0x65, 0xAA, 0, 0, 0, 1, 0x41, 0, 0])
        XCTAssertEqual(converted([]), [])
        XCTAssertNil(converted([0, 0, 0, 3, 0x65, 0xAA]))
        XCTAssertNil(converted([0, 0, 0, 0, 0x65]))
        XCTAssertNil(converted([0, 0, 0, 1, 0x65, 0, 0]))
    }

    /// The pixels the rectangles reach, marked row pair by row pair (x and
    /// y widened down to even), then each run of marked columns converted:
    /// two columns a block, an odd run's last column a block of itself.
    static func reference(_ rgb: [UInt8], width: Int, height: Int, rects: [PixelRect], fill: UInt8) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        var y = [UInt8](repeating: fill, count: width * height), u = [UInt8](repeating: fill, count: cw * ch), v = u
        var marked = [[Bool]](repeating: [Bool](repeating: false, count: width), count: ch)
        for r in rects {
            let x0 = max(r.x, 0) & ~1, y0 = max(r.y, 0) & ~1, x1 = min(r.x + r.width, width), y1 = min(r.y + r.height, height)
            guard max(r.x, 0) < x1, max(r.y, 0) < y1 else { continue }
            for pair in stride(from: y0, to: y1, by: 2) { for x in x0..<x1 { marked[pair / 2][x] = true } }
        }
        func pixel(_ x: Int, _ row: Int) -> (Int, Int, Int) { let i = (row * width + x) * 3; return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2])) }
        func luma(_ p: (Int, Int, Int)) -> UInt8 { UInt8((16829 * p.0 + 33039 * p.1 + 6416 * p.2 + (16 << 16) + (1 << 15)) >> 16) }
        for pair in 0..<ch {
            let rows = [2 * pair, min(2 * pair + 1, height - 1)]
            var x = 0
            while x < width {
                guard marked[pair][x] else { x += 1; continue }
                let columns = marked[pair][x + 1 < width ? x + 1 : x] && x + 1 < width ? [x, x + 1] : [x, x]
                var sum = (0, 0, 0)
                for row in rows {
                    for c in columns {
                        let p = pixel(c, row)
                        y[row * width + c] = luma(p)
                        sum = (sum.0 + p.0, sum.1 + p.1, sum.2 + p.2)
                    }
                }
                u[pair * cw + x / 2] = UInt8((-9714 * sum.0 - 19070 * sum.1 + 28784 * sum.2 + (128 << 18) + (1 << 17)) >> 18)
                v[pair * cw + x / 2] = UInt8((28784 * sum.0 - 24103 * sum.1 - 4681 * sum.2 + (128 << 18) + (1 << 17)) >> 18)
                x += 2
            }
        }
        return (y, u, v)
    }
}
