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
    @inline(__always)
    func reach(row dy: Double, within xs: Range<Int>) -> Range<Int> { columns(radius: outer, row: dy, within: xs, grown: true) }

    /// The columns of row `dy` (in radii) that lie well inside the full-coverage core.
    @inline(__always)
    func core(row dy: Double, within xs: Range<Int>) -> Range<Int> { columns(radius: inner, row: dy, within: xs, grown: false) }

    /// The columns of row `dy` within `r` radii of the centre: rounded
    /// outwards and a pixel wider when `grown`, inwards and a pixel narrower when not.
    @inline(__always)
    private func columns(radius r: Double, row dy: Double, within xs: Range<Int>, grown: Bool) -> Range<Int> {
        let q = box ? (abs(dy) < r ? r : 0) : (r * r - dy * dy > 0 ? (r * r - dy * dy).squareRoot() : 0)
        guard q > 0 else { return 0..<0 }
        let pixel = grown ? 1 : -1
        let lo = RenderBounds.clamp(rounding: cx - q * rx, up: !grown, plus: -pixel, xs.lowerBound, xs.upperBound)
        let hi = RenderBounds.clamp(rounding: cx + q * rx, up: grown, plus: pixel, xs.lowerBound, xs.upperBound)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// The mask at (dx, dy) radii from the centre, as libvips' linear then
    /// its cast to 8 bits: truncated, and 0 for anything not a number.
    /// Written without branches on the value (selects only): along a rim
    /// it changes from pixel to pixel, and branches on it mispredict.
    @inline(__always)
    func value(dx: Double, dy: Double) -> UInt8 {
        box ? RegionShape.level(distance: max(abs(dx), abs(dy)), outer: outer, scale: scale)
            : RegionShape.level(squared: dx * dx + dy * dy, inner: inner, outer: outer, scale: scale)
    }

    /// A disc's or an ellipse's value at d² radii² from the centre.
    @inline(__always)
    static func level(squared d2: Double, inner: Double, outer: Double, scale: Double) -> UInt8 {
        let byte = level(distance: d2.squareRoot(), outer: outer, scale: scale)
        return d2 <= inner * inner ? 255 : d2 >= outer * outer ? 0 : byte
    }

    @inline(__always)
    static func level(distance d: Double, outer: Double, scale: Double) -> UInt8 {
        let v = (outer - d) * scale
        return UInt8(v >= 255 ? 255 : v > 0 ? v : 0)
    }
}

/// A pen segment with its radius, clipped to the image beforehand so that
/// its coordinates are bounded.
struct Segment {
    let a: ImageRect.Point, b: ImageRect.Point, r: Double
    /// For a filled stroke: the convex polygon, clipped to the image (a and b unused).
    var polygon: [ImageRect.Point]? = nil

    /// A stroke's segments clipped to an image of `width` x `height`, each
    /// with the pen's radius: half the width, at least 1 pixel (as the pen has
    /// always drawn); a point that is not a number breaks the line.
    static func pieces(of stroke: Stroke, width: Int, height: Int) -> [Segment] {
        if stroke.filled {
            let hull = RotatedRect.convexHull(stroke.points.filter { $0.x.isFinite && $0.y.isFinite })
            let inside = ConvexPolygon.clipped(hull, x0: -1, y0: -1, x1: Double(width) + 1, y1: Double(height) + 1)
            guard inside.count >= 3 else { return [] }
            return [Segment(a: inside[0], b: inside[0], r: 0, polygon: inside)]
        }
        guard stroke.width.isFinite else { return [] }
        let r = max(1, min((stroke.width / 2).rounded(), Double(width + height)))
        var pieces: [Segment] = [], previous: ImageRect.Point?
        for point in stroke.points {
            guard point.x.isFinite, point.y.isFinite else { previous = nil; continue }
            let from = previous ?? point
            previous = point
            guard let (a, b) = clip(from, point, toWidth: Double(width), height: Double(height), margin: r + 1) else { continue }
            pieces.append(Segment(a: a, b: b, r: r))
        }
        return pieces
    }

    /// The rows of an image `height` tall that the capsule can reach.
    func rows(limit height: Int) -> Range<Int> {
        if let polygon {
            let ys = polygon.map(\.y)
            return RenderBounds.span(from: (ys.min() ?? 0) - 1, to: (ys.max() ?? 0) + 1, limit: height)
        }
        return RenderBounds.span(from: min(a.y, b.y) - r, to: max(a.y, b.y) + r + 1, limit: height)
    }

    /// The columns of an image `width` wide that the capsule (or polygon) can reach.
    func columns(limit width: Int) -> Range<Int> {
        if let polygon {
            let xs = polygon.map(\.x)
            return RenderBounds.span(from: (xs.min() ?? 0) - 1, to: (xs.max() ?? 0) + 1, limit: width)
        }
        return RenderBounds.span(from: min(a.x, b.x) - r - 1, to: max(a.x, b.x) + r + 2, limit: width)
    }

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
        // A polygon is in pixel-edge coordinates: a pixel is in when its centre is.
        if let polygon { return ConvexPolygon.columns(of: polygon, atY: y + 0.5).map { ($0.0 - 0.5, $0.1 - 0.5) } }
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
