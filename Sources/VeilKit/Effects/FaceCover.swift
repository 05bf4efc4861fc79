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
///
/// All regions and strokes are rendered in one pass over the pixels
/// (`CoverRenderer`); video frames go straight to `renderer().render(into:…)`
/// on their own buffer.
public struct FaceCover: Sendable {
    public var style: CoverStyle
    public var profile: MaskProfile

    public init(style: CoverStyle = .default, profile: MaskProfile = MaskProfile()) {
        self.style = style
        self.profile = profile
    }

    /// The photo covered; the image's metadata is kept. Checks the current
    /// task's cancellation every few rows (throws `CancellationError`).
    public func apply(to image: VeilImage, regions: [CoverRegion], strokes: [Stroke] = []) throws -> VeilImage {
        if regions.isEmpty && strokes.isEmpty { return image }
        let renderer = try renderer()
        return try image.changingPixels { pixels, bands in
            try renderer.render(into: pixels, width: image.width, height: image.height, bands: bands, regions: regions, strokes: strokes)
        }
    }

    /// A renderer for this style, to reuse across the frames of a video (a
    /// sticker picture is decoded here, once).
    public func renderer() throws -> CoverRenderer {
        var art: StickerArt?
        if case let .image(path) = style {
            let picture = try ImageDecoder().decode(.url(URL(fileURLWithPath: path))).image
            let (bytes, bands) = try picture.interleavedPixels()
            art = StickerArt(pixels: bytes, width: picture.width, height: picture.height, bands: bands)
        }
        return CoverRenderer(style: style, profile: profile, sticker: art)
    }

    /// The mosaic cell: the longest side / 60, times `strength`, at least 2 pixels.
    ///
    /// The cells grow with the largest face covered (`largestFace`, its
    /// shorter side): at least a sixth of it, so a face gets at most about
    /// six cells across however much of the photo it fills. At the photo's
    /// sixtieth alone, a portrait whose face fills half the frame kept some
    /// thirty cells across it and stayed recognisable (faces-dev's
    /// unlabeled/Tom_Cruise_avp_2014_4.jpg; `shared/tools/covered.py` judged
    /// 26 faces over 70 px of the unlabeled photos not covered: 12 with a
    /// floor of a tenth, 1 with a sixth).
    ///
    /// Above the sixtieth the cell goes up in steps of a quarter octave
    /// (`stepsPerOctave`), the first step at least the sixth: a tracked
    /// face's box changes by a few pixels every frame, and a cell that
    /// followed it moved the whole mosaic's grid on most frames of a
    /// close-up (a 250 px face at 960x540: 47–52 px cells, a new one on 19
    /// of 29 frames); on a step it holds while the face's size does
    /// (docs/design/video-tracking.md#a-mosaic-that-holds-still).
    public static func cellSize(for size: PixelSize, strength: Double = 1, largestFace: Double = 0) -> Int {
        let cellsAcrossAFace = 6.0, stepsPerOctave = 4.0
        let base = Double(max(size.width, size.height)) / 60
        let floor = largestFace.isFinite ? largestFace / cellsAcrossAFace : 0
        // The step's exponent is rounded down first when within a thousandth: a face exactly on a step stays on it.
        let steps = floor > base ? (stepsPerOctave * log2(floor / base) - 0.001).rounded(.up) : 0
        let cell = (base * pow(2, steps / stepsPerOctave) * strength).rounded()
        return RenderBounds.clamp(cell, 2, max(2, size.width, size.height))
    }
}
