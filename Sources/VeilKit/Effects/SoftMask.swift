import CVipsShim

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

    /// The pixels a region's mask can touch: its outer extent.
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

extension ImageRect {
    /// A point in pixels.
    public struct Point: Sendable, Hashable, Codable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }
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

    /// Renders the mask for an image of `size`. Each region touches only its
    /// own extent (maximum with what is there), so the cost follows the faces.
    public func render(size: PixelSize) throws -> VeilImage {
        let canvas = try Canvas(VeilImage.constant(RGB(0, 0, 0), size: size, bands: 1), keepingBands: true)
        for region in regions {
            let area = profile.extent(of: region).clamped(to: size)
            guard area.width > 0, area.height > 0 else { continue }
            try canvas.paste(try canvas.region(area).maximum(with: patch(for: region, over: area)), x: area.x, y: area.y)
        }
        try draw(strokes, on: canvas)
        return try canvas.image
    }

    /// The radial (or box) falloff of one region over `area`, built from libvips'
    /// coordinate image: d = distance from the centre in radii, m = (outer - d) / (outer - inner).
    func patch(for region: CoverRegion, over area: PixelRect) throws -> VeilImage {
        let (rx, ry) = profile.radii(of: region)
        guard rx > 0, ry > 0 else { return try VeilImage.constant(RGB(0, 0, 0), size: PixelSize(width: area.width, height: area.height), bands: 1) }
        let cx = region.rect.midX, cy = region.rect.midY
        var d = try VipsHandle.make { veil_vips_xyz($0, Int32(area.width), Int32(area.height)) }
        // Pixel centres, relative to the region's centre, in radii.
        d = try d.linear([1 / rx, 1 / ry], [(Double(area.x) + 0.5 - cx) / rx, (Double(area.y) + 0.5 - cy) / ry])
        switch region.shape {
        case .disc, .ellipse:
            d = try d.apply { veil_vips_pow($0, $1, 2) }
            d = try d.apply { veil_vips_bandmean($0, $1) }
            d = try d.linear([2], [0])
            d = try d.apply { veil_vips_pow($0, $1, 0.5) }
        case .box:
            d = try d.apply { veil_vips_abs($0, $1) }
            d = try d.apply { veil_vips_bandmax2($0, $1) }
        }
        let span = profile.outer - profile.inner
        let m = try d.linear([-255 / span], [255 * profile.outer / span])
        return VeilImage(try m.apply { veil_vips_cast_uchar($0, $1) })  // clips to 0...255
    }

    /// Strokes drawn at full coverage as chains of discs along each segment.
    func draw(_ strokes: [Stroke], on canvas: Canvas) throws {
        for stroke in strokes {
            let radius = max(1, Int((stroke.width / 2).rounded()))
            let step = max(1, Double(radius) / 2)
            var previous: ImageRect.Point?
            for point in stroke.points {
                let from = previous ?? point
                let length = ((point.x - from.x) * (point.x - from.x) + (point.y - from.y) * (point.y - from.y)).squareRoot()
                let count = max(1, Int((length / step).rounded(.up)))
                for i in 0...count {
                    let t = Double(i) / Double(count)
                    try canvas.disc(x: Int((from.x + (point.x - from.x) * t).rounded()), y: Int((from.y + (point.y - from.y) * t).rounded()),
                                    radius: radius, color: RGB(255, 255, 255))
                }
                previous = point
            }
        }
    }
}

extension VipsHandle {
    func linear(_ a: [Double], _ b: [Double]) throws -> VipsHandle {
        try apply { veil_vips_linear($0, $1, a, b, Int32(a.count)) }
    }
}
