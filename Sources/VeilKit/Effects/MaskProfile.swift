/// How a region's mask falls off: fully covered inside `inner` radii, fading
/// linearly to nothing at `outer` radii (Core Image's radial gradient). A disc's
/// radius is min(w, h) / 1.5 times `scale`; an ellipse's and a box's half-axes
/// are w / 1.5 and h / 1.5 times `scale`.
public struct MaskProfile: Sendable, Hashable, Codable {
    public var inner: Double
    public var outer: Double
    public var scale: Double
    public init(inner: Double = 0.8, outer: Double = 1.1, scale: Double = 1) {
        self.inner = inner; self.outer = outer; self.scale = scale
    }

    func radii(of region: CoverRegion) -> (x: Double, y: Double) {
        let w = region.rect.width, h = region.rect.height
        switch region.shape {
        case .disc: let r = min(w, h) / 1.5 * scale; return (r, r)
        case .ellipse, .box: return (w / 1.5 * scale, h / 1.5 * scale)
        }
    }

    /// The pixels a region's mask can touch: its outer extent (not clipped).
    func extent(of region: CoverRegion) -> PixelRect {
        let (rx, ry) = radii(of: region)
        return ImageRect(x: region.rect.midX - rx * outer, y: region.rect.midY - ry * outer,
                         width: 2 * rx * outer, height: 2 * ry * outer).integral
    }
}
