
/// A region to cover, in pixels of the upright image (origin top-left), with
/// the shape of its soft mask.
public struct CoverRegion: Sendable, Hashable, Codable {
    public enum Shape: String, Sendable, Codable, CaseIterable { case disc, ellipse, box }
    public var rect: ImageRect
    public var shape: Shape
    public init(rect: ImageRect, shape: Shape = .disc) { self.rect = rect; self.shape = shape }
}

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

/// A freehand stroke of the "pen": a polyline in pixels with a width.
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [ImageRect.Point]
    public var width: Double
    public init(points: [ImageRect.Point], width: Double) { self.points = points; self.width = width }
}

/// The coverage mask for a set of regions and strokes: one 8-bit band, 255
/// where fully covered, 0 where untouched; overlapping regions take the maximum.
public struct SoftMask: Sendable {
    public var regions: [CoverRegion]
    public var strokes: [Stroke]
    public var profile: MaskProfile

    public init(regions: [CoverRegion], strokes: [Stroke] = [], profile: MaskProfile = MaskProfile()) {
        self.regions = regions; self.strokes = strokes; self.profile = profile
    }

    /// Renders the mask for an image of `size`, in one pass over its pixels
    /// (see `CoverMask`): the regions' soft masks, maximum where they
    /// overlap, and the strokes at full coverage.
    public func render(size: PixelSize) throws -> VeilImage {
        var check = CancellationCheck { Task.isCancelled }
        let mask = try CoverMask(width: size.width, height: size.height, tile: 64, regions: regions, strokes: strokes,
                                 profile: profile, keepOwners: false, check: &check)
        var bytes = mask.face.isEmpty ? [UInt8](repeating: 0, count: size.width * size.height) : mask.face
        if !mask.pen.isEmpty { for i in bytes.indices where mask.pen[i] != 0 { bytes[i] = 255 } }
        return try VeilImage(pixels: bytes, width: size.width, height: size.height, bands: 1)
    }
}
