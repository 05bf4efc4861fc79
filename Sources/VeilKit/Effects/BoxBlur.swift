/// A gaussian blur of one rectangle of an image, approximated by three
/// successive box filters per axis (running sums: cost per pixel independent
/// of sigma), so that one face's blur costs about its own area whatever its
/// size. The box widths are chosen so that the variance equals sigma²
/// (Kovesi, "Fast almost-Gaussian filtering", 2010); the edges of the image
/// repeat its border pixels.
///
/// Rows are smoothed one at a time, a pixel's bands as the lanes of one
/// vector; columns all at once, each (column, band) a lane of the row-major
/// window, so no pass needs a transpose. Each lane does the very operations
/// a line on its own would, in the same order. A class over buffers kept
/// from one rectangle to the next: one per render, used by one thread.
final class BoxBlur {
    private var window = Buffer<SIMD4<Float>>(), row = Buffer<SIMD4<Float>>()
    private var columns = Buffer<Float>(), other = Buffer<Float>(), sums = Buffer<Float>(), result = Buffer<UInt8>()

    /// The three box radii whose combined variance is closest to sigma².
    static func radii(sigma: Double) -> [Int] {
        let n = 3.0, s2 = sigma * sigma
        var wl = Int((12 * s2 / n + 1).squareRoot().rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(1, wl)
        let m = ((12 * s2 - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / Double(-4 * wl - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (wl - 1) / 2 : (wl + 1) / 2 }
    }

    /// A sigma beyond the image's size blurs no further than to its mean.
    private static func bounded(_ sigma: Double, width: Int, height: Int) -> Double {
        min(max(sigma, 0.5), Double(max(width, height)))
    }

    /// The pixels `blur` reads for `rect`: the rectangle and a margin, within the image.
    static func window(of rect: (xs: Range<Int>, ys: Range<Int>), sigma: Double, width: Int, height: Int) -> (xs: Range<Int>, ys: Range<Int>) {
        let margin = radii(sigma: bounded(sigma, width: width, height: height)).reduce(0, +)
        return (max(0, rect.xs.lowerBound - margin)..<min(width, rect.xs.upperBound + margin),
                max(0, rect.ys.lowerBound - margin)..<min(height, rect.ys.upperBound + margin))
    }

    /// The pixels of `rect` (inside the image) blurred with `sigma`,
    /// interleaved 8-bit, row after row; valid until the next call.
    func blur(_ source: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
              rect: (xs: Range<Int>, ys: Range<Int>), sigma: Double) -> UnsafeBufferPointer<UInt8> {
        let radii = BoxBlur.radii(sigma: BoxBlur.bounded(sigma, width: width, height: height))
        let (wx, wy) = BoxBlur.window(of: rect, sigma: sigma, width: width, height: height)
        let ww = wx.count, wh = wy.count, cols = rect.xs.count, src = source.baseAddress!
        // Row-major, four lanes a pixel (bands are at most 4; spare lanes hold 0).
        let pixels = window.reserve(ww * wh), spare = row.reserve(ww)
        for y in 0..<wh {
            let line = src + ((wy.lowerBound + y) * width + wx.lowerBound) * bands, to = pixels + y * ww
            if bands == 3 {  // RGB: each pixel's lanes set at once
                for x in 0..<ww { to[x] = SIMD4(Float(line[3 * x]), Float(line[3 * x + 1]), Float(line[3 * x + 2]), 0) }
            } else {
                for x in 0..<ww {
                    var v = SIMD4<Float>()
                    for c in 0..<bands { v[c] = Float(line[x * bands + c]) }
                    to[x] = v
                }
            }
            BoxBlur.smooth(row: to, spare: spare, count: ww, radii: radii)
        }
        // Along columns, for the rectangle's columns only: each (column, band) a lane.
        let lanes = cols * 4, first = rect.xs.lowerBound - wx.lowerBound
        var a = columns.reserve(wh * lanes), b = other.reserve(wh * lanes)
        pixels.withMemoryRebound(to: Float.self, capacity: ww * wh * 4) { floats in
            for y in 0..<wh { (a + y * lanes).update(from: floats + (y * ww + first) * 4, count: lanes) }
        }
        BoxBlur.smooth(&a, &b, count: wh, lanes: lanes, radii: radii, sums: sums.reserve(lanes))
        let out = result.reserve(cols * rect.ys.count * bands), top = rect.ys.lowerBound - wy.lowerBound
        for y in 0..<rect.ys.count {
            let line = a + (top + y) * lanes, o = out + y * cols * bands
            for x in 0..<cols {
                for c in 0..<bands { o[x * bands + c] = UInt8(min(255, max(0, line[x * 4 + c] + 0.5))) }
            }
        }
        return UnsafeBufferPointer(start: out, count: cols * rect.ys.count * bands)
    }

    /// Three box passes along one row of `count` pixels, in place (`spare`
    /// holds as many): per lane, the operations of `smooth` on a line.
    private static func smooth(row: UnsafeMutablePointer<SIMD4<Float>>, spare: UnsafeMutablePointer<SIMD4<Float>>,
                               count: Int, radii: [Int]) {
        var src = row, dst = spare
        for r in radii where r > 0 {
            let last = count - 1, scale = 1 / Float(2 * r + 1)
            var sum = SIMD4<Float>()
            for j in -r...r { sum += src[min(max(j, 0), last)] }
            for i in 0..<count {
                dst[i] = sum * scale
                sum += src[min(i + r + 1, last)] - src[max(i - r, 0)]
            }
            swap(&src, &dst)
        }
        if src != row { row.update(from: src, count: count) }
    }

    /// Three box passes along the outer axis of `data` (`count` lines of
    /// `lanes` values), each lane a running sum; the result is left in
    /// `data` (`spare` is the other buffer of the ping-pong).
    private static func smooth(_ data: inout UnsafeMutablePointer<Float>, _ spare: inout UnsafeMutablePointer<Float>,
                               count: Int, lanes: Int, radii: [Int], sums: UnsafeMutablePointer<Float>) {
        for r in radii where r > 0 {
            let last = count - 1, scale = 1 / Float(2 * r + 1), src = data, dst = spare
            sums.update(repeating: 0, count: lanes)
            for j in -r...r {
                let line = src + min(max(j, 0), last) * lanes
                for k in 0..<lanes { sums[k] += line[k] }
            }
            for i in 0..<count {
                let out = dst + i * lanes, add = src + min(i + r + 1, last) * lanes, sub = src + max(i - r, 0) * lanes
                for k in 0..<lanes {
                    out[k] = sums[k] * scale
                    sums[k] += add[k] - sub[k]
                }
            }
            swap(&data, &spare)
        }
    }

    /// A buffer that only grows, freed with its owner.
    private struct Buffer<Element> {
        private(set) var pointer = UnsafeMutablePointer<Element>.allocate(capacity: 1)
        private var capacity = 1

        mutating func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
            if count > capacity {
                pointer.deallocate()
                capacity = max(count, 2 * capacity)
                pointer = .allocate(capacity: capacity)
            }
            return pointer
        }

        func free() { pointer.deallocate() }
    }

    deinit { window.free(); row.free(); columns.free(); other.free(); sums.free(); result.free() }
}
