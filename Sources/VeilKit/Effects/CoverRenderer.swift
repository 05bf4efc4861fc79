/// Covers all regions and pen strokes of one image in one pass over its
/// pixels: the masks are rasterised once (`CoverMask`), then only the tiles
/// they touch are visited and each covered pixel is mixed with its cover.
/// The default, pixelation, goes one band of cells at a time (mask, cell
/// means, cover), so a frame needs no image-sized scratch and each band is
/// still in cache when covered. No libvips operation runs per face, so a
/// crowd costs about the pixels its faces cover, and all geometry is
/// clipped to the image first.
///
/// Made by `FaceCover.renderer()` (which decodes a sticker once); reuse it
/// for every frame of a video.
public struct CoverRenderer: Sendable {
    public let style: CoverStyle
    public let profile: MaskProfile
    let sticker: StickerArt?
    /// The profile's fade tabulated once, for every frame.
    let levels: RimLevels?

    init(style: CoverStyle, profile: MaskProfile, sticker: StickerArt?) {
        self.style = style; self.profile = profile; self.sticker = sticker
        levels = RimLevels(profile: profile)
    }

    /// Covers `regions` and `strokes` in `pixels`, interleaved 8-bit rows of
    /// `width` x `height` with `bands` channels (3 for RGB), in place.
    /// Throws `CancellationError` when `isCancelled` (asked every 64 rows of
    /// work) says so; the buffer is then partly covered.
    public func render(into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, bands: Int = 3,
                       regions: [CoverRegion] = [], strokes: [Stroke] = [],
                       isCancelled: @escaping () -> Bool = { Task.isCancelled }) throws {
        guard width > 0, height > 0, (1...4).contains(bands), pixels.count >= width * height * bands else {
            throw VeilError.invalidArgument("pixel buffer does not match \(width)x\(height)x\(bands)")
        }
        if regions.isEmpty && strokes.isEmpty { return }
        var check = CancellationCheck(isCancelled)
        let image = Frame(pixels: pixels, width: width, height: height, bands: bands)
        switch style {
        case let .pixelate(strength):
            let largest = regions.reduce(0) { max($0, min($1.rect.width, $1.rect.height)) }
            let cell = FaceCover.cellSize(for: PixelSize(width: width, height: height), strength: strength, largestFace: largest)
            try Pixelation.cover(image, cell: cell, regions: regions, strokes: strokes, profile: profile, levels: levels, check: &check)
        case let .solid(color):
            let mask = try CoverMask(width: width, height: height, tile: 64, regions: regions, strokes: strokes, profile: profile, levels: levels, keepOwners: false, check: &check)
            try SolidFill.cover(image, mask: mask, color: color, check: &check)
        case let .blur(strength):
            let mask = try CoverMask(width: width, height: height, tile: 64, regions: regions, strokes: strokes, profile: profile, levels: levels, keepOwners: true, check: &check)
            try Blurring.cover(image, mask: mask, regions: regions, profile: profile, strength: strength, strokes: strokes, check: &check)
        case .image:
            // The pen pixelates where the style is a sticker; stickers are drawn over the rest.
            let cell = FaceCover.cellSize(for: PixelSize(width: width, height: height))
            let mask = try CoverMask(width: width, height: height, tile: cell, regions: [], strokes: strokes, profile: profile, levels: levels, keepOwners: false, check: &check)
            let pixelation = Pixelation(image, cell: cell)
            try pixelation.fill(mask, faces: false, check: &check)
            guard let sticker else { return }
            try drawStickers(sticker, image, regions: regions, pen: mask.pen, check: &check)
        }
    }

    /// The same on an array of `width` x `height` x `bands` bytes.
    public func render(into pixels: inout [UInt8], width: Int, height: Int, bands: Int = 3,
                       regions: [CoverRegion] = [], strokes: [Stroke] = [],
                       isCancelled: @escaping () -> Bool = { Task.isCancelled }) throws {
        try pixels.withUnsafeMutableBufferPointer {
            try render(into: $0, width: width, height: height, bands: bands, regions: regions, strokes: strokes, isCancelled: isCancelled)
        }
    }

    /// Rectangles that hold every pixel `render` may change for these regions
    /// and strokes: each region's mask extent (the disc or box at its outer
    /// radius, which every style, stickers too, stays inside: outside it the
    /// mask is 0 and the blend returns the pixel unchanged), each stroke
    /// segment's bounding box with the pen's radius and a pixel to spare.
    /// The video writer re-encodes only these from the covered RGB and keeps
    /// the decoder's own pixels everywhere else. Clipped to the image; empty
    /// ones left out.
    public func reach(regions: [CoverRegion], strokes: [Stroke] = [], width: Int, height: Int) -> [PixelRect] {
        var rects: [PixelRect] = []
        func add(_ xs: Range<Int>, _ ys: Range<Int>) {
            if !xs.isEmpty, !ys.isEmpty { rects.append(PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)) }
        }
        for region in regions {
            guard let shape = RegionShape(region, profile: profile) else { continue }
            let (xs, ys) = CoverMask.extent(of: shape, width: width, height: height)
            add(xs, ys)
        }
        for stroke in strokes {
            for segment in Segment.pieces(of: stroke, width: width, height: height) { add(segment.columns(limit: width), segment.rows(limit: height)) }
        }
        return rects
    }

    /// Each sticker scaled to its face's mask extent along the longer side
    /// (aspect kept), centred on the face, drawn over that extent in order.
    private func drawStickers(_ art: StickerArt, _ image: Frame, regions: [CoverRegion], pen: [UInt8], check: inout CancellationCheck) throws {
        let limit = Double(4 * max(image.width, image.height))
        for region in regions {
            guard let shape = RegionShape(region, profile: profile) else { continue }
            let mask = CoverMask.extent(of: shape, width: image.width, height: image.height)
            guard !mask.xs.isEmpty, !mask.ys.isEmpty else { continue }
            try check.advance(rows: mask.ys.count)
            let target = min(limit, 2 * max(shape.rx, shape.ry) * profile.inner / 0.8)
            let scale = target / Double(max(art.width, art.height))
            let w = RenderBounds.clamp((Double(art.width) * scale).rounded(), 1, Int(limit)), h = RenderBounds.clamp((Double(art.height) * scale).rounded(), 1, Int(limit))
            let x = RenderBounds.clamp((shape.cx - Double(w) / 2).rounded(), -Int(limit), Int(limit))
            let y = RenderBounds.clamp((shape.cy - Double(h) / 2).rounded(), -Int(limit), Int(limit))
            art.draw(into: image.pixels, imageWidth: image.width, bands: image.bands, origin: (x, y), size: (w, h), area: (mask.xs, mask.ys), skip: pen)
        }
    }
}

/// The caller's pixels being covered.
struct Frame {
    let pixels: UnsafeMutableBufferPointer<UInt8>
    let width: Int, height: Int, bands: Int
}

/// libvips' blend of `cover` over `under` through an 8-bit mask value
/// (`ifthenelse` with blend): exact at 0 and 255. In 16 bits: at most
/// 255 * 255 + 128 before the division by 255, which (t + t / 256 + 1) / 256
/// gives exactly for t < 65535.
@inline(__always)
func blend(_ cover: UInt8, over under: UInt8, mask m: UInt8) -> UInt8 {
    let m = UInt16(m), t = m &* UInt16(cover) &+ (255 &- m) &* UInt16(under) &+ 128
    return UInt8(truncatingIfNeeded: (t &+ (t &>> 8) &+ 1) &>> 8)
}
