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
        // Each face is rendered within its own extent and pasted into a copy of
        // the image, so the cost follows the faces, not the whole picture.
        let canvas = try Canvas(image, keepingBands: true)
        let mask = SoftMask(regions: [], profile: profile)
        let sticker = try stickerImage()
        let whole = try wholeImageCover(image)
        for region in regions {
            let area = profile.extent(of: region).clamped(to: image.size)
            guard area.width > 0, area.height > 0 else { continue }
            let under = try canvas.region(area)
            let covered: VeilImage
            if let sticker {
                covered = try self.sticker(sticker, over: region, area: area, under: under)
            } else {
                let cover = try whole?.cropped(to: area) ?? blurred(image, region: region, area: area)
                covered = try under.blended(with: cover, mask: mask.patch(for: region, over: area))
            }
            try canvas.paste(covered, x: area.x, y: area.y)
        }
        guard !strokes.isEmpty else { return try canvas.image }
        // The pen: its own mask over the whole image, covered like a face
        // (pixelated where the style is a sticker).
        let penMask = try Canvas(VeilImage.constant(RGB(0, 0, 0), size: image.size, bands: 1), keepingBands: true)
        try mask.draw(strokes, on: penMask)
        let penCover = try whole ?? (sticker != nil ? pixelated(image) : image.gaussianBlurred(sigma: max(2, strokes.map(\.width).max()! / 3)))
        return try canvas.image.blended(with: penCover, mask: penMask.image)
    }

    /// The cover for the whole image where it does not depend on the face
    /// (lazy: libvips computes only the parts that are read).
    private func wholeImageCover(_ image: VeilImage) throws -> VeilImage? {
        switch style {
        case .pixelate: return try pixelated(image)
        case let .solid(color):
            let flat = try VeilImage.constant(RGB(color.r, color.g, color.b, 255), size: image.size, bands: image.bands)
            guard color.a < 255 else { return flat }
            // A translucent colour is the colour mixed over the image.
            let alpha = try VeilImage.constant(RGB(color.a, 0, 0), size: image.size, bands: 1)
            return try image.blended(with: flat, mask: alpha)
        case .blur, .image: return nil
        }
    }

    /// One face blurred by its own size: sigma = shorter side / 6 x strength.
    private func blurred(_ image: VeilImage, region: CoverRegion, area: PixelRect) throws -> VeilImage {
        var strength = 1.0
        if case let .blur(s) = style { strength = s }
        let sigma = max(1.5, min(region.rect.width, region.rect.height) / 6 * strength)
        let margin = Int((3 * sigma).rounded(.up))
        let padded = PixelRect(x: area.x - margin, y: area.y - margin, width: area.width + 2 * margin, height: area.height + 2 * margin).clamped(to: image.size)
        return try image.cropped(to: padded).gaussianBlurred(sigma: sigma)
            .cropped(to: PixelRect(x: area.x - padded.x, y: area.y - padded.y, width: area.width, height: area.height))
    }

    private func pixelated(_ image: VeilImage) throws -> VeilImage {
        var strength = 1.0
        if case let .pixelate(s) = style { strength = s }
        return try image.pixellated(cell: FaceCover.cellSize(for: image.size, strength: strength))
    }

    /// The mosaic cell: the longest side / 60, times `strength`, at least 2 pixels.
    public static func cellSize(for size: PixelSize, strength: Double = 1) -> Int {
        max(2, Int((Double(max(size.width, size.height)) / 60 * strength).rounded()))
    }

    private func stickerImage() throws -> VeilImage? {
        guard case let .image(path) = style else { return nil }
        return try ImageDecoder().decode(.url(URL(fileURLWithPath: path))).image
    }

    /// The sticker scaled to the face's mask extent along its longer side
    /// (aspect kept), centred on the face, composited over `under` (the
    /// pixels of `area`) with its own alpha.
    private func sticker(_ sticker: VeilImage, over region: CoverRegion, area: PixelRect, under: VeilImage) throws -> VeilImage {
        let (rx, ry) = profile.radii(of: region)
        let target = 2 * max(rx, ry) * profile.inner / 0.8
        let scale = target / Double(max(sticker.width, sticker.height))
        let w = max(1, Int((Double(sticker.width) * scale).rounded())), h = max(1, Int((Double(sticker.height) * scale).rounded()))
        let x = Int((region.rect.midX - Double(w) / 2).rounded()) - area.x, y = Int((region.rect.midY - Double(h) / 2).rounded()) - area.y
        return try under.compositing([(try sticker.resized(width: w, height: h), x, y)])
    }
}
