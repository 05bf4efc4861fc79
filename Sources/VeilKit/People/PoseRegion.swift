import Foundation

/// A rotated square of an image, as MediaPipe crops a person for BlazePose's
/// landmark model: centred on the hips, its side 2.5 times the distance from
/// the hips' centre to the scale keypoint, turned so that the body's axis
/// points up (MediaPipe's `AlignmentPointsRectsCalculator`, rotation target
/// 90 degrees, then `RectTransformationCalculator` at 1.25, square).
struct PoseRegion: Sendable {
    var centre: (x: Double, y: Double)
    var side: Double
    /// Radians; the crop's x axis runs along (cos, sin) in the image (y down).
    var angle: Double

    init(centre: (x: Double, y: Double), side: Double, angle: Double) {
        (self.centre, self.side, self.angle) = (centre, side, angle)
    }

    /// From the hips' centre and the keypoint on the circle round the body.
    init(hips: (x: Double, y: Double), scale: (x: Double, y: Double)) {
        let dx = scale.x - hips.x, dy = scale.y - hips.y
        let raw = Double.pi / 2 - atan2(-dy, dx)
        self.init(centre: hips, side: 2 * (dx * dx + dy * dy).squareRoot() * 1.25,
                  angle: raw - 2 * Double.pi * ((raw + Double.pi) / (2 * Double.pi)).rounded(.down))
    }

    /// A point of the crop, in crop pixels of a `size`-pixel crop, as image pixels.
    /// Pixel `i` sits at coordinate `i` on both sides (OpenCV's `warpPerspective`,
    /// which MediaPipe crops with): a half-pixel convention instead shifts a 854x480
    /// frame's letterbox by 0.37 of the detector's pixels, enough to move its best
    /// score from 0.885 to 0.834 (docs/design/people.md).
    func imagePoint(_ x: Double, _ y: Double, size: Int) -> (x: Double, y: Double) {
        let u = x / Double(size) - 0.5, v = y / Double(size) - 0.5, c = cos(angle), s = sin(angle)
        return (centre.x + side * (u * c - v * s), centre.y + side * (u * s + v * c))
    }

    /// Outside the image: black (the detector's letterbox) or the nearest edge
    /// pixel (the landmark model's crop; MediaPipe's default border).
    enum Border { case black, edge }

    /// The crop sampled bilinearly from 8-bit RGB, as an NCHW tensor of value * scale + offset.
    func sample(_ rgb: [UInt8], width: Int, height: Int, size: Int, scale: Float, offset: Float, border: Border = .black) -> Tensor {
        let plane = size * size
        var values = [Float](repeating: offset, count: 3 * plane)
        rgb.withUnsafeBufferPointer { src in
            for row in 0..<size {
                for col in 0..<size {
                    let p = imagePoint(Double(col), Double(row), size: size)
                    let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
                    let ax = Float(p.x - Double(x0)), ay = Float(p.y - Double(y0))
                    var sum: (Float, Float, Float) = (0, 0, 0)
                    for (dy, wy) in [(0, 1 - ay), (1, ay)] {
                        for (dx, wx) in [(0, 1 - ax), (1, ax)] {
                            var x = x0 + dx, y = y0 + dy
                            switch border {
                            case .black: guard x >= 0, x < width, y >= 0, y < height else { continue }
                            case .edge: x = min(max(x, 0), width - 1); y = min(max(y, 0), height - 1)
                            }
                            let i = (y * width + x) * 3, w = wx * wy
                            sum.0 += Float(src[i]) * w; sum.1 += Float(src[i + 1]) * w; sum.2 += Float(src[i + 2]) * w
                        }
                    }
                    let o = row * size + col
                    values[o] = sum.0 * scale + offset
                    values[plane + o] = sum.1 * scale + offset
                    values[2 * plane + o] = sum.2 * scale + offset
                }
            }
        }
        return Tensor(shape: [1, 3, size, size], values: values)
    }

    /// A `size`-square map of the crop (0...1) laid back over a `width` x `height`
    /// image as MediaPipe's `WarpAffineCalculator` does (bilinear, zero beyond the
    /// crop): `visit(pixel index, value)` for each image pixel the crop reaches.
    func layBack(_ map: [Float], size: Int, width: Int, height: Int, _ visit: (Int, Float) -> Void) {
        let c = cos(angle), s = sin(angle), reach = side / 2 * 2.0.squareRoot() + 1
        let x0 = max(0, Int((centre.x - reach).rounded(.down))), x1 = min(width, Int((centre.x + reach).rounded(.up)))
        let y0 = max(0, Int((centre.y - reach).rounded(.down))), y1 = min(height, Int((centre.y + reach).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let k = Double(size) / side
        let at = { (u: Int, v: Int) -> Float in u >= 0 && u < size && v >= 0 && v < size ? map[v * size + u] : 0 }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let dx = Double(x) - centre.x, dy = Double(y) - centre.y
                let u = (dx * c + dy * s) * k + Double(size) / 2, v = (-dx * s + dy * c) * k + Double(size) / 2
                guard u > -1, v > -1, u < Double(size), v < Double(size) else { continue }
                let u0 = Int(u.rounded(.down)), v0 = Int(v.rounded(.down))
                let au = Float(u - Double(u0)), av = Float(v - Double(v0))
                let top = at(u0, v0) * (1 - au) + at(u0 + 1, v0) * au
                let bottom = at(u0, v0 + 1) * (1 - au) + at(u0 + 1, v0 + 1) * au
                let value = top * (1 - av) + bottom * av
                if value > 0 { visit(y * width + x, value) }
            }
        }
    }
}
