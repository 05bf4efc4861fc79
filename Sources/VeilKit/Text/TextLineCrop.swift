import Foundation

/// A text line sampled upright out of the photo: the quadrilateral's
/// top-left → top-right run becomes the rows, resampled to a fixed height,
/// written straight into a network's input planes (BGR, scaled to [-1, 1]).
/// One affine map per line (DB's rectangles are parallelograms), bilinear,
/// with up to 4x4 samples per output pixel where the line is shrunk, so a
/// tall sign is averaged rather than aliased. Edges repeat the border pixel.
struct TextLineCrop {
    /// Interleaved 8-bit RGB of the whole upright image.
    let pixels: [UInt8]
    let width: Int, height: Int

    /// The line's corners (tl, tr, br, bl) as read: a line standing upright
    /// (1.5 times taller than wide) is turned a quarter counter-clockwise, as
    /// PaddleOCR turns such crops; `upsideDown` turns it half a turn.
    static func readingCorners(_ corners: [ImageRect.Point], upsideDown: Bool = false) -> [ImageRect.Point] {
        var c = corners
        let w = max(distance(c[0], c[1]), distance(c[3], c[2])), h = max(distance(c[0], c[3]), distance(c[1], c[2]))
        if h >= 1.5 * w { c = [c[1], c[2], c[3], c[0]] }
        if upsideDown { c = [c[2], c[3], c[0], c[1]] }
        return c
    }

    /// Width over height of the line as read.
    static func aspect(_ c: [ImageRect.Point]) -> Double {
        let w = max(distance(c[0], c[1]), distance(c[3], c[2])), h = max(distance(c[0], c[3]), distance(c[1], c[2]))
        return w / max(h, 1)
    }

    static func distance(_ a: ImageRect.Point, _ b: ImageRect.Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// Samples the line `c` (reading corners) into `out`, three planes of
    /// `stride` x `rows` floats, filling columns 0..<columns; the rest is left as it is.
    func sample(_ c: [ImageRect.Point], rows: Int, columns: Int, stride: Int, into out: UnsafeMutableBufferPointer<Float>) {
        guard rows > 0, columns > 0 else { return }
        let ux = (c[1].x - c[0].x) / Double(columns), uy = (c[1].y - c[0].y) / Double(columns)
        let vx = (c[3].x - c[0].x) / Double(rows), vy = (c[3].y - c[0].y) / Double(rows)
        let n = min(4, max(1, Int(max((ux * ux + uy * uy).squareRoot(), (vx * vx + vy * vy).squareRoot()).rounded(.up))))
        let plane = stride * rows, weight = 1 / Float(n * n), maxX = Double(width - 1), maxY = Double(height - 1)
        pixels.withUnsafeBufferPointer { src in
            for r in 0..<rows {
                for col in 0..<columns {
                    var b: Float = 0, g: Float = 0, red: Float = 0
                    for sj in 0..<n {
                        for si in 0..<n {
                            let u = Double(col) + (Double(si) + 0.5) / Double(n), v = Double(r) + (Double(sj) + 0.5) / Double(n)
                            let x = min(max(c[0].x + u * ux + v * vx - 0.5, 0), maxX), y = min(max(c[0].y + u * uy + v * vy - 0.5, 0), maxY)
                            let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                            let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                            let i00 = 3 * (y0 * width + x0), i01 = 3 * (y0 * width + x1), i10 = 3 * (y1 * width + x0), i11 = 3 * (y1 * width + x1)
                            @inline(__always) func at(_ k: Int) -> Float {
                                let top = Float(src[i00 + k]) * (1 - fx) + Float(src[i01 + k]) * fx
                                let bottom = Float(src[i10 + k]) * (1 - fx) + Float(src[i11 + k]) * fx
                                return top * (1 - fy) + bottom * fy
                            }
                            red += at(0); g += at(1); b += at(2)
                        }
                    }
                    let i = r * stride + col
                    out[i] = b * weight * (2 / 255) - 1
                    out[plane + i] = g * weight * (2 / 255) - 1
                    out[2 * plane + i] = red * weight * (2 / 255) - 1
                }
            }
        }
    }
}
