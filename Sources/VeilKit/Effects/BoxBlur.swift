/// A gaussian blur of one rectangle of an image, approximated by three
/// successive box filters per axis (running sums: cost per pixel independent
/// of sigma), so that one face's blur costs about its own area whatever its
/// size. The box widths are chosen so that the variance equals sigma²
/// (Kovesi, "Fast almost-Gaussian filtering", 2010); the edges of the image
/// repeat its border pixels.
enum BoxBlur {
    /// The three box radii whose combined variance is closest to sigma².
    static func radii(sigma: Double) -> [Int] {
        let n = 3.0, s2 = sigma * sigma
        var wl = Int((12 * s2 / n + 1).squareRoot().rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(1, wl)
        let m = ((12 * s2 - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / Double(-4 * wl - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (wl - 1) / 2 : (wl + 1) / 2 }
    }

    /// The pixels of `rect` (inside the image) blurred with `sigma`, interleaved 8-bit.
    static func blur(_ source: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
                     rect: (xs: Range<Int>, ys: Range<Int>), sigma: Double) -> [UInt8] {
        // A sigma beyond the image's size blurs no further than to its mean.
        let radii = radii(sigma: min(max(sigma, 0.5), Double(max(width, height))))
        let margin = radii.reduce(0, +)
        // The window the boxes read from: the rectangle and a margin, within the image.
        let wx = max(0, rect.xs.lowerBound - margin)..<min(width, rect.xs.upperBound + margin)
        let wy = max(0, rect.ys.lowerBound - margin)..<min(height, rect.ys.upperBound + margin)
        let ww = wx.count, wh = wy.count
        var work = [Float](repeating: 0, count: ww * wh * bands)
        var line = [Float](repeating: 0, count: max(ww, wh)), out = line
        work.withUnsafeMutableBufferPointer { work in
            for (row, y) in wy.enumerated() {
                for (col, x) in wx.enumerated() {
                    for b in 0..<bands { work[(row * ww + col) * bands + b] = Float(source[(y * width + x) * bands + b]) }
                }
            }
            // Rows, then the columns of the rectangle only.
            for row in 0..<wh {
                for b in 0..<bands { smooth(work, start: row * ww * bands + b, stride: bands, count: ww, radii: radii, line: &line, out: &out) }
            }
            for col in (rect.xs.lowerBound - wx.lowerBound)..<(rect.xs.upperBound - wx.lowerBound) {
                for b in 0..<bands { smooth(work, start: col * bands + b, stride: ww * bands, count: wh, radii: radii, line: &line, out: &out) }
            }
        }
        var result = [UInt8](repeating: 0, count: rect.xs.count * rect.ys.count * bands)
        for (row, y) in rect.ys.enumerated() {
            let wrow = y - wy.lowerBound
            for (col, x) in rect.xs.enumerated() {
                let wcol = x - wx.lowerBound
                for b in 0..<bands {
                    let v = work[(wrow * ww + wcol) * bands + b]
                    result[(row * rect.xs.count + col) * bands + b] = UInt8(min(255, max(0, v + 0.5)))
                }
            }
        }
        return result
    }

    /// Three box passes over one line of `count` values, `stride` apart, in place.
    private static func smooth(_ data: UnsafeMutableBufferPointer<Float>, start: Int, stride: Int, count: Int,
                               radii: [Int], line: inout [Float], out: inout [Float]) {
        line.withUnsafeMutableBufferPointer { line in
            out.withUnsafeMutableBufferPointer { out in
                for i in 0..<count { line[i] = data[start + i * stride] }
                for r in radii where r > 0 {
                    let last = count - 1, scale = 1 / Float(2 * r + 1)
                    var sum: Float = 0
                    for j in -r...r { sum += line[min(max(j, 0), last)] }
                    for i in 0..<count {
                        out[i] = sum * scale
                        sum += line[min(i + r + 1, last)] - line[max(i - r, 0)]
                    }
                    for i in 0..<count { line[i] = out[i] }
                }
                for i in 0..<count { data[start + i * stride] = line[i] }
            }
        }
    }
}
