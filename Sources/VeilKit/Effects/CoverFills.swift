/// The covers other than pixelation (`Pixelation`), each filling the pixels a
/// `CoverMask` reaches: pen pixels take the cover, face pixels the cover
/// blended over the original by the mask.

enum SolidFill {
    /// A flat colour; a translucent one is first mixed over the image by its alpha.
    static func cover(_ image: Frame, mask: CoverMask, color: RGB, check: inout CancellationCheck) throws {
        let w = image.width, bands = image.bands, p = image.pixels
        let flat: [UInt8] = bands == 1 ? [color.r] : bands == 2 ? [color.r, 255] : Array([color.r, color.g, color.b, 255].prefix(bands))
        let face = mask.face, pen = mask.pen, top = mask.rows.lowerBound
        try mask.forEachTouchedTile(check: &check) { xs, ys in
            for y in ys {
                for x in xs {
                    let i = y * w + x, j = (y - top) * w + x
                    let m: UInt8 = !pen.isEmpty && pen[j] != 0 ? 255 : face.isEmpty ? 0 : face[j]
                    guard m != 0 else { continue }
                    for b in 0..<bands {
                        let under = p[i * bands + b]
                        let cover = color.a == 255 ? flat[b] : blend(flat[b], over: under, mask: color.a)
                        p[i * bands + b] = blend(cover, over: under, mask: m)
                    }
                }
            }
        }
    }
}

enum Blurring {
    /// Each face blurred by its own size (sigma = shorter side / 6 x strength,
    /// at least 1.5), over the pixels where its mask is the largest; the pen
    /// by max(2, widest stroke / 3). All read a copy of the original, so
    /// neighbouring covers never blur each other.
    static func cover(_ image: Frame, mask: CoverMask, regions: [CoverRegion], profile: MaskProfile, strength: Double,
                      strokes: [Stroke], check: inout CancellationCheck) throws {
        let w = image.width, h = image.height, bands = image.bands, p = image.pixels, blur = BoxBlur()
        let widest = strokes.map(\.width).filter(\.isFinite).max() ?? 0
        let penSigma = max(2, min(widest, Double(w + h)) / 3)
        func sigma(_ region: CoverRegion) -> Double { max(1.5, min(region.rect.width, region.rect.height) / 6 * strength) }
        // The original of the rows some blur reads, copied before any pixel
        // is written; rows no blur reads are never copied (nor read).
        var read = [Bool](repeating: false, count: h)
        for region in regions {
            guard let shape = RegionShape(region, profile: profile) else { continue }
            let rows = BoxBlur.window(of: CoverMask.extent(of: shape, width: w, height: h), sigma: sigma(region), width: w, height: h).ys
            for y in rows { read[y] = true }
        }
        if !mask.pen.isEmpty {
            for ty in mask.tileRows where (0..<mask.tilesAcross).contains(where: { mask.isTouched($0, ty) }) {
                let rows = BoxBlur.window(of: mask.pixels(ofTile: 0, ty), sigma: penSigma, width: w, height: h).ys
                for y in rows { read[y] = true }
            }
        }
        let original = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: w * h * bands)
        defer { original.deallocate() }
        for y in 0..<h where read[y] { (original.baseAddress! + y * w * bands).update(from: p.baseAddress! + y * w * bands, count: w * bands) }
        let source = UnsafeBufferPointer(original)
        try mask.face.withUnsafeBufferPointer { face in
            try mask.owner.withUnsafeBufferPointer { owner in
                try mask.pen.withUnsafeBufferPointer { pen in
                    for (index, region) in regions.enumerated() {
                        guard let shape = RegionShape(region, profile: profile) else { continue }
                        let (xs, ys) = CoverMask.extent(of: shape, width: w, height: h)
                        try check.advance(rows: ys.count)
                        let mine = Int32(truncatingIfNeeded: index)
                        // The mask where this region owns the pixel, else 0: without
                        // branches, as ownership changes often along a shared rim.
                        @inline(__always) func coverage(_ i: Int) -> UInt8 {
                            face[i] & (owner[i] == mine ? 255 : 0) & (pen.isEmpty || pen[i] == 0 ? 255 : 0)
                        }
                        guard ys.contains(where: { y in xs.contains { coverage(y * w + $0) != 0 } }) else { continue }
                        let blurred = blur.blur(source, width: w, height: h, bands: bands, rect: (xs, ys), sigma: sigma(region))
                        for y in ys {
                            for x in xs {
                                let i = y * w + x, o = ((y - ys.lowerBound) * xs.count + x - xs.lowerBound) * bands, m = coverage(i)
                                for b in 0..<bands {
                                    let mixed = blend(blurred[o + b], over: source[i * bands + b], mask: m)
                                    p[i * bands + b] = m != 0 ? mixed : p[i * bands + b]
                                }
                            }
                        }
                    }
                    guard !pen.isEmpty else { return }
                    try mask.forEachTouchedTile(check: &check) { xs, ys in
                        guard ys.contains(where: { y in xs.contains { pen[y * w + $0] != 0 } }) else { return }
                        let blurred = blur.blur(source, width: w, height: h, bands: bands, rect: (xs, ys), sigma: penSigma)
                        for y in ys {
                            for x in xs where pen[y * w + x] != 0 {
                                let i = y * w + x, o = ((y - ys.lowerBound) * xs.count + x - xs.lowerBound) * bands
                                for b in 0..<bands { p[i * bands + b] = blurred[o + b] }
                            }
                        }
                    }
                }
            }
        }
    }
}
