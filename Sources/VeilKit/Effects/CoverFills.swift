/// The covers, each filling the pixels a `CoverMask` reaches: pen pixels take
/// the cover, face pixels the cover blended over the original by the mask.
///
/// Pixelation: mosaic cells of `cell` pixels anchored at the top-left corner,
/// as libvips computed them: the image padded to whole cells by repeating its
/// last row and column, each cell's columns averaged (rounded to 8 bits), then
/// those averages (rounded). Only cells a mask touches are computed, each from
/// the original pixels before any of its pixels is written.
struct Pixelation {
    let image: Frame, cell: Int
    /// Per band of cells: the column sums of every touched cell, then their means.
    private var sums: [UInt32], means: [UInt8]
    /// One row of face and pen coverage merged (only with strokes).
    private var merged: [UInt8] = []

    init(_ image: Frame, cell: Int) {
        self.image = image; self.cell = max(1, cell)
        let across = (image.width + self.cell - 1) / self.cell
        sums = [UInt32](repeating: 0, count: across * self.cell * image.bands)
        means = [UInt8](repeating: 0, count: across * image.bands)
    }

    /// The regions and strokes pixelated, one band of cells at a time.
    static func cover(_ image: Frame, cell: Int, regions: [CoverRegion], strokes: [Stroke], profile: MaskProfile,
                      levels: RimLevels?, check: inout CancellationCheck) throws {
        var pixelation = Pixelation(image, cell: cell)
        try CoverMask.bands(width: image.width, height: image.height, tile: pixelation.cell, regions: regions, strokes: strokes,
                            profile: profile, levels: levels, check: &check) { mask, check in
            try pixelation.fill(mask, faces: true, check: &check)
        }
    }

    /// Covers the touched cells of the mask's rows (its tiles are the cells):
    /// per band of cells the column sums, then the means, then the covered
    /// pixels, each pass row after row in memory order. With `faces` false
    /// only the pen is covered.
    mutating func fill(_ mask: CoverMask, faces: Bool, check: inout CancellationCheck) throws {
        let cell = cell, w = image.width, h = image.height, bands = image.bands, p = image.pixels.baseAddress!
        let span = cell * bands, across = mask.tilesAcross, top = mask.rows.lowerBound
        let face = faces ? mask.face : [], pen = mask.pen
        if !pen.isEmpty && merged.count < w { merged = [UInt8](repeating: 0, count: w) }
        try face.withUnsafeBufferPointer { face in
            try pen.withUnsafeBufferPointer { pen in
                try sums.withUnsafeMutableBufferPointer { sums in
                    try means.withUnsafeMutableBufferPointer { means in
                        try merged.withUnsafeMutableBufferPointer { merged in
                            for ty in mask.tileRows {
                                try check.advance(rows: cell)
                                let touched = (0..<across).filter { mask.isTouched($0, ty) }
                                guard !touched.isEmpty else { continue }
                                for tx in touched { (sums.baseAddress! + tx * span).update(repeating: 0, count: span) }
                                let y0 = ty * cell, ys = y0..<min(h, y0 + cell)
                                for r in 0..<cell {
                                    let row = p + min(y0 + r, h - 1) * w * bands
                                    for tx in touched {
                                        let x0 = tx * cell, sum = sums.baseAddress! + tx * span
                                        if x0 + cell <= w {
                                            let run = row + x0 * bands
                                            for k in 0..<span { sum[k] &+= UInt32(run[k]) }  // contiguous: vectorised
                                        } else {
                                            for c in 0..<cell {
                                                let x = min(x0 + c, w - 1)
                                                for b in 0..<bands { sum[c * bands + b] &+= UInt32(row[x * bands + b]) }
                                            }
                                        }
                                    }
                                }
                                let half = UInt32(cell / 2), n = Quotient(cell)
                                for tx in touched {
                                    for b in 0..<bands {
                                        var total: UInt32 = 0
                                        for c in 0..<cell { total &+= n.of(sums[tx * span + c * bands + b] &+ half) }
                                        means[tx * bands + b] = UInt8(truncatingIfNeeded: n.of(total &+ half))
                                    }
                                }
                                for y in ys {
                                    let offset = (y - top) * w
                                    // (An empty array's buffer may still have a base address.)
                                    var coverage = face.isEmpty ? nil : face.baseAddress.map { UnsafePointer($0 + offset) }
                                    if !pen.isEmpty, let pen = pen.baseAddress {
                                        let merge = merged.baseAddress!
                                        for x in 0..<w { merge[x] = coverage.map { max($0[x], pen[offset + x]) } ?? pen[offset + x] }
                                        coverage = UnsafePointer(merge)
                                    }
                                    guard let coverage else { continue }
                                    let row = p + y * w * bands
                                    for tx in touched {
                                        let x0 = tx * cell, count = min(w, x0 + cell) - x0
                                        paint(row + x0 * bands, coverage: coverage + x0, count: count, cover: means.baseAddress! + tx * bands, bands: bands)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Integer division by a number fixed for many divisions, without the
/// divide instruction: ⌊(a + 1/2) / n⌋ in double precision is ⌊a / n⌋
/// exactly for a < 2^50 (the half keeps the quotient 1/(2n) away from an
/// integer, farther than the product's rounding can move it).
struct Quotient {
    private let inverse: Double
    init(_ n: Int) { inverse = 1 / Double(n) }
    @inline(__always)
    func of(_ a: UInt32) -> UInt32 { UInt32((Double(a) + 0.5) * inverse) }
}

/// `count` pixels of `bands` channels at `pixels` take `cover` blended over
/// them by their `coverage` (255: the cover itself, 0: untouched).
@inline(__always)
func paint(_ pixels: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int, cover: UnsafePointer<UInt8>, bands: Int) {
    // One copy of the loop per band count, so that the inner loops unroll.
    switch bands {
    case 3: paintRun(pixels, coverage: coverage, count: count, cover: cover, bands: 3)
    case 1: paintRun(pixels, coverage: coverage, count: count, cover: cover, bands: 1)
    case 4: paintRun(pixels, coverage: coverage, count: count, cover: cover, bands: 4)
    default: paintRun(pixels, coverage: coverage, count: count, cover: cover, bands: bands)
    }
}

@inline(__always)
private func paintRun(_ pixels: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int, cover: UnsafePointer<UInt8>, bands: Int) {
    let eight = UnsafeRawPointer(coverage)
    var x = 0
    while x < count {
        // Eight pixels at a time: skipped where all are uncovered, the cover
        // where all are covered, else blended without a branch per pixel
        // (exact at 0 and 255 too), which the compiler vectorises.
        let n = min(8, count - x), q = pixels + x * bands
        if n == 8 {
            let m = eight.loadUnaligned(fromByteOffset: x, as: UInt64.self)
            if m == 0 { x += 8; continue }
            if m == ~0 {
                for k in 0..<8 { for b in 0..<bands { q[k * bands + b] = cover[b] } }
                x += 8; continue
            }
        }
        for k in 0..<n {
            let m = UInt16(coverage[x + k])
            for b in 0..<bands { q[k * bands + b] = mix(cover[b], over: q[k * bands + b], mask: m) }
        }
        x += n
    }
}

/// `blend` in 16 bits: at most 255 * 255 + 128 before the division by 255,
/// which (t + t / 256 + 1) / 256 gives exactly for t < 65535.
@inline(__always)
private func mix(_ cover: UInt8, over under: UInt8, mask m: UInt16) -> UInt8 {
    let t = m &* UInt16(cover) &+ (255 &- m) &* UInt16(under) &+ 128
    return UInt8(truncatingIfNeeded: (t &+ (t &>> 8) &+ 1) &>> 8)
}

/// Whether any pixel of the tile is covered.
@inline(__always)
func covers(xs: Range<Int>, ys: Range<Int>, width: Int, face: [UInt8], pen: [UInt8]) -> Bool {
    for y in ys {
        for x in xs where (!face.isEmpty && face[y * width + x] != 0) || (!pen.isEmpty && pen[y * width + x] != 0) { return true }
    }
    return false
}

enum SolidFill {
    /// A flat colour; a translucent one is first mixed over the image by its alpha.
    static func cover(_ image: Frame, mask: CoverMask, color: RGB, check: inout CancellationCheck) throws {
        let w = image.width, bands = image.bands, p = image.pixels
        let flat: [UInt8] = bands == 1 ? [color.r] : bands == 2 ? [color.r, 255] : Array([color.r, color.g, color.b, 255].prefix(bands))
        let face = mask.face, pen = mask.pen, top = mask.rows.lowerBound
        for ty in mask.tileRows {
            try check.advance(rows: mask.tile)
            for tx in 0..<mask.tilesAcross where mask.isTouched(tx, ty) {
                let (xs, ys) = mask.pixels(ofTile: tx, ty)
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
}

enum Blurring {
    /// Each face blurred by its own size (sigma = shorter side / 6 x strength,
    /// at least 1.5), over the pixels where its mask is the largest; the pen
    /// by max(2, widest stroke / 3). All read a copy of the original, so
    /// neighbouring covers never blur each other.
    static func cover(_ image: Frame, mask: CoverMask, regions: [CoverRegion], profile: MaskProfile, strength: Double,
                      strokes: [Stroke], check: inout CancellationCheck) throws {
        let w = image.width, h = image.height, bands = image.bands, p = image.pixels
        let original = Array(p)
        try original.withUnsafeBufferPointer { source in
            let face = mask.face, owner = mask.owner, pen = mask.pen
            for (index, region) in regions.enumerated() {
                guard let shape = RegionShape(region, profile: profile) else { continue }
                let (xs, ys) = CoverMask.extent(of: shape, width: w, height: h)
                try check.advance(rows: ys.count)
                let mine = Int32(truncatingIfNeeded: index)
                func owned(_ i: Int) -> Bool { face[i] != 0 && owner[i] == mine && (pen.isEmpty || pen[i] == 0) }
                guard ys.contains(where: { y in xs.contains { owned(y * w + $0) } }) else { continue }
                let sigma = max(1.5, min(region.rect.width, region.rect.height) / 6 * strength)
                let blurred = BoxBlur.blur(source, width: w, height: h, bands: bands, rect: (xs, ys), sigma: sigma)
                for y in ys {
                    for x in xs where owned(y * w + x) {
                        let i = y * w + x, o = ((y - ys.lowerBound) * xs.count + x - xs.lowerBound) * bands
                        for b in 0..<bands { p[i * bands + b] = blend(blurred[o + b], over: source[i * bands + b], mask: face[i]) }
                    }
                }
            }
            guard !pen.isEmpty else { return }
            let widest = strokes.map(\.width).filter(\.isFinite).max() ?? 0
            let sigma = max(2, min(widest, Double(w + h)) / 3)
            for ty in mask.tileRows {
                try check.advance(rows: mask.tile)
                for tx in 0..<mask.tilesAcross where mask.isTouched(tx, ty) {
                    let (xs, ys) = mask.pixels(ofTile: tx, ty)
                    guard covers(xs: xs, ys: ys, width: w, face: [], pen: pen) else { continue }
                    let blurred = BoxBlur.blur(source, width: w, height: h, bands: bands, rect: (xs, ys), sigma: sigma)
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
