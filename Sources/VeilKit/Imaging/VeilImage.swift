import CVipsShim
import Foundation

/// A decoded, upright image: the input of every request and effect.
///
/// Like a `CIImage` it is a recipe that libvips evaluates lazily, so chaining
/// effects costs nothing until pixels are read or the image is encoded. It is
/// an immutable value, safe to share between tasks.
public struct VeilImage: Sendable {
    let handle: VipsHandle

    init(_ handle: VipsHandle) { self.handle = handle }

    public var width: Int { handle.width }
    public var height: Int { handle.height }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Number of channels: 3 (RGB) or 4 (RGBA) after decoding.
    public var bands: Int { handle.bands }
    public var hasAlpha: Bool { veil_vips_has_alpha(handle.pointer) != 0 }

    /// Creates an image from interleaved 8-bit pixels (RGB, RGBA or one grey channel).
    public init(pixels: [UInt8], width: Int, height: Int, bands: Int) throws {
        guard width > 0, height > 0, [1, 3, 4].contains(bands), pixels.count == width * height * bands else {
            throw VeilError.invalidArgument("pixel buffer does not match \(width)x\(height)x\(bands)")
        }
        try VipsRuntime.ensureStarted()
        let handle = try pixels.withUnsafeBytes { raw in
            try VipsHandle.make { out in
                out.pointee = veil_vips_from_memory(raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), 0)
                return out.pointee == nil ? -1 : 0
            }
        }
        self.init(handle)
    }

    /// The interleaved 8-bit pixels, row after row: computes the whole recipe.
    public func pixelBytes() throws -> [UInt8] {
        try VeilImage(ensureUChar()).withMemoryPixels { Array($0) }
    }

    /// Reads the pixels (as they are, any format, row after row) once the
    /// image is in memory: a memory image is read where it lies, any other is
    /// computed into one first. One copy to reach Swift, where writing to a
    /// fresh libvips buffer and copying that made two.
    func withMemoryPixels<R>(_ read: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let memory = try handle.apply { veil_vips_copy_memory($0, $1) }
        var length = 0
        guard let data = veil_vips_memory_pixels(memory.pointer, &length) else {
            throw VeilError.imaging(VipsRuntime.takeError("copy to memory"))
        }
        return try withExtendedLifetime(memory) { try read(UnsafeRawBufferPointer(start: data, count: length)) }
    }

    /// The image turned upright from stored pixels with the given orientation.
    public func applying(_ orientation: ImageOrientation) throws -> VeilImage {
        let (turns, flip) = orientation.uprightTransform
        var current = handle
        if turns != 0 { current = try current.call("rot", "angle=d\(turns * 90)") }
        if let flip { current = try current.call("flip", "direction=\(flip == .horizontal ? "horizontal" : "vertical")") }
        return VeilImage(current)
    }

    /// The region `rect` (pixels, top-left origin), clamped to the image.
    public func cropped(to rect: PixelRect) throws -> VeilImage {
        let clamped = rect.clamped(to: size)
        guard clamped.width > 0, clamped.height > 0 else {
            throw VeilError.invalidArgument("crop \(rect) lies outside the \(width)x\(height) image")
        }
        // extract_area names its image `input`, not `in`.
        return VeilImage(try VipsHandle.call(
            "extract_area", ["input": handle], "left=\(clamped.x),top=\(clamped.y),width=\(clamped.width),height=\(clamped.height)"))
    }

    /// The image resampled to `width` x `height` (Lanczos when shrinking).
    public func resized(width: Int, height: Int) throws -> VeilImage {
        guard width > 0, height > 0 else { throw VeilError.invalidArgument("resize to \(width)x\(height)") }
        if width == self.width && height == self.height { return self }
        let h = Double(width) / Double(self.width), v = Double(height) / Double(self.height)
        return VeilImage(try handle.call("resize", "scale=\(h),vscale=\(v)"))
    }

    /// Evaluates the recipe into memory once, so that later reads are cheap.
    public func materialized() throws -> VeilImage {
        VeilImage(try handle.apply { veil_vips_copy_memory($0, $1) })
    }

    /// The pixels in a buffer of their own, never shared with this image (a
    /// memory image's `materialized()` is itself), so it can be drawn on.
    func materializedCopy() throws -> VeilImage {
        let wrapper = try handle.call("copy")
        return VeilImage(try wrapper.apply { veil_vips_copy_memory($0, $1) })
    }

    /// A copy whose EXIF orientation tag says `orientation` (pixels unchanged).
    func settingOrientationTag(_ orientation: ImageOrientation) throws -> VeilImage {
        let copy = try handle.call("copy")
        _ = veil_vips_set_int(copy.pointer, "orientation", Int32(orientation.rawValue))
        return VeilImage(copy)
    }

    /// 8-bit sRGB with 3 bands, alpha flattened onto black, or 4 bands if
    /// `keepAlpha`: each step (flatten, colourspace, cast, extract_band) only
    /// where the image needs it.
    public func srgb8(keepAlpha: Bool = false) throws -> VeilImage {
        var image = handle
        if veil_vips_has_alpha(image.pointer) != 0 && !keepAlpha { image = try image.call("flatten") }
        if veil_vips_is_srgb(image.pointer) == 0 || image.bands < 3 { image = try image.call("colourspace", "space=srgb") }
        if veil_vips_is_uchar(image.pointer) == 0 { image = try image.call("cast", "format=uchar") }
        let bands = veil_vips_has_alpha(image.pointer) != 0 && keepAlpha ? 4 : 3
        if image.bands != bands { image = try image.call("extract_band", "band=0,n=\(bands)") }
        return VeilImage(image)
    }

    func ensureUChar() throws -> VipsHandle {
        veil_vips_is_uchar(handle.pointer) != 0 ? handle : try handle.call("cast", "format=uchar")
    }
}
