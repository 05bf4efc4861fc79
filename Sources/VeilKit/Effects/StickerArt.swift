/// A sticker picture ready to be drawn at any size: premultiplied RGBA with
/// a pyramid of halvings, so that a shrunken copy is sampled bilinearly from
/// the level nearest its scale (no aliasing, cost = the pixels drawn).
struct StickerArt: Sendable {
    struct Level: Sendable { let width: Int, height: Int, rgba: [Float] }
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
        let xs = max(area.xs.lowerBound, origin.x)..<min(area.xs.upperBound, origin.x + size.w)
        let ys = max(area.ys.lowerBound, origin.y)..<min(area.ys.upperBound, origin.y + size.h)
        guard !xs.isEmpty, !ys.isEmpty else { return }
        let shrink = max(Double(width) / Double(size.w), Double(height) / Double(size.h))
        let index = shrink > 1 ? min(levels.count - 1, shrink.log2Floor) : 0
        let level = levels[index]
        let sx = Double(level.width) / Double(size.w), sy = Double(level.height) / Double(size.h)
        for y in ys {
            let v = min(max((Double(y - origin.y) + 0.5) * sy - 0.5, 0), Double(level.height - 1))
            let y0 = Int(v), y1 = min(y0 + 1, level.height - 1), fy = Float(v - Double(y0))
            for x in xs where skip.isEmpty || skip[y * imageWidth + x] == 0 {
                let u = min(max((Double(x - origin.x) + 0.5) * sx - 0.5, 0), Double(level.width - 1))
                let x0 = Int(u), x1 = min(x0 + 1, level.width - 1), fx = Float(u - Double(x0))
                var s = [Float](repeating: 0, count: 4)
                for c in 0..<4 {
                    let top = level.rgba[(y0 * level.width + x0) * 4 + c] * (1 - fx) + level.rgba[(y0 * level.width + x1) * 4 + c] * fx
                    let bottom = level.rgba[(y1 * level.width + x0) * 4 + c] * (1 - fx) + level.rgba[(y1 * level.width + x1) * 4 + c] * fx
                    s[c] = top * (1 - fy) + bottom * fy
                }
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
