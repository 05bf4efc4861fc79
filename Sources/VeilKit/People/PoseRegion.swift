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
    func imagePoint(_ x: Double, _ y: Double, size: Int) -> (x: Double, y: Double) {
        let u = x / Double(size) - 0.5, v = y / Double(size) - 0.5, c = cos(angle), s = sin(angle)
        return (centre.x + side * (u * c - v * s), centre.y + side * (u * s + v * c))
    }

    /// The crop sampled bilinearly from 8-bit RGB (black outside the image),
    /// as an NCHW tensor of value * scale + offset.
    func sample(_ rgb: [UInt8], width: Int, height: Int, size: Int, scale: Float, offset: Float) -> Tensor {
        let plane = size * size
        var values = [Float](repeating: offset, count: 3 * plane)
        rgb.withUnsafeBufferPointer { src in
            for row in 0..<size {
                for col in 0..<size {
                    let p = imagePoint(Double(col) + 0.5, Double(row) + 0.5, size: size)
                    let fx = p.x - 0.5, fy = p.y - 0.5
                    let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                    let ax = Float(fx - Double(x0)), ay = Float(fy - Double(y0))
                    var sum: (Float, Float, Float) = (0, 0, 0)
                    for (dy, wy) in [(0, 1 - ay), (1, ay)] {
                        for (dx, wx) in [(0, 1 - ax), (1, ax)] {
                            let x = x0 + dx, y = y0 + dy
                            guard x >= 0, x < width, y >= 0, y < height else { continue }
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
    /// image (bilinear, nothing outside the crop): `visit(pixel index, value)` for
    /// each image pixel the crop covers.
    func layBack(_ map: [Float], size: Int, width: Int, height: Int, _ visit: (Int, Float) -> Void) {
        let c = cos(angle), s = sin(angle), half = side / 2 * 2.0.squareRoot()
        let x0 = max(0, Int((centre.x - half).rounded(.down))), x1 = min(width, Int((centre.x + half).rounded(.up)))
        let y0 = max(0, Int((centre.y - half).rounded(.down))), y1 = min(height, Int((centre.y + half).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let k = Double(size) / side
        for y in y0..<y1 {
            for x in x0..<x1 {
                let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
                let u = (dx * c + dy * s) * k + Double(size) / 2 - 0.5, v = (-dx * s + dy * c) * k + Double(size) / 2 - 0.5
                // Pixels whose centres fall in the crop, the map's edge values held outward half a cell.
                let half = Double(size) - 0.5
                guard u >= -0.5, v >= -0.5, u <= half, v <= half else { continue }
                let uc = max(0, min(Double(size - 1), u)), vc = max(0, min(Double(size - 1), v))
                let u0 = min(Int(uc), size - 2), v0 = min(Int(vc), size - 2)
                let au = Float(uc - Double(u0)), av = Float(vc - Double(v0))
                let top = map[v0 * size + u0] * (1 - au) + map[v0 * size + u0 + 1] * au
                let bottom = map[(v0 + 1) * size + u0] * (1 - au) + map[(v0 + 1) * size + u0 + 1] * au
                let value = top * (1 - av) + bottom * av
                if value > 0 { visit(y * width + x, value) }
            }
        }
    }
}
