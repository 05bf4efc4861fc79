import Foundation

/// The privacy effect: every region covered in the chosen style, seen through
/// soft masks and blended over the original, which shows through unchanged
/// wherever no mask reaches.
///
/// ```swift
/// let covered = try FaceCover(style: .pixelate()).apply(to: image, regions: faces.map {
///     CoverRegion(rect: $0.boundingBox.toImageCoordinates(image.size, origin: .upperLeft))
/// })
/// ```
public struct FaceCover: Sendable {
    public var style: CoverStyle
    public var profile: MaskProfile

    public init(style: CoverStyle = .default, profile: MaskProfile = MaskProfile()) {
        self.style = style
        self.profile = profile
    }

    public func apply(to image: VeilImage, regions: [CoverRegion], strokes: [Stroke] = []) throws -> VeilImage {
        if regions.isEmpty && strokes.isEmpty { return image }
        if case let .image(path) = style {
            // A sticker: its own alpha is its mask; strokes still get pixelated.
            let stickered = try stickers(path: path, on: image, regions: regions)
            guard !strokes.isEmpty else { return stickered }
            let mask = try SoftMask(regions: [], strokes: strokes, profile: profile).render(size: image.size)
            return try stickered.blended(with: pixelated(image), mask: mask)
        }
        let mask = try SoftMask(regions: regions, strokes: strokes, profile: profile).render(size: image.size)
        return try image.blended(with: cover(image, regions: regions), mask: mask)
    }

    /// What a fully covered pixel looks like, for the whole image (lazy: libvips
    /// computes it only where the blend reads it).
    private func cover(_ image: VeilImage, regions: [CoverRegion]) throws -> VeilImage {
        switch style {
        case .pixelate: return try pixelated(image)
        case let .solid(color):
            let flat = try VeilImage.constant(RGB(color.r, color.g, color.b, 255), size: image.size, bands: image.bands)
            guard color.a < 255 else { return flat }
            // A translucent colour is the colour mixed over the image.
            let alpha = try VeilImage.constant(RGB(color.a, 0, 0), size: image.size, bands: 1)
            return try image.blended(with: flat, mask: alpha)
        case let .blur(strength):
            // Each face blurred by its own size, pasted into a copy of the image.
            var out = image
            for region in regions {
                let sigma = max(1.5, min(region.rect.width, region.rect.height) / 6 * strength)
                let margin = Int((3 * sigma).rounded(.up))
                let area = profile.extent(of: region).clamped(to: image.size)
                guard area.width > 0, area.height > 0 else { continue }
                let padded = PixelRect(x: area.x - margin, y: area.y - margin, width: area.width + 2 * margin, height: area.height + 2 * margin).clamped(to: image.size)
                let blurred = try image.cropped(to: padded).gaussianBlurred(sigma: sigma)
                    .cropped(to: PixelRect(x: area.x - padded.x, y: area.y - padded.y, width: area.width, height: area.height))
                out = try out.inserting(blurred, x: area.x, y: area.y)
            }
            return out
        case .image: return image
        }
    }

    private func pixelated(_ image: VeilImage) throws -> VeilImage {
        let strength: Double
        if case let .pixelate(s) = style { strength = s } else { strength = 1 }
        return try image.pixellated(cell: FaceCover.cellSize(for: image.size, strength: strength))
    }

    /// The mosaic cell: the longest side / 60, times `strength`, at least 2 pixels.
    public static func cellSize(for size: PixelSize, strength: Double = 1) -> Int {
        max(2, Int((Double(max(size.width, size.height)) / 60 * strength).rounded()))
    }

    private func stickers(path: String, on image: VeilImage, regions: [CoverRegion]) throws -> VeilImage {
        let sticker = try ImageDecoder().decode(.url(URL(fileURLWithPath: path))).image
        var overlays: [(image: VeilImage, x: Int, y: Int)] = []
        for region in regions {
            // Scaled to cover the face's mask extent along its longer side, aspect kept.
            let (rx, ry) = profile.radii(of: region)
            let target = 2 * max(rx, ry) * profile.inner / 0.8
            let scale = target / Double(max(sticker.width, sticker.height))
            let w = max(1, Int((Double(sticker.width) * scale).rounded())), h = max(1, Int((Double(sticker.height) * scale).rounded()))
            let x = Int((region.rect.midX - Double(w) / 2).rounded()), y = Int((region.rect.midY - Double(h) / 2).rounded())
            overlays.append((try sticker.resized(width: w, height: h), x, y))
        }
        return try image.compositing(overlays)
    }
}
