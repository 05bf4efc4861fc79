/// A freehand stroke of the "pen": a polyline in pixels with a width.
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [ImageRect.Point]
    public var width: Double
    public init(points: [ImageRect.Point], width: Double) { self.points = points; self.width = width }
}
