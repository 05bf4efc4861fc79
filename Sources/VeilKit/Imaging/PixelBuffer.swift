import CVipsShim

/// Access to an image's pixels as one interleaved 8-bit buffer, for effects
/// that change many small areas in one pass over memory instead of building
/// a libvips pipeline per area.
extension VeilImage {
    /// The interleaved 8-bit pixels, row after row, with 1, 3 or 4 bands
    /// (grey with alpha comes out as RGBA).
    public func interleavedPixels() throws -> (bytes: [UInt8], bands: Int) {
        let source = bands == 2 ? try srgb8(keepAlpha: true) : self
        return (try source.pixelBytes(), source.bands)
    }

    /// A copy of this image, its metadata kept, whose interleaved 8-bit
    /// pixels (as `interleavedPixels` would give them) `change` edits in
    /// place, with their band count. The one copy the result needs: reading
    /// the bytes out and inserting them back costs four more of a whole image.
    public func changingPixels(_ change: (UnsafeMutableBufferPointer<UInt8>, _ bands: Int) throws -> Void) throws -> VeilImage {
        let source = bands == 2 ? try srgb8(keepAlpha: true) : self
        let copy = try VeilImage(source.ensureUChar()).materializedCopy()
        var length = 0
        guard let data = veil_vips_memory_pixels(copy.handle.pointer, &length) else {
            throw VeilError.imaging(VipsRuntime.takeError("pixel buffer"))
        }
        try change(UnsafeMutableBufferPointer(start: data, count: length), copy.bands)
        return copy
    }
}
