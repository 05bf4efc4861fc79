/// Row spans of a convex polygon: one interval per row, because it is convex.
/// Shared by the text detector's scoring and the pen's filled polygons.
enum ConvexPolygon {
    /// The x interval where the horizontal line at `y` crosses the polygon, or nil.
    static func columns(of points: [ImageRect.Point], atY y: Double) -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            guard min(a.y, b.y) <= y, y <= max(a.y, b.y) else { continue }
            if a.y == b.y {
                lo = min(lo, a.x, b.x); hi = max(hi, a.x, b.x)
            } else {
                let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                lo = min(lo, x); hi = max(hi, x)
            }
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// `points` clipped to the rectangle [x0, x1] x [y0, y1] (Sutherland-Hodgman):
    /// still convex, its coordinates bounded.
    static func clipped(_ points: [ImageRect.Point], x0: Double, y0: Double, x1: Double, y1: Double) -> [ImageRect.Point] {
        var poly = points.filter { $0.x.isFinite && $0.y.isFinite }
        let edges: [(inside: (ImageRect.Point) -> Bool, cut: (ImageRect.Point, ImageRect.Point) -> ImageRect.Point)] = [
            ({ $0.x >= x0 }, { a, b in ImageRect.Point(x: x0, y: a.y + (x0 - a.x) / (b.x - a.x) * (b.y - a.y)) }),
            ({ $0.x <= x1 }, { a, b in ImageRect.Point(x: x1, y: a.y + (x1 - a.x) / (b.x - a.x) * (b.y - a.y)) }),
            ({ $0.y >= y0 }, { a, b in ImageRect.Point(x: a.x + (y0 - a.y) / (b.y - a.y) * (b.x - a.x), y: y0) }),
            ({ $0.y <= y1 }, { a, b in ImageRect.Point(x: a.x + (y1 - a.y) / (b.y - a.y) * (b.x - a.x), y: y1) }),
        ]
        for edge in edges {
            guard !poly.isEmpty else { break }
            var out: [ImageRect.Point] = []
            for i in poly.indices {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                switch (edge.inside(a), edge.inside(b)) {
                case (true, true): out.append(b)
                case (true, false): out.append(edge.cut(a, b))
                case (false, true): out.append(edge.cut(a, b)); out.append(b)
                case (false, false): break
                }
            }
            poly = out
        }
        return poly
    }
}
