/// A region to cover, in pixels of the upright image (origin top-left), with
/// the shape of its soft mask.
public struct CoverRegion: Sendable, Hashable, Codable {
    public enum Shape: String, Sendable, Codable, CaseIterable { case disc, ellipse, box }
    public var rect: ImageRect
    public var shape: Shape
    public init(rect: ImageRect, shape: Shape = .disc) { self.rect = rect; self.shape = shape }
}
