import CVipsShim

/// The Core Image-like building blocks: each returns a new lazy image, so
/// chains cost nothing until the result is encoded or read.
extension VeilImage {
    /// Gaussian blur with standard deviation `sigma` pixels (`CIGaussianBlur`).
    public func gaussianBlurred(sigma: Double) throws -> VeilImage {
        guard sigma > 0 else { return self }
        return VeilImage(try handle.call("gaussblur", "sigma=\(sigma)"))
    }

    /// `foreground` where `mask` is 255, this image where it is 0, and a linear
    /// mix between (`CIBlendWithMask`). Where the mask is 0 the result is this
    /// image byte for byte. `mask` is one 8-bit band of the same size.
    public func blended(with foreground: VeilImage, mask: VeilImage) throws -> VeilImage {
        guard foreground.size == size, mask.size == size else {
            throw VeilError.invalidArgument("blend needs images of one size: \(size), \(foreground.size), mask \(mask.size)")
        }
        return VeilImage(try VipsHandle.call("ifthenelse", ["cond": mask.handle, "in1": foreground.handle, "in2": handle], "blend=true"))
    }

    /// `sub` pasted over this image with its top-left corner at (x, y).
    public func inserting(_ sub: VeilImage, x: Int, y: Int) throws -> VeilImage {
        VeilImage(try VipsHandle.call("insert", ["main": handle, "sub": sub.handle], "x=\(x),y=\(y)"))
    }

    /// This image with `other` to its right (the taller sets the height, black fills).
    public func joined(beside other: VeilImage) throws -> VeilImage {
        VeilImage(try VipsHandle.call("join", ["in1": handle, "in2": other.handle], "direction=horizontal,expand=true"))
    }

    /// An image of `size` filled with `color` (`CIConstantColorGenerator`),
    /// with `bands` channels (3: RGB, 4: RGBA, 1: the red value as grey).
    public static func constant(_ color: RGB, size: PixelSize, bands: Int = 3) throws -> VeilImage {
        try VipsRuntime.ensureStarted()
        let all = [Double(color.r), Double(color.g), Double(color.b), Double(color.a)]
        let values = bands == 1 ? [all[0]] : Array(all.prefix(bands))
        return VeilImage(try VipsHandle.make { out in
            values.withUnsafeBufferPointer { veil_vips_new_constant(out, Int32(size.width), Int32(size.height), $0.baseAddress, Int32(values.count)) }
        })
    }
}
