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
}
