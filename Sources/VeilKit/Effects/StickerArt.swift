/// A sticker picture ready to be drawn at any size: premultiplied RGBA with
/// a pyramid of halvings, so that a shrunken copy is sampled bilinearly from
/// the level nearest its scale (no aliasing, cost = the pixels drawn).
struct StickerArt: Sendable {
    struct Level: Sendable {
        let width: Int, height: Int, rgba: [Float]
        /// Premultiplied RGBA of one pixel.
        @inline(__always) func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            let i = (y * width + x) * 4
            return SIMD4(rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
        }
    }
    let levels: [Level]
    var width: Int { levels[0].width }
    var height: Int { levels[0].height }

    init(pixels: [UInt8], width: Int, height: Int, bands: Int) {
        var rgba = [Float](repeating: 0, count: width * height * 4)
        for i in 0..<width * height {
            let p = Array(pixels[i * bands..<(i + 1) * bands])
            let rgb = bands >= 3 ? [p[0], p[1], p[2]] : [p[0], p[0], p[0]]
            let a = bands == 4 || bands == 2 ? Float(p[bands - 1]) : 255
            for c in 0..<3 { rgba[i * 4 + c] = Float(rgb[c]) * a / 255 }
            rgba[i * 4 + 3] = a
        }
        var levels = [Level(width: width, height: height, rgba: rgba)]
        while let top = levels.last, top.width > 1 || top.height > 1 {
            let w = (top.width + 1) / 2, h = (top.height + 1) / 2
            var next = [Float](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 {
                        var sum: Float = 0
                        for (sx, sy) in [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)] {
                            sum += top.rgba[(min(sy, top.height - 1) * top.width + min(sx, top.width - 1)) * 4 + c]
                        }
                        next[(y * w + x) * 4 + c] = sum / 4
                    }
                }
            }
            levels.append(Level(width: w, height: h, rgba: next))
        }
        self.levels = levels
    }

    /// Draws the sticker scaled to `size` pixels with its top-left corner at
    /// `origin`, over the pixels of `area` only (source-over, its alpha),
    /// skipping pixels where `skip` is non-zero.
    func draw(into pixels: UnsafeMutableBufferPointer<UInt8>, imageWidth: Int, bands: Int,
              origin: (x: Int, y: Int), size: (w: Int, h: Int), area: (xs: Range<Int>, ys: Range<Int>), skip: [UInt8]) {
        // The sticker and the area may not meet at all (a face at the frame's
        // edge whose sticker lies outside it): bounds are compared before any
        // range is formed, since a Range with lower > upper traps.
        let x0 = max(area.xs.lowerBound, origin.x), x1 = min(area.xs.upperBound, origin.x + size.w)
        let y0 = max(area.ys.lowerBound, origin.y), y1 = min(area.ys.upperBound, origin.y + size.h)
        guard size.w > 0, size.h > 0, x0 < x1, y0 < y1 else { return }
        let xs = x0..<x1, ys = y0..<y1
        let shrink = max(Double(width) / Double(size.w), Double(height) / Double(size.h))
        let index = shrink > 1 ? min(levels.count - 1, shrink.log2Floor) : 0
        let level = levels[index]
        let sx = Double(level.width) / Double(size.w), sy = Double(level.height) / Double(size.h)
        for y in ys {
            let v = min(max((Double(y - origin.y) + 0.5) * sy - 0.5, 0), Double(level.height - 1))
            let r0 = Int(v), r1 = min(r0 + 1, level.height - 1), fy = Float(v - Double(r0))
            for x in xs where skip.isEmpty || skip[y * imageWidth + x] == 0 {
                let u = min(max((Double(x - origin.x) + 0.5) * sx - 0.5, 0), Double(level.width - 1))
                let c0 = Int(u), c1 = min(c0 + 1, level.width - 1), fx = Float(u - Double(c0))
                let top = level.pixel(c0, r0) * (1 - fx) + level.pixel(c1, r0) * fx
                let bottom = level.pixel(c0, r1) * (1 - fx) + level.pixel(c1, r1) * fx
                let s = top * (1 - fy) + bottom * fy
                let keep = (255 - s[3]) / 255, p = (y * imageWidth + x) * bands
                for b in 0..<bands {
                    let c: Float = bands >= 3 ? (b == 3 ? s[3] : s[b]) : (b == 1 ? s[3] : (s[0] + s[1] + s[2]) / 3)
                    pixels[p + b] = UInt8(min(255, max(0, c + Float(pixels[p + b]) * keep + 0.5)))
                }
            }
        }
    }
}

private extension Double {
    /// ⌊log2(self)⌋ for self ≥ 1.
    var log2Floor: Int { exponent < 0 ? 0 : Int(exponent) }
}
