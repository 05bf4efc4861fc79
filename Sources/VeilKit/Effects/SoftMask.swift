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
