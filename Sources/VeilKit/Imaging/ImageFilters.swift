import CVipsShim

/// The Core Image-like building blocks: each returns a new lazy image, so
/// chains cost nothing until the result is encoded or read.
extension VeilImage {
    /// Mosaic with square cells of `cell` pixels, the grid anchored at the
    /// top-left corner; each cell is the mean of the pixels under it
    /// (Core Image's `CIPixellate`).
    public func pixellated(cell: Int) throws -> VeilImage {
        VeilImage(try handle.apply { veil_vips_pixelate($0, $1, Int32(max(1, cell))) })
    }

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

    /// Each overlay (with its alpha) placed over this image at its position (`CISourceOverCompositing`).
    public func compositing(_ overlays: [(image: VeilImage, x: Int, y: Int)]) throws -> VeilImage {
        let withAlpha = try overlays.map { try $0.image.withAlpha() }
        let composite = try VipsRuntime.composite(base: self, overlays: withAlpha, positions: overlays.map { ($0.x, $0.y) })
        return try composite.matchingBands(of: self)
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

    /// The per-pixel maximum of this image and `other` (same size and bands).
    public func maximum(with other: VeilImage) throws -> VeilImage {
        VeilImage(try VipsHandle.make { veil_vips_max2(handle.pointer, other.handle.pointer, $0) })
    }

    /// This image with an alpha band (opaque if it had none).
    func withAlpha() throws -> VeilImage {
        if hasAlpha || bands == 2 || bands == 4 { return self }
        let alpha = try VeilImage.constant(RGB(255, 255, 255), size: size, bands: 1)
        return VeilImage(try VipsHandle.make { veil_vips_bandjoin2(handle.pointer, alpha.handle.pointer, $0) })
    }

    /// 8-bit, with as many bands as `other` (drops an alpha the compositing added).
    func matchingBands(of other: VeilImage) throws -> VeilImage {
        var out = VeilImage(try handle.call("cast", "format=uchar"))
        if out.bands > other.bands {
            out = VeilImage(try out.handle.call("extract_band", "band=0,n=\(other.bands)"))
        }
        return out
    }
}

extension VipsRuntime {
    /// libvips composites images with equal band counts, alpha last.
    static func composite(base: VeilImage, overlays: [VeilImage], positions: [(Int, Int)]) throws -> VeilImage {
        let base = try base.withAlpha()
        var pointers: [OpaquePointer?] = overlays.map { $0.handle.pointer }
        let xs = positions.map { Int32($0.0) }, ys = positions.map { Int32($0.1) }
        let handle = try VipsHandle.make { out in
            pointers.withUnsafeMutableBufferPointer { p in
                veil_vips_composite(base.handle.pointer, p.baseAddress, Int32(overlays.count), xs, ys, 0, out)
            }
        }
        withExtendedLifetime(overlays) {}
        return VeilImage(handle)
    }
}
