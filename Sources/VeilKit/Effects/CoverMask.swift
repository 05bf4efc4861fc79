/// Where the regions and pen strokes of one image reach, rasterised in one
/// pass: each region writes only the pixels of its own extent clipped to the
/// image, each stroke only the pixels of its segments clipped to the image,
/// so the cost is bounded by the image whatever the geometry claims.
struct CoverMask {
    let width: Int, height: Int
    /// Face coverage per pixel, 0...255: the maximum over the regions.
    private(set) var face: [UInt8]
    /// The region that set each covered pixel's value (the later on a tie),
    /// kept only when asked for; read only where `face` is above 0.
    private(set) var owner: [Int32]
    /// 255 where a pen stroke passes, else 0 (empty without strokes).
    private(set) var pen: [UInt8]
    /// Square tiles that a region or a stroke touches: later passes visit only these.
    let tile: Int, tilesAcross: Int, tilesDown: Int
    private(set) var touched: [Bool]

    init(width: Int, height: Int, tile: Int, regions: [CoverRegion], strokes: [Stroke], profile: MaskProfile,
         keepOwners: Bool, check: inout CancellationCheck) throws {
        self.width = width; self.height = height
        self.tile = max(1, tile)
        tilesAcross = (width + self.tile - 1) / self.tile; tilesDown = (height + self.tile - 1) / self.tile
        touched = [Bool](repeating: false, count: tilesAcross * tilesDown)
        face = regions.isEmpty ? [] : [UInt8](repeating: 0, count: width * height)
        owner = keepOwners && !regions.isEmpty ? [Int32](unsafeUninitializedCapacity: width * height) { $1 = width * height } : []
        pen = strokes.isEmpty ? [] : [UInt8](repeating: 0, count: width * height)
        for (index, region) in regions.enumerated() {
            guard let shape = RegionShape(region, profile: profile) else { continue }
            try add(shape, index: Int32(truncatingIfNeeded: index), check: &check)
        }
        for stroke in strokes { try add(stroke, check: &check) }
    }

    /// The pixels of `shape`'s extent that lie in an image of `width` x `height`.
    static func extent(of shape: RegionShape, width: Int, height: Int) -> (xs: Range<Int>, ys: Range<Int>) {
        (RenderBounds.span(from: shape.cx - shape.rx * shape.outer, to: shape.cx + shape.rx * shape.outer, limit: width),
         RenderBounds.span(from: shape.cy - shape.ry * shape.outer, to: shape.cy + shape.ry * shape.outer, limit: height))
    }

    private mutating func add(_ shape: RegionShape, index: Int32, check: inout CancellationCheck) throws {
        let (xs, ys) = CoverMask.extent(of: shape, width: width, height: height)
        guard !xs.isEmpty, !ys.isEmpty else { return }
        markTiles(xs: xs, ys: ys)
        let w = width, keepOwners = !owner.isEmpty
        try face.withUnsafeMutableBufferPointer { face in
            try owner.withUnsafeMutableBufferPointer { owner in
                for y in ys {
                    try check.advance()
                    let dy = (Double(y) + 0.5 - shape.cy) / shape.ry
                    // Pixels surely inside the core are 255 without a square root
                    // (one pixel of margin keeps the formula's own rounding at the edge).
                    let core = shape.core(row: dy, within: xs)
                    for x in shape.reach(row: dy, within: xs) {
                        let i = y * w + x
                        let v: UInt8
                        if core.contains(x) {
                            v = 255
                        } else {
                            v = shape.value(dx: (Double(x) + 0.5 - shape.cx) / shape.rx, dy: dy)
                            guard v > 0 else { continue }
                        }
                        guard v >= face[i] else { continue }
                        face[i] = v
                        if keepOwners { owner[i] = index }
                    }
                }
            }
        }
    }

    /// A stroke: every pixel within its radius of one of its segments.
    private mutating func add(_ stroke: Stroke, check: inout CancellationCheck) throws {
        guard stroke.width.isFinite else { return }
        // As the pen has always drawn: a radius of half the width, at least 1 pixel.
        let r = max(1, min((stroke.width / 2).rounded(), Double(width + height)))
        var previous: ImageRect.Point?
        for point in stroke.points {
            guard point.x.isFinite, point.y.isFinite else { previous = nil; continue }
            let from = previous ?? point
            previous = point
            guard let (a, b) = Segment.clip(from, point, toWidth: Double(width), height: Double(height), margin: r + 1) else { continue }
            try add(Segment(a: a, b: b, r: r), check: &check)
        }
    }

    private mutating func add(_ segment: Segment, check: inout CancellationCheck) throws {
        let ys = RenderBounds.span(from: min(segment.a.y, segment.b.y) - segment.r, to: max(segment.a.y, segment.b.y) + segment.r + 1, limit: height)
        let w = width
        for y in ys {
            try check.advance()
            guard let (lo, hi) = segment.columns(atRow: Double(y)) else { continue }
            let xs = RenderBounds.span(from: lo.rounded(.up), to: hi.rounded(.down) + 1, limit: w)
            guard !xs.isEmpty else { continue }
            pen.withUnsafeMutableBufferPointer { pen in
                for x in xs { pen[y * w + x] = 255 }
            }
            markTiles(xs: xs, ys: y..<y + 1)
        }
    }

    private mutating func markTiles(xs: Range<Int>, ys: Range<Int>) {
        for ty in ys.lowerBound / tile...(ys.upperBound - 1) / tile {
            for tx in xs.lowerBound / tile...(xs.upperBound - 1) / tile { touched[ty * tilesAcross + tx] = true }
        }
    }

    /// The pixels of tile (tx, ty), clipped to the image.
    func pixels(ofTile tx: Int, _ ty: Int) -> (xs: Range<Int>, ys: Range<Int>) {
        (tx * tile..<min(width, (tx + 1) * tile), ty * tile..<min(height, (ty + 1) * tile))
    }
}

/// One region's soft mask in closed form: d is the distance from the centre
/// in radii (Euclidean for a disc or an ellipse, the larger axis distance for
/// a box); the value is 255 inside `inner`, 0 past `outer`, linear between.
struct RegionShape {
    let cx: Double, cy: Double, rx: Double, ry: Double
    let inner: Double, outer: Double, box: Bool
    private let scale: Double

    init?(_ region: CoverRegion, profile: MaskProfile) {
        let (rx, ry) = profile.radii(of: region)
        cx = region.rect.midX; cy = region.rect.midY; self.rx = rx; self.ry = ry
        inner = profile.inner; outer = profile.outer; box = region.shape == .box
        guard [cx, cy, rx, ry, inner, outer].allSatisfy(\.isFinite), rx > 0, ry > 0, outer > 0 else { return nil }
        scale = outer > inner ? 255 / (outer - inner) : .infinity
    }

    /// The columns of row `dy` (in radii) that the mask can reach, with a pixel to spare.
    func reach(row dy: Double, within xs: Range<Int>) -> Range<Int> {
        let q = box ? (abs(dy) < outer ? outer : 0) : (outer * outer - dy * dy > 0 ? (outer * outer - dy * dy).squareRoot() : 0)
        guard q > 0 else { return 0..<0 }
        let lo = RenderBounds.clamp((cx - q * rx).rounded(.down) - 1, xs.lowerBound, xs.upperBound)
        let hi = RenderBounds.clamp((cx + q * rx).rounded(.up) + 1, xs.lowerBound, xs.upperBound)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// The columns of row `dy` (in radii) that lie well inside the full-coverage core.
    func core(row dy: Double, within xs: Range<Int>) -> Range<Int> {
        let q = box ? (abs(dy) < inner ? inner : 0) : (inner * inner - dy * dy > 0 ? (inner * inner - dy * dy).squareRoot() : 0)
        guard q > 0 else { return 0..<0 }
        let lo = RenderBounds.clamp((cx - q * rx).rounded(.up) + 1, xs.lowerBound, xs.upperBound)
        let hi = RenderBounds.clamp((cx + q * rx).rounded(.down) - 1, xs.lowerBound, xs.upperBound)
        return lo < hi ? lo..<hi : 0..<0
    }

    @inline(__always)
    func value(dx: Double, dy: Double) -> UInt8 {
        let d: Double
        if box {
            d = max(abs(dx), abs(dy))
        } else {
            let d2 = dx * dx + dy * dy
            if d2 <= inner * inner { return 255 }
            if d2 >= outer * outer { return 0 }
            d = d2.squareRoot()
        }
        let v = (outer - d) * scale  // as libvips' linear, then its cast to 8 bits
        return v >= 255 ? 255 : v <= 0 ? 0 : UInt8(v)
    }
}

/// A pen segment with its radius, clipped to the image beforehand so that
/// its coordinates are bounded.
struct Segment {
    let a: ImageRect.Point, b: ImageRect.Point, r: Double

    /// The part of a→b within `margin` of the image (Liang-Barsky), or nil.
    static func clip(_ a: ImageRect.Point, _ b: ImageRect.Point, toWidth w: Double, height h: Double,
                     margin: Double) -> (ImageRect.Point, ImageRect.Point)? {
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx.isFinite, dy.isFinite else { return nil }
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x + margin), (dx, w + margin - a.x), (-dy, a.y + margin), (dy, h + margin - a.y)] {
            if p == 0 { if q < 0 { return nil }; continue }
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            if t0 > t1 { return nil }
        }
        return (ImageRect.Point(x: a.x + t0 * dx, y: a.y + t0 * dy), ImageRect.Point(x: a.x + t1 * dx, y: a.y + t1 * dy))
    }

    /// The x interval of the capsule (points within r of the segment) on row y:
    /// the union of the two end discs and the band between them, which is one
    /// interval because the capsule is convex.
    func columns(atRow y: Double) -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for p in [a, b] {
            let ey = y - p.y
            guard ey * ey <= r * r else { continue }
            let half = (r * r - ey * ey).squareRoot()
            lo = min(lo, p.x - half); hi = max(hi, p.x + half)
        }
        let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
        if length2 > 0 {
            // 0 <= (p - a)·d <= |d|², |(p - a)×d| <= r|d|, each linear in x.
            var l = -Double.infinity, h = Double.infinity
            for (k, c, low, high) in [(dx, (y - a.y) * dy, 0.0, length2), (dy, -(y - a.y) * dx, -r * length2.squareRoot(), r * length2.squareRoot())] {
                if k == 0 {
                    if c < low || c > high { l = .infinity; h = -.infinity }
                    continue
                }
                let e1 = (low - c) / k + a.x, e2 = (high - c) / k + a.x
                l = max(l, min(e1, e2)); h = min(h, max(e1, e2))
            }
            if l <= h { lo = min(lo, l); hi = max(hi, h) }
        }
        return lo <= hi ? (lo, hi) : nil
    }
}
