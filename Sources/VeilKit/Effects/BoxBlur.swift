/// A gaussian blur of one rectangle of an image, approximated by three
/// successive box filters per axis (running sums: cost per pixel independent
/// of sigma), so that one face's blur costs about its own area whatever its
/// size. The box widths are chosen so that the variance equals sigma²
/// (Kovesi, "Fast almost-Gaussian filtering", 2010); the edges of the image
/// repeat its border pixels.
///
/// Each pass runs its running sums along one axis for every line across
/// the other at once (the window is held with the blurred axis outermost),
/// so that the lines are vector lanes; each lane does the very operations a
/// line on its own would, in the same order. A class over buffers kept from
/// one rectangle to the next: one per render, used by one thread.
final class BoxBlur {
    private var work = Buffer<Float>(), other = Buffer<Float>(), sums = Buffer<Float>(), result = Buffer<UInt8>()

    /// The three box radii whose combined variance is closest to sigma².
    static func radii(sigma: Double) -> [Int] {
        let n = 3.0, s2 = sigma * sigma
        var wl = Int((12 * s2 / n + 1).squareRoot().rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(1, wl)
        let m = ((12 * s2 - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / Double(-4 * wl - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (wl - 1) / 2 : (wl + 1) / 2 }
    }

    /// The pixels of `rect` (inside the image) blurred with `sigma`,
    /// interleaved 8-bit, row after row; valid until the next call.
    func blur(_ source: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
              rect: (xs: Range<Int>, ys: Range<Int>), sigma: Double) -> UnsafeBufferPointer<UInt8> {
        // A sigma beyond the image's size blurs no further than to its mean.
        let radii = BoxBlur.radii(sigma: min(max(sigma, 0.5), Double(max(width, height))))
        let margin = radii.reduce(0, +)
        // The window the boxes read from: the rectangle and a margin, within the image.
        let wx = max(0, rect.xs.lowerBound - margin)..<min(width, rect.xs.upperBound + margin)
        let wy = max(0, rect.ys.lowerBound - margin)..<min(height, rect.ys.upperBound + margin)
        let ww = wx.count, wh = wy.count, cols = rect.xs.count
        let size = ww * wh * bands, src = source.baseAddress!
        var a = work.reserve(size), b = other.reserve(size)
        let sum = sums.reserve(max(wh, cols) * bands)
        // Along rows: x outermost, each (row, band) a lane (read in the image's order).
        for row in 0..<wh {
            let line = src + ((wy.lowerBound + row) * width + wx.lowerBound) * bands
            for col in 0..<ww {
                for c in 0..<bands { a[(col * wh + row) * bands + c] = Float(line[col * bands + c]) }
            }
        }
        BoxBlur.smooth(&a, &b, count: ww, lanes: wh * bands, radii: radii, sums: sum)
        // Along columns, for the rectangle's columns only: y outermost, each (column, band) a lane.
        let first = rect.xs.lowerBound - wx.lowerBound
        for row in 0..<wh {
            for col in 0..<cols {
                for c in 0..<bands { b[(row * cols + col) * bands + c] = a[((first + col) * wh + row) * bands + c] }
            }
        }
        BoxBlur.smooth(&b, &a, count: wh, lanes: cols * bands, radii: radii, sums: sum)
        let out = result.reserve(cols * rect.ys.count * bands), top = rect.ys.lowerBound - wy.lowerBound
        for row in 0..<rect.ys.count {
            let line = b + (top + row) * cols * bands, o = out + row * cols * bands
            for k in 0..<cols * bands { o[k] = UInt8(min(255, max(0, line[k] + 0.5))) }
        }
        return UnsafeBufferPointer(start: out, count: cols * rect.ys.count * bands)
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

    deinit { work.free(); other.free(); sums.free(); result.free() }
}
