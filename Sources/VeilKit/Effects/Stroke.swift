/// A freehand stroke of the "pen": a polyline in pixels with a width.
/// A `filled` stroke is instead the convex polygon through its points, its
/// width unused: how a text region's quadrilateral is covered, with the
/// pen's hard edge, exactly to its corners at any angle.
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [ImageRect.Point]
    public var width: Double
    public var filled: Bool
    public init(points: [ImageRect.Point], width: Double, filled: Bool = false) {
        self.points = points; self.width = width; self.filled = filled
    }

    enum CodingKeys: String, CodingKey { case points, width, filled }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        points = try c.decode([ImageRect.Point].self, forKey: .points)
        width = try c.decode(Double.self, forKey: .width)
        filled = try c.decodeIfPresent(Bool.self, forKey: .filled) ?? false
    }
}
