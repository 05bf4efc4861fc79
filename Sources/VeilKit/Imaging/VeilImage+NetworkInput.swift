extension VeilImage {
    /// This 8-bit RGB image resampled to `width` x `height` and laid, row
    /// after row, in the top-left corner of a `paddedWidth` x `paddedHeight`
    /// buffer of four bytes a pixel: R, G, B and a zero (a network that
    /// reads four bands faster than three), zeros in the padding too. What a
    /// detector's 8-bit input is, made in one pass over memory.
    ///
    /// Shrinking is libvips' linear `resize`. Enlarging (the finer passes'
    /// 1.5x) is done here with libvips' own arithmetic for it (`taps`), the
    /// same bytes (`NetworkInputTests`). libvips built that through a
    /// pipeline per pass, then a black border, a band, a copy to memory and
    /// one to Swift: 32 ns a network pixel on the 36 dev photos' finer
    /// passes, a fifth of their time beside the network's (AVX2 kernels on a
    /// Zen 4); this is one read of the source and one write of the result.
    func networkBytes(width: Int, height: Int, paddedWidth: Int, paddedHeight: Int) throws -> [UInt8] {
        guard bands == 3, width > 0, height > 0, paddedWidth >= width, paddedHeight >= height else {
            throw VeilError.invalidArgument("network input at \(width)x\(height) in \(paddedWidth)x\(paddedHeight) from \(self.width)x\(self.height)x\(bands)")
        }
        let shrinks = width < self.width || height < self.height
        let source = shrinks ? try resized(width: width, height: height, kernel: .linear) : self
        var out = [UInt8](repeating: 0, count: paddedWidth * paddedHeight * 4)
        try VeilImage(source.ensureUChar()).withMemoryPixels { src in
            let rgb = RGBSource(bytes: src, width: source.width, height: source.height)
            guard src.count >= rgb.width * rgb.height * 3 else {
                throw VeilError.imaging("network input: \(src.count) bytes for \(rgb.width)x\(rgb.height) RGB")
            }
            out.withUnsafeMutableBytes { dst in
                if rgb.width == width && rgb.height == height {
                    rgb.copy(into: dst, rowBytes: paddedWidth * 4)
                } else {
                    rgb.enlarge(into: dst, width: width, height: height, rowBytes: paddedWidth * 4)
                }
            }
        }
        return out
    }
}

/// Interleaved RGB bytes read a pixel at a time as four lanes (the fourth 0).
private struct RGBSource {
    let bytes: UnsafeRawBufferPointer
    let width: Int, height: Int

    /// The pixel at byte `offset`: one 4-byte load (the next pixel's red
    /// masked off), or three where the buffer ends.
    @inline(__always) func pixel(at offset: Int) -> SIMD4<Int32> {
        let rgb: SIMD4<UInt8>
        if offset + 4 <= bytes.count {
            rgb = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self) & SIMD4(255, 255, 255, 0)
        } else {
            rgb = SIMD4(bytes[offset], bytes[offset + 1], bytes[offset + 2], 0)
        }
        return SIMD4(truncatingIfNeeded: rgb)
    }

    /// The rows as they are, `rowBytes` apart.
    func copy(into dst: UnsafeMutableRawBufferPointer, rowBytes: Int) {
        for y in 0..<height {
            var s = y * width * 3, d = y * rowBytes
            for _ in 0..<width {
                dst.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: pixel(at: s)), toByteOffset: d, as: SIMD4<UInt8>.self)
                s += 3; d += 4
            }
        }
    }

    /// Enlarged to `outWidth` x `outHeight` as libvips' bilinear
    /// interpolator does it on bytes: four weights in 1/4096 from the two
    /// fractions (`taps`), the sum rounded.
    func enlarge(into dst: UnsafeMutableRawBufferPointer, width outWidth: Int, height outHeight: Int, rowBytes: Int) {
        let sx = Double(outWidth) / Double(width), sy = Double(outHeight) / Double(height)
        let det = 1.0 / (sx * sy)
        let across = Self.taps(count: outWidth, source: width, inverse: det * sy, accumulated: true)
        let down = Self.taps(count: outHeight, source: height, inverse: det * sx, accumulated: false)
        for (y, row) in down.enumerated() {
            let upper = row.lo * width * 3, lower = row.hi * width * 3
            let yWeight = row.weight, yd = 4096 - row.weight
            var d = y * rowBytes
            for column in across {
                let x = column.weight
                let c4 = (yWeight * x) >> 12, c2 = (yd * x) >> 12
                let c3 = yWeight - c4, c1 = yd - c2
                let (left, right) = (column.lo * 3, column.hi * 3)
                var sum = pixel(at: upper + left) &* SIMD4(repeating: c1)
                sum &+= pixel(at: upper + right) &* SIMD4(repeating: c2)
                sum &+= pixel(at: lower + left) &* SIMD4(repeating: c3)
                sum &+= pixel(at: lower + right) &* SIMD4(repeating: c4)
                dst.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (sum &+ 2048) &>> 12), toByteOffset: d, as: SIMD4<UInt8>.self)
                d += 4
            }
        }
    }

    /// Where the output pixels along a line of `count` read a source line of
    /// `n`, by libvips' affine arithmetic for its linear resize (an inverse
    /// scale of 1 / (sx sy) times the other side's scale, the input
    /// displaced by half a pixel, positions accumulated along a row and
    /// multiplied down the rows), so the bytes are libvips' own: the first
    /// neighbour (clamped to the edge, as libvips' copied border is), the
    /// second, and the second's weight in 1/4096, truncated.
    static func taps(count: Int, source n: Int, inverse: Double, accumulated: Bool) -> [(lo: Int, hi: Int, weight: Int32)] {
        var at = 0.5
        return (0..<count).map { i in
            if accumulated { if i > 0 { at += inverse } } else { at = inverse * Double(i) + 0.5 }
            // In the source bordered by one pixel, then back to the source's own pixels.
            let whole = Int(at)
            let weight = Int32(truncatingIfNeeded: Int((at - Double(whole)) * 4096))
            return (min(max(whole - 1, 0), n - 1), min(max(whole, 0), n - 1), weight)
        }
    }
}
