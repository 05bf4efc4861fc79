/// Pixelation: mosaic cells of `cell` pixels anchored at the top-left corner,
/// as libvips computed them: the image padded to whole cells by repeating its
/// last row and column, each cell's columns averaged (rounded to 8 bits), then
/// those averages (rounded). Only cells a mask touches are computed, each from
/// the original pixels before any of its pixels is written; covered pixels
/// take their cell's mean blended over them by the mask, pen pixels the mean.
struct Pixelation {
    let image: Frame, cell: Int
    private let scratch: Scratch

    init(_ image: Frame, cell: Int) {
        self.image = image; self.cell = max(1, cell)
        scratch = Scratch(across: (image.width + self.cell - 1) / self.cell, cell: self.cell, width: image.width, bands: image.bands)
    }

    /// The regions and strokes pixelated, one band of cells at a time.
    static func cover(_ image: Frame, cell: Int, regions: [CoverRegion], strokes: [Stroke], profile: MaskProfile,
                      levels: RimLevels?, check: inout CancellationCheck) throws {
        let pixelation = Pixelation(image, cell: cell)
        try CoverMask.bands(width: image.width, height: image.height, tile: pixelation.cell, regions: regions, strokes: strokes,
                            profile: profile, levels: levels, check: &check) { mask, check in
            try pixelation.fill(mask, faces: true, check: &check)
        }
    }

    /// Covers the touched cells of the mask's rows (its tiles are the cells):
    /// per band of cells the means, then the covered pixels, each pass row
    /// after row in memory order. With `faces` false only the pen is covered.
    func fill(_ mask: CoverMask, faces: Bool, check: inout CancellationCheck) throws {
        let face = faces ? mask.face : [], pen = mask.pen
        guard !face.isEmpty || !pen.isEmpty else { return }
        try face.withUnsafeBufferPointer { face in
            try pen.withUnsafeBufferPointer { pen in
                for ty in mask.tileRows {
                    try check.advance(rows: cell)
                    let touched = (0..<mask.tilesAcross).filter { mask.isTouched($0, ty) }
                    guard !touched.isEmpty else { continue }
                    // Sums of up to 257 rows of bytes fit in 16 bits, which halve the work.
                    if cell <= 257 { means(ofRow: ty, cells: touched, sums: scratch.sums16) } else { means(ofRow: ty, cells: touched, sums: scratch.sums32) }
                    paint(row: ty, cells: touched, face: face, pen: pen, top: mask.rows.lowerBound)
                }
            }
        }
    }

    /// The means of the cells `cells` of row `ty`, each as a pattern of eight pixels.
    private func means<Sum: FixedWidthInteger & UnsignedInteger>(ofRow ty: Int, cells: [Int], sums: UnsafeMutableBufferPointer<Sum>) {
        let w = image.width, h = image.height, bands = image.bands, p = image.pixels.baseAddress!, span = cell * bands
        for tx in cells { (sums.baseAddress! + tx * span).update(repeating: 0, count: span) }
        let y0 = ty * cell
        for r in 0..<cell {
            let row = p + min(y0 + r, h - 1) * w * bands
            for tx in cells {
                let x0 = tx * cell, sum = sums.baseAddress! + tx * span
                if x0 + cell <= w {
                    let run = row + x0 * bands
                    for k in 0..<span { sum[k] &+= Sum(truncatingIfNeeded: run[k]) }  // contiguous: vectorised
                } else {
                    for c in 0..<cell {
                        let x = min(x0 + c, w - 1)
                        for b in 0..<bands { sum[c * bands + b] &+= Sum(truncatingIfNeeded: row[x * bands + b]) }
                    }
                }
            }
        }
        let half = UInt32(cell / 2), n = Quotient(cell), patterns = scratch.patterns
        for tx in cells {
            let pattern = patterns.baseAddress! + tx * 8 * bands
            for b in 0..<bands {
                var total: UInt32 = 0
                for c in 0..<cell { total &+= n.of(UInt32(truncatingIfNeeded: sums[tx * span + c * bands + b]) &+ half) }
                pattern[b] = UInt8(truncatingIfNeeded: n.of(total &+ half))
            }
            for k in bands..<8 * bands { pattern[k] = pattern[k - bands] }
        }
    }

    /// The covered pixels of the cells `cells` of row `ty`: face coverage
    /// `face` and pen `pen` (either may be empty) hold the rows from `top`.
    private func paint(row ty: Int, cells: [Int], face: UnsafeBufferPointer<UInt8>, pen: UnsafeBufferPointer<UInt8>, top: Int) {
        let w = image.width, bands = image.bands, p = image.pixels.baseAddress!
        for y in ty * cell..<min(image.height, (ty + 1) * cell) {
            let offset = (y - top) * w
            let coverage: UnsafePointer<UInt8>
            if pen.isEmpty {
                coverage = face.baseAddress! + offset
            } else {
                // A pen pixel is fully covered: the larger of the two.
                let merged = scratch.merged.baseAddress!
                for x in 0..<w { merged[x] = face.isEmpty ? pen[offset + x] : max(face[offset + x], pen[offset + x]) }
                coverage = UnsafePointer(merged)
            }
            let row = p + y * w * bands
            for tx in cells {
                let x0 = tx * cell
                VeilKit.paint(row + x0 * bands, coverage: coverage + x0, count: min(w, x0 + cell) - x0,
                              pattern: scratch.patterns.baseAddress! + tx * 8 * bands, bands: bands)
            }
        }
    }

    /// Buffers for one render, allocated once: column sums per cell of a row
    /// of cells, each touched cell's mean as eight pixels, one merged mask row.
    private final class Scratch {
        let sums16: UnsafeMutableBufferPointer<UInt16>, sums32: UnsafeMutableBufferPointer<UInt32>
        let patterns: UnsafeMutableBufferPointer<UInt8>, merged: UnsafeMutableBufferPointer<UInt8>

        init(across: Int, cell: Int, width: Int, bands: Int) {
            sums16 = .allocate(capacity: cell <= 257 ? across * cell * bands : 0)
            sums32 = .allocate(capacity: cell <= 257 ? 0 : across * cell * bands)
            patterns = .allocate(capacity: across * 8 * bands)
            merged = .allocate(capacity: width)
        }

        deinit { sums16.deallocate(); sums32.deallocate(); patterns.deallocate(); merged.deallocate() }
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

/// `count` pixels of `bands` channels at `pixels` take the cover blended
/// over them by their `coverage` (255: the cover itself, 0: untouched);
/// `pattern` is the cover repeated for eight pixels.
@inline(__always)
func paint(_ pixels: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int, pattern: UnsafePointer<UInt8>, bands: Int) {
    // One copy of the loop per band count, so that the inner loops unroll.
    switch bands {
    case 3: paintRun(pixels, coverage: coverage, count: count, pattern: pattern, bands: 3)
    case 1: paintRun(pixels, coverage: coverage, count: count, pattern: pattern, bands: 1)
    case 4: paintRun(pixels, coverage: coverage, count: count, pattern: pattern, bands: 4)
    default: paintRun(pixels, coverage: coverage, count: count, pattern: pattern, bands: bands)
    }
}

@inline(__always)
private func paintRun(_ pixels: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int, pattern: UnsafePointer<UInt8>, bands: Int) {
    let masks = UnsafeRawPointer(coverage), raw = UnsafeMutableRawPointer(pixels), cover = UnsafeRawPointer(pattern)
    var x = 0
    // Eight pixels at a time: skipped where all are uncovered, the cover
    // where all are covered, else blended in vector registers (exact at 0
    // and 255 too), eight bytes at a time.
    while x + 8 <= count {
        let m = masks.loadUnaligned(fromByteOffset: x, as: UInt64.self), q = raw + x * bands
        if m == ~0 {
            for group in 0..<bands { q.storeBytes(of: cover.loadUnaligned(fromByteOffset: group * 8, as: UInt64.self), toByteOffset: group * 8, as: UInt64.self) }
        } else if m != 0 {
            let v = SIMD8<UInt16>(truncatingIfNeeded: masks.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self))
            for group in 0..<bands {
                // The mask of each of these eight bytes: their pixel's (constant lanes once `bands` is).
                let o = group * 8
                let spread = SIMD8(v[o / bands], v[(o + 1) / bands], v[(o + 2) / bands], v[(o + 3) / bands],
                                   v[(o + 4) / bands], v[(o + 5) / bands], v[(o + 6) / bands], v[(o + 7) / bands])
                let under = SIMD8<UInt16>(truncatingIfNeeded: q.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self))
                let over = SIMD8<UInt16>(truncatingIfNeeded: cover.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self))
                q.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: mix(over, under, spread)), toByteOffset: o, as: SIMD8<UInt8>.self)
            }
        }
        x += 8
    }
    for x in x..<count {
        for b in 0..<bands { pixels[x * bands + b] = blend(pattern[b], over: pixels[x * bands + b], mask: coverage[x]) }
    }
}

/// `blend` on eight lanes.
@inline(__always)
private func mix(_ cover: SIMD8<UInt16>, _ under: SIMD8<UInt16>, _ m: SIMD8<UInt16>) -> SIMD8<UInt16> {
    let t = m &* cover &+ (255 &- m) &* under &+ 128
    return (t &+ (t &>> 8) &+ 1) &>> 8
}

