/// Where the regions and pen strokes of one image reach, over a window of its
/// rows: the whole image, or one band of tiles at a time (`CoverMask.bands`),
/// so that a crowd is masked and filled while its band is still in cache.
/// Each region writes only the pixels of its own extent clipped to the
/// window, each stroke only the pixels of its segments, so the cost is
/// bounded by the image whatever the geometry claims.
struct CoverMask {
    let width: Int, height: Int
    /// The image rows held, starting at a tile's top edge.
    private(set) var rows: Range<Int>
    /// Face coverage per pixel of `rows`, 0...255: the maximum over the
    /// regions. Pixel (x, y) is at `(y - rows.lowerBound) * width + x`.
    private(set) var face: [UInt8]
    /// The region that set each covered pixel's value (the later on a tie),
    /// kept only when asked for; read only where `face` is above 0.
    private(set) var owner: [Int32]
    /// 255 where a pen stroke passes, else 0 (empty without strokes).
    private(set) var pen: [UInt8]
    /// Square tiles of `rows` that a region or a stroke touches: later passes visit only these.
    let tile: Int, tilesAcross: Int
    private(set) var touched: [Bool]
    /// Scratch: the rim pixels of the region being added.
    private let rim = RimBatch()
    /// The disc's fade tabulated (nil: computed by the formula).
    let levels: RimLevels?

    /// An empty mask over `rows`, with room for faces, their owners and the pen as asked.
    private init(width: Int, height: Int, tile: Int, rows: Range<Int>, faces: Bool, owners: Bool, pen: Bool, levels: RimLevels?) {
        self.width = width; self.height = height; self.rows = rows; self.levels = levels
        self.tile = max(1, tile)
        tilesAcross = (width + self.tile - 1) / self.tile
        touched = [Bool](repeating: false, count: tilesAcross * ((rows.count + self.tile - 1) / self.tile))
        face = faces ? [UInt8](repeating: 0, count: width * rows.count) : []
        owner = owners && faces ? [Int32](unsafeUninitializedCapacity: width * rows.count) { $1 = width * rows.count } : []
        self.pen = pen ? [UInt8](repeating: 0, count: width * rows.count) : []
    }

    /// The whole image's mask, everything rasterised in one pass.
    init(width: Int, height: Int, tile: Int, regions: [CoverRegion], strokes: [Stroke], profile: MaskProfile,
         levels: RimLevels? = nil, keepOwners: Bool, check: inout CancellationCheck) throws {
        self.init(width: width, height: height, tile: tile, rows: 0..<height,
                  faces: !regions.isEmpty, owners: keepOwners, pen: !strokes.isEmpty, levels: levels)
        for (index, region) in regions.enumerated() {
            guard let shape = RegionShape(region, profile: profile) else { continue }
            try add(shape, index: Int32(truncatingIfNeeded: index), check: &check)
        }
        for stroke in strokes {
            for segment in Segment.pieces(of: stroke, width: width, height: height) { try add(segment, check: &check) }
        }
    }

    /// The tile rows of the window.
    var tileRows: Range<Int> { rows.lowerBound / tile..<(rows.upperBound + tile - 1) / tile }

    func isTouched(_ tx: Int, _ ty: Int) -> Bool { touched[(ty - rows.lowerBound / tile) * tilesAcross + tx] }

    /// `body` with the pixels of each touched tile, a row of tiles at a time,
    /// `check` advanced by a row of tiles before each (cancellation, progress).
    func forEachTouchedTile(check: inout CancellationCheck, _ body: (_ xs: Range<Int>, _ ys: Range<Int>) throws -> Void) throws {
        for ty in tileRows {
            try check.advance(rows: tile)
            for tx in 0..<tilesAcross where isTouched(tx, ty) {
                let (xs, ys) = pixels(ofTile: tx, ty)
                try body(xs, ys)
            }
        }
    }

    /// The pixels of tile (tx, ty), clipped to the image.
    func pixels(ofTile tx: Int, _ ty: Int) -> (xs: Range<Int>, ys: Range<Int>) {
        (tx * tile..<min(width, (tx + 1) * tile), ty * tile..<min(height, (ty + 1) * tile))
    }

    /// The pixels of `shape`'s extent that lie in an image of `width` x `height`.
    static func extent(of shape: RegionShape, width: Int, height: Int) -> (xs: Range<Int>, ys: Range<Int>) {
        (RenderBounds.span(from: shape.cx - shape.rx * shape.outer, to: shape.cx + shape.rx * shape.outer, limit: width),
         RenderBounds.span(from: shape.cy - shape.ry * shape.outer, to: shape.cy + shape.ry * shape.outer, limit: height))
    }

    /// Per row: the core (well inside the full-coverage disc, with a pixel of
    /// margin for the formula's own rounding) is set to 255 at once; only the
    /// rim on either side computes the formula, pixel by pixel.
    private mutating func add(_ shape: RegionShape, index: Int32, check: inout CancellationCheck) throws {
        let (xs, extentRows) = CoverMask.extent(of: shape, width: width, height: height)
        let ys = extentRows.clamped(to: rows)
        guard !xs.isEmpty, !ys.isEmpty else { return }
        markTiles(xs: xs, ys: ys)
        let w = width, top = rows.lowerBound, levels = shape.box ? nil : levels, rim = rim
        @inline(__always) func value(_ x: Int, _ dy: Double) -> UInt8 {
            let dx = (Double(x) + 0.5 - shape.cx) / shape.rx
            if let levels { return levels.level(dx * dx + dy * dy) }
            return shape.value(dx: dx, dy: dy)
        }
        try face.withUnsafeMutableBufferPointer { face in
            try owner.withUnsafeMutableBufferPointer { owner in
                // (An empty array's buffer may still have a base address.)
                let owners = owner.isEmpty ? nil : owner.baseAddress
                if owners == nil { rim.begin(shape, levels: levels, mask: face.baseAddress!, columns: xs) }
                for y in ys {
                    try check.advance()
                    let dy = (Double(y) + 0.5 - shape.cy) / shape.ry
                    let reach = shape.reach(row: dy, within: xs)
                    guard !reach.isEmpty else { continue }
                    let core = shape.core(row: dy, within: xs).clamped(to: reach)
                    let row = face.baseAddress! + (y - top) * w, rowOwners = owners.map { $0 + (y - top) * w }
                    if let rowOwners {
                        (row + core.lowerBound).update(repeating: 255, count: core.count)
                        (rowOwners + core.lowerBound).update(repeating: index, count: core.count)
                        for x in reach where !core.contains(x) {
                            let v = value(x, dy)
                            if v > 0 && v >= row[x] { row[x] = v; rowOwners[x] = index }
                        }
                    } else {
                        (row + core.lowerBound).update(repeating: 255, count: core.count)
                        rim.add(reach.lowerBound..<core.lowerBound, row: (y - top) * w, dy: dy)
                        rim.add(core.upperBound..<reach.upperBound, row: (y - top) * w, dy: dy)
                    }
                }
                if owners == nil { rim.flush() }
            }
        }
    }

    /// A pen segment: every pixel of the window within its radius.
    private mutating func add(_ segment: Segment, check: inout CancellationCheck) throws {
        let ys = segment.rows(limit: height).clamped(to: rows), w = width, top = rows.lowerBound
        for y in ys {
            try check.advance()
            guard let (lo, hi) = segment.columns(atRow: Double(y)) else { continue }
            let xs = RenderBounds.span(from: lo.rounded(.up), to: hi.rounded(.down) + 1, limit: w)
            guard !xs.isEmpty else { continue }
            pen.withUnsafeMutableBufferPointer { ($0.baseAddress! + (y - top) * w + xs.lowerBound).update(repeating: 255, count: xs.count) }
            markTiles(xs: xs, ys: y..<y + 1)
        }
    }

    private mutating func markTiles(xs: Range<Int>, ys: Range<Int>) {
        let first = rows.lowerBound / tile
        for ty in ys.lowerBound / tile...(ys.upperBound - 1) / tile {
            for tx in xs.lowerBound / tile...(xs.upperBound - 1) / tile { touched[(ty - first) * tilesAcross + tx] = true }
        }
    }

    /// Empties the mask and moves it to `rows` (no more rows than it was made with).
    private mutating func reset(rows: Range<Int>) {
        self.rows = rows
        let count = width * rows.count
        if !face.isEmpty { face.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: count) } }
        if !pen.isEmpty { pen.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: count) } }
        touched.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
    }

    /// The mask of the regions and strokes, one band of tile rows at a time
    /// (at least 32 rows), handed to `fill` for each band something reaches.
    /// One band's mask is reused for all: memory is a band, not the image,
    /// and each region and segment is visited only in the bands its extent
    /// crosses. No owners: a band never holds a whole region.
    static func bands(width: Int, height: Int, tile: Int, regions: [CoverRegion], strokes: [Stroke], profile: MaskProfile,
                      levels: RimLevels?, check: inout CancellationCheck, fill: (CoverMask, inout CancellationCheck) throws -> Void) throws {
        let tile = max(1, tile), band = tile * max(1, (32 + tile - 1) / tile)
        let shapes = regions.compactMap { RegionShape($0, profile: profile) }
        let segments = strokes.flatMap { Segment.pieces(of: $0, width: width, height: height) }
        let shapesIn = BandIndex(band: band, height: height, rows: shapes.map { CoverMask.extent(of: $0, width: width, height: height).ys })
        let segmentsIn = BandIndex(band: band, height: height, rows: segments.map { $0.rows(limit: height) })
        var mask = CoverMask(width: width, height: height, tile: tile, rows: 0..<min(height, band),
                             faces: !shapes.isEmpty, owners: false, pen: !segments.isEmpty, levels: levels)
        for b in 0..<shapesIn.count {
            guard !shapesIn[b].isEmpty || !segmentsIn[b].isEmpty else { continue }
            mask.reset(rows: b * band..<min(height, (b + 1) * band))
            for i in shapesIn[b] { try mask.add(shapes[Int(i)], index: i, check: &check) }
            for i in segmentsIn[b] { try mask.add(segments[Int(i)], check: &check) }
            try fill(mask, &check)
        }
    }
}

/// Which items (by index) reach each band of rows: every item listed under
/// each band its rows cross, in item order.
private struct BandIndex {
    private var starts: [Int], items: [Int32]

    init(band: Int, height: Int, rows: [Range<Int>]) {
        let count = (height + band - 1) / band
        starts = [Int](repeating: 0, count: count + 1)
        for r in rows where !r.isEmpty { for b in r.lowerBound / band...(r.upperBound - 1) / band { starts[b + 1] += 1 } }
        for b in 0..<count { starts[b + 1] += starts[b] }
        var next = starts
        items = [Int32](repeating: 0, count: starts[count])
        for (i, r) in rows.enumerated() where !r.isEmpty {
            for b in r.lowerBound / band...(r.upperBound - 1) / band { items[next[b]] = Int32(i); next[b] += 1 }
        }
    }

    var count: Int { starts.count - 1 }
    subscript(band: Int) -> ArraySlice<Int32> { items[starts[band]..<starts[band + 1]] }
}
