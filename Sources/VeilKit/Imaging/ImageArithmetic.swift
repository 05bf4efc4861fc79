import CVipsShim

/// Pixel-wise arithmetic and small filters over libvips, so that mask
/// algorithms (the guided filter, instance selection) read as formulas and
/// stay lazy recipes instead of Swift loops over pixels.
extension VeilImage {
    static func + (a: VeilImage, b: VeilImage) throws -> VeilImage { try a.combined(b, "add") }
    static func - (a: VeilImage, b: VeilImage) throws -> VeilImage { try a.combined(b, "subtract") }
    static func * (a: VeilImage, b: VeilImage) throws -> VeilImage { try a.combined(b, "multiply") }
    static func / (a: VeilImage, b: VeilImage) throws -> VeilImage { try a.combined(b, "divide") }

    /// `a * pixel + b`, as float.
    func linear(_ a: Double, _ b: Double) throws -> VeilImage {
        VeilImage(try handle.call("linear", "a=\(a),b=\(b)"))
    }

    /// Each pixel raised to `exponent` (float).
    func power(_ exponent: Double) throws -> VeilImage {
        VeilImage(try handle.call("math2_const", "math2=pow,c=\(exponent)"))
    }

    /// The mean over a (2 radius + 1)-pixel square around each pixel (float).
    func boxBlurred(radius: Int) throws -> VeilImage {
        VeilImage(try handle.apply { veil_vips_boxblur($0, $1, Int32(radius)) })
    }

    /// Each 4-connected region of equal pixels numbered (32-bit signed integers,
    /// raw bytes in machine order): the connected components of a mask.
    func regionLabels() throws -> [UInt8] {
        try VeilImage(handle.apply { veil_vips_labelregions($0, $1) }).rawBytes()
    }

    /// 255 where the pixel is above `value`, else 0 (8-bit).
    func above(_ value: Double) throws -> VeilImage {
        VeilImage(try handle.call("relational_const", "relational=more,c=\(value)"))
    }

    /// Resampled by a kernel (see `ResamplingKernel`), any pixel format; itself at its own size.
    func resized(width: Int, height: Int, kernel: ResamplingKernel) throws -> VeilImage {
        if width == self.width && height == self.height { return self }
        let h = Double(width) / Double(self.width), v = Double(height) / Double(self.height)
        return VeilImage(try handle.call("resize", "scale=\(h),vscale=\(v),kernel=\(kernel.rawValue)"))
    }

    /// One band of luminance.
    func luminance() throws -> VeilImage {
        bands == 1 ? self : VeilImage(try handle.call("colourspace", "space=b-w"))
    }

    func band(_ index: Int, count: Int = 1) throws -> VeilImage {
        VeilImage(try handle.call("extract_band", "band=\(index),n=\(count)"))
    }

    func joined(bands other: VeilImage) throws -> VeilImage {
        VeilImage(try VipsHandle.make { veil_vips_bandjoin2(handle.pointer, other.handle.pointer, $0) })
    }

    func asFloat() throws -> VeilImage { VeilImage(try handle.call("cast", "format=float")) }
    func asUChar() throws -> VeilImage { VeilImage(try handle.call("cast", "format=uchar")) }

    /// An 8-bit one-band image mapped through `table` (256 entries).
    func mapped(through table: [UInt8]) throws -> VeilImage {
        precondition(table.count == 256)
        return VeilImage(try table.withUnsafeBufferPointer { t in
            try handle.apply { veil_vips_maplut($0, $1, t.baseAddress) }
        })
    }

    func flippedHorizontally() throws -> VeilImage {
        VeilImage(try handle.call("flip", "direction=horizontal"))
    }

    /// The smallest and largest pixel value (computes the image).
    func extrema() throws -> (min: Double, max: Double) {
        var lo = 0.0, hi = 0.0
        guard veil_vips_min_max(handle.pointer, &lo, &hi) == 0 else { throw VeilError.imaging(VipsRuntime.takeError("min/max")) }
        return (lo, hi)
    }

    /// A one-band float image from row-major values.
    init(floats: [Float], width: Int, height: Int) throws {
        precondition(floats.count == width * height)
        try VipsRuntime.ensureStarted()
        let handle = try floats.withUnsafeBytes { raw in
            try VipsHandle.make { out in
                out.pointee = veil_vips_from_memory(raw.baseAddress, raw.count, Int32(width), Int32(height), 1, 1)
                return out.pointee == nil ? -1 : 0
            }
        }
        self.init(handle)
    }

    /// The pixels of a one-band image as row-major floats (computes the image).
    func floatValues() throws -> [Float] {
        try asFloat().withMemoryPixels { Array($0.assumingMemoryBound(to: Float.self)) }
    }

    /// The raw bytes of the image as it is (any format), row after row.
    func rawBytes() throws -> [UInt8] {
        try withMemoryPixels { Array($0) }
    }

    /// A two-image operation (`left`, `right`); a one-band image is broadcast over a many-band one.
    private func combined(_ other: VeilImage, _ operation: String) throws -> VeilImage {
        VeilImage(try VipsHandle.call(operation, ["left": handle, "right": other.handle]))
    }
}

/// How an image is resampled: libvips' kernels (by their nicks), sharpest last.
enum ResamplingKernel: String, Sendable {
    case nearest, linear, cubic, mitchell, lanczos2, lanczos3
}
