/// A freehand stroke of the "pen": a polyline with a width. In pixels where
/// it is drawn (`FaceCover`) and given (`RegionEdits`); in the editing state,
/// normalized: points as fractions of the photo's width and height, the width
/// as a fraction of its longest side (`inPixels` turns one into the other).
/// Coded as the editing state stores it: `{"points": [[x, y], ...], "width": w}`.
/// A `filled` stroke is instead the convex polygon through its points, its
/// width unused: how a text region's quadrilateral is covered, with the
/// pen's hard edge, exactly to its corners at any angle (`"filled": true`).
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [ImageRect.Point]
    public var width: Double
    public var filled: Bool
    public init(points: [ImageRect.Point], width: Double, filled: Bool = false) {
        self.points = points; self.width = width; self.filled = filled
    }

    /// A normalized stroke in the pixels of a `width` x `height` photo.
    public func inPixels(width w: Double, height h: Double) -> Stroke {
        Stroke(points: points.map { ImageRect.Point(x: $0.x * w, y: $0.y * h) }, width: width * max(w, h), filled: filled)
    }

    enum CodingKeys: String, CodingKey { case points, width, filled }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try c.decode([[Double]].self, forKey: .points)
        guard let bad = pairs.first(where: { $0.count != 2 }) else {
            points = pairs.map { ImageRect.Point(x: $0[0], y: $0[1]) }
            width = try c.decode(Double.self, forKey: .width)
            filled = try c.decodeIfPresent(Bool.self, forKey: .filled) ?? false
            return
        }
        throw DecodingError.dataCorruptedError(forKey: .points, in: c, debugDescription: "a pen point is \(bad), not [x, y]")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(points.map { [$0.x, $0.y] }, forKey: .points)
        try c.encode(width, forKey: .width)
        if filled { try c.encode(true, forKey: .filled) }
    }
}

/// A point written as the pair `[x, y]`, the editing state's form of a pen point.
extension ImageRect.Point: ExpressibleByArrayLiteral {
    public init(arrayLiteral xy: Double...) {
        precondition(xy.count == 2, "a point is [x, y]")
        self.init(x: xy[0], y: xy[1])
    }
}
