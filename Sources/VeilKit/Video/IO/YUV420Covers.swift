/// The covers of a frame drawn into the decoder's own 8-bit 4:2:0 picture:
/// only the rectangles the covers reach are converted from the covered
/// packed RGB, every other pixel stays the decoder's (no round trip through
/// RGB, and no conversion of the whole frame: a 1080p frame's RGB to 4:2:0
/// was a third of the writer's time).
///
/// BT.601 at studio range from full-range RGB, what swscale's defaults
/// convert with (and the reader's RGB came from), in 16-bit fixed point.
/// Chroma is the 2x2 block's mean: the covers' soft edges keep their colour.
/// Not swscale: it converts whole rows, not the spans the covers reach, and
/// rounds otherwise (on random RGB its closest, SWS_AREA, puts 7 of 2,048
/// luma and 34 of 512 chroma samples one level off this; SWS_BILINEAR 480
/// of 512 chroma samples), so writing through it would change every output.
///
/// The rectangles (x, y, width, height), clipped and widened to whole 2x2
/// blocks, are converted row pair by row pair with the spans that overlap
/// merged: a crowd's reaches overlap, and each pixel is converted once (69
/// faces' reaches over 1.4 of a 1080p frame's 2.1 megapixels: 1.8 ms against
/// 3.4 rectangle by rectangle; the whole frame 3.7 ms, swscale's 3.9-4.2).
enum YUV420Covers {
    /// One plane of the picture: its first byte and the bytes between rows.
    struct Plane {
        var base: UnsafeMutablePointer<UInt8>
        var stride: Int
        func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }
    }

    /// Converts `rects` of `rgb` (`width` x `height`, packed, rows of
    /// `width * 3` bytes) into the planes `y`, `u`, `v` of the same size.
    static func convert(rgb: UnsafePointer<UInt8>, width: Int, height: Int, y luma: Plane, u: Plane, v: Plane,
                        rects: [PixelRect]) {
        // Clipped, x and y made even (a block's first column and row); ends exclusive.
        var boxes: [(x0: Int, y0: Int, x1: Int, y1: Int)] = []
        boxes.reserveCapacity(rects.count)
        var top = height, bottom = 0
        for r in rects {
            // The rectangles as 32-bit integers, as the encoder's frame addresses them.
            let (qx, qy) = (Int(Int32(clamping: r.x)), Int(Int32(clamping: r.y)))
            let (qw, qh) = (Int(Int32(clamping: r.width)), Int(Int32(clamping: r.height)))
            let x0 = max(qx, 0), y0 = max(qy, 0), x1 = min(qx + qw, width), y1 = min(qy + qh, height)
            guard x0 < x1, y0 < y1 else { continue }
            boxes.append((x0 & ~1, y0 & ~1, x1, y1))
            top = min(top, y0 & ~1)
            bottom = max(bottom, y1)
        }
        guard !boxes.isEmpty else { return }
        let stride = width * 3
        var spans: [(lo: Int, hi: Int)] = []
        spans.reserveCapacity(boxes.count)
        var row = top
        while row < bottom {
            // The spans of this row pair, sorted by their start.
            spans.removeAll(keepingCapacity: true)
            for b in boxes where b.y0 <= row && row < b.y1 {
                var j = spans.count
                spans.append((b.x0, b.x1))
                while j > 0, spans[j - 1].lo > b.x0 { spans[j] = spans[j - 1]; j -= 1 }
                spans[j] = (b.x0, b.x1)
            }
            if !spans.isEmpty {
                // At an odd height's end the last row is a row pair of itself.
                let next = row + 1 < height ? row + 1 : row
                let lines = RowPair(r0: rgb + row * stride, r1: rgb + next * stride, l0: luma.row(row), l1: luma.row(next),
                                    u: u.row(row / 2), v: v.row(row / 2))
                var (lo, hi) = spans[0]
                for s in spans.dropFirst() {
                    if s.lo <= hi { hi = max(hi, s.hi); continue }
                    lines.convert(from: lo, to: hi)
                    (lo, hi) = s
                }
                lines.convert(from: lo, to: hi)
            }
            row += 2
        }
    }

    /// Two rows of RGB and the luma rows and chroma row they make.
    private struct RowPair {
        let r0: UnsafePointer<UInt8>, r1: UnsafePointer<UInt8>
        let l0: UnsafeMutablePointer<UInt8>, l1: UnsafeMutablePointer<UInt8>
        let u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>

        /// Columns [x, end), x even; an odd width's last column is a block of
        /// itself. Wrapping arithmetic (nothing here overflows): with Swift's
        /// checked sums it was 3.3 ms for 69 faces' reaches over a 1080p
        /// frame, C's was 3.1, this 2.6.
        @inline(__always)
        func convert(from start: Int, to end: Int) {
            var x = start
            while x &+ 1 < end {
                let p = r0 + 3 &* x, q = r1 + 3 &* x
                l0[x] = luma(p); l0[x &+ 1] = luma(p + 3); l1[x] = luma(q); l1[x &+ 1] = luma(q + 3)
                chroma(x >> 1, Int(p[0]) &+ Int(p[3]) &+ Int(q[0]) &+ Int(q[3]), Int(p[1]) &+ Int(p[4]) &+ Int(q[1]) &+ Int(q[4]),
                       Int(p[2]) &+ Int(p[5]) &+ Int(q[2]) &+ Int(q[5]))
                x &+= 2
            }
            if x < end {
                let p = r0 + 3 * x, q = r1 + 3 * x
                l0[x] = luma(p); l1[x] = luma(q)
                chroma(x / 2, 2 * (Int(p[0]) + Int(q[0])), 2 * (Int(p[1]) + Int(q[1])), 2 * (Int(p[2]) + Int(q[2])))
            }
        }

        /// One pixel's luma (every term is positive: no rounding of negatives).
        @inline(__always)
        private func luma(_ p: UnsafePointer<UInt8>) -> UInt8 {
            UInt8(truncatingIfNeeded: (16829 &* Int(p[0]) &+ 33039 &* Int(p[1]) &+ 6416 &* Int(p[2]) &+ (16 << 16) &+ (1 << 15)) >> 16)
        }

        /// A block's chroma from the sums of its four pixels' channels (the
        /// offsets keep every numerator positive).
        @inline(__always)
        private func chroma(_ i: Int, _ r: Int, _ g: Int, _ b: Int) {
            u[i] = UInt8(truncatingIfNeeded: (-9714 &* r &- 19070 &* g &+ 28784 &* b &+ (128 << 18) &+ (1 << 17)) >> 18)
            v[i] = UInt8(truncatingIfNeeded: (28784 &* r &- 24103 &* g &- 4681 &* b &+ (128 << 18) &+ (1 << 17)) >> 18)
        }
    }
}
