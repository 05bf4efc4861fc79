import Foundation

/// A rectangle at any angle, in pixels (origin top-left): what a text line's
/// pixels fit in. `width` runs along `angle` (radians), `height` across it.
struct RotatedRect: Sendable, Hashable {
    var center: ImageRect.Point
    var width: Double
    var height: Double
    var angle: Double

    var shortSide: Double { min(width, height) }

    /// The smallest-area rectangle holding `points` (rotating calipers over
    /// their convex hull: the best rectangle has a side on a hull edge), nil
    /// for no points. Points are pixel centres, as OpenCV's `minAreaRect` of
    /// a contour sees them, so a one-row line has height 0.
    static func minimumArea(of points: [ImageRect.Point]) -> RotatedRect? {
        let hull = convexHull(points)
        guard let first = hull.first else { return nil }
        guard hull.count > 1 else { return RotatedRect(center: first, width: 0, height: 0, angle: 0) }
        var best: RotatedRect?, bestArea = Double.infinity
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            let ux = dx / length, uy = dy / length
            var lo = Double.infinity, hi = -Double.infinity, across = Double.infinity, far = -Double.infinity
            for p in hull {
                let along = (p.x - a.x) * ux + (p.y - a.y) * uy, side = -(p.x - a.x) * uy + (p.y - a.y) * ux
                lo = min(lo, along); hi = max(hi, along); across = min(across, side); far = max(far, side)
            }
            let area = (hi - lo) * (far - across)
            if area < bestArea {
                bestArea = area
                let mid = (lo + hi) / 2, midSide = (across + far) / 2
                best = RotatedRect(center: ImageRect.Point(x: a.x + mid * ux - midSide * uy, y: a.y + mid * uy + midSide * ux),
                                   width: hi - lo, height: far - across, angle: atan2(uy, ux))
            }
        }
        return best
    }

    /// Andrew's monotone chain; collinear points dropped.
    static func convexHull(_ points: [ImageRect.Point]) -> [ImageRect.Point] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: ImageRect.Point, _ a: ImageRect.Point, _ b: ImageRect.Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull: [ImageRect.Point] = []
        for pass in 0..<2 {
            let start = hull.count
            for p in pass == 0 ? sorted : sorted.reversed() {
                while hull.count >= start + 2, cross(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
                hull.append(p)
            }
            hull.removeLast()
        }
        return hull
    }

    /// Grown by `distance` on every side: what offsetting the rectangle with
    /// round joins (DB's "unclip") and fitting a rectangle again gives.
    func grown(by distance: Double) -> RotatedRect {
        RotatedRect(center: center, width: width + 2 * distance, height: height + 2 * distance, angle: angle)
    }

    /// The corners in reading order: top-left, top-right, bottom-right,
    /// bottom-left (PaddleOCR's order: the two leftmost are the left side,
    /// each side's upper point first).
    var corners: [ImageRect.Point] {
        let c = cos(angle), s = sin(angle), hw = width / 2, hh = height / 2
        let raw = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map {
            ImageRect.Point(x: center.x + $0.0 * c - $0.1 * s, y: center.y + $0.0 * s + $0.1 * c)
        }
        let byX = raw.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        let left = byX[0].y <= byX[1].y ? (byX[0], byX[1]) : (byX[1], byX[0])
        let right = byX[2].y <= byX[3].y ? (byX[2], byX[3]) : (byX[3], byX[2])
        return [left.0, right.0, right.1, left.1]
    }
}
