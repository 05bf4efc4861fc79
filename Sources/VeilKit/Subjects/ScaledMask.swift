/// A one-channel soft mask of chosen instances, 0 (outside) to 1 (inside), as Vision's scaled
/// mask: full image resolution, or cropped to the chosen instances.
public struct ScaledMask: Sendable {
    /// The mask as a one-band 8-bit image (0...255 for 0...1), lazily evaluated.
    let image8: VeilImage
    /// Where the mask lies in the upright source image (pixels, origin top-left).
    public let extent: PixelRect

    public var width: Int { extent.width }
    public var height: Int { extent.height }

    /// The mask values, row after row, each 0...1 (computes the mask).
    public func values() throws -> [Float] {
        try image8.pixelBytes().map { Float($0) / 255 }
    }

    /// The mask as an 8-bit greyscale image (255 = fully foreground), for saving.
    public func greyscaleImage() throws -> VeilImage { image8 }

    /// `rgb` (8-bit sRGB, already cropped to `extent`) with this mask as its alpha
    /// (8-bit RGBA): the one cut-out of subjects and people. Fully transparent pixels are made black: the hidden background
    /// is then not recoverable from the file, and a PNG is several times smaller.
    func cutOut(of rgb: VeilImage) throws -> VeilImage {
        let visible = try image8.above(0).linear(1 / 255.0, 0)
        return try (rgb * visible).asUChar().joined(bands: image8)
    }
}
