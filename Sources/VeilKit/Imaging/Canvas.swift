import CVipsShim

/// An image in memory that is changed in place: patches pasted in, boxes,
/// discs, lines and labels drawn. Effects that touch many small areas (one
/// per face) use it so their cost follows the areas, not the whole image.
public final class Canvas {
    private var handle: VipsHandle

    /// A drawable copy of `image`: 8-bit RGB, or exactly as it is with `keepingBands`.
    public init(_ image: VeilImage, keepingBands: Bool = false) throws {
        let source = keepingBands ? image : try image.srgb8()
        handle = try source.materializedCopy().handle
    }

    /// The current pixels (a snapshot: later drawing does not change it).
    public var image: VeilImage {
        get throws { try VeilImage(handle).materializedCopy() }
    }

    var size: PixelSize { PixelSize(width: handle.width, height: handle.height) }

    /// A copy of the pixels under `rect` (clamped to the canvas).
    public func region(_ rect: PixelRect) throws -> VeilImage {
        try VeilImage(handle).cropped(to: rect).materializedCopy()
    }

    /// Pastes `image` (same band count) with its top-left corner at (x, y).
    public func paste(_ image: VeilImage, x: Int, y: Int) throws {
        let ready = try image.materializedCopy()
        guard veil_vips_draw_image(handle.pointer, ready.handle.pointer, Int32(x), Int32(y)) == 0 else {
            throw VeilError.imaging(VipsRuntime.takeError("drawing"))
        }
    }

    public func rectangle(_ rect: PixelRect, color: RGB, thickness: Int = 2) throws {
        for t in 0..<max(1, thickness) {
            try ink(color) { veil_vips_draw_rect(handle.pointer, $0, $1, Int32(rect.x - t), Int32(rect.y - t),
                                                 Int32(rect.width + 2 * t), Int32(rect.height + 2 * t), 0) }
        }
    }

    public func disc(x: Int, y: Int, radius: Int, color: RGB) throws {
        try ink(color) { veil_vips_draw_circle(handle.pointer, $0, $1, Int32(x), Int32(y), Int32(radius), 1) }
    }

    public func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), color: RGB) throws {
        try ink(color) { veil_vips_draw_line(handle.pointer, $0, $1, Int32(a.x), Int32(a.y), Int32(b.x), Int32(b.y)) }
    }

    /// Writes `text` with its top-left corner at (x, y), on a dark band for contrast.
    public func label(_ text: String, x: Int, y: Int, height: Int, color: RGB) throws {
        try label(Text(text, height: height), x: x, y: y, color: color)
    }

    /// A label's text, rendered once: its size is known before it is placed.
    public struct Text {
        let mask: VipsHandle
        /// The band drawn behind it included.
        public var width: Int { mask.width + 4 }
        public var height: Int { mask.height + 2 }
        public init(_ text: String, height: Int) throws { mask = try VipsHandle.make { veil_vips_text($0, text, Int32(height)) } }
    }

    public func label(_ text: Text, x: Int, y: Int, color: RGB) throws {
        try ink(RGB(0, 0, 0)) { veil_vips_draw_rect(handle.pointer, $0, $1, Int32(x), Int32(y), Int32(text.width), Int32(text.height), 1) }
        try ink(color) { veil_vips_draw_mask(handle.pointer, $0, $1, text.mask.pointer, Int32(x + 2), Int32(y + 1)) }
    }

    /// Calls a libvips draw operation with `color` as ink for this canvas'
    /// bands (a one-band canvas draws with the red value).
    private func ink(_ color: RGB, _ op: (UnsafePointer<Double>, Int32) -> Int32) throws {
        let all = [Double(color.r), Double(color.g), Double(color.b), Double(color.a)]
        let ink = handle.bands == 1 ? [all[0]] : Array(all.prefix(handle.bands))
        guard ink.withUnsafeBufferPointer({ op($0.baseAddress!, Int32(ink.count)) }) == 0 else {
            throw VeilError.imaging(VipsRuntime.takeError("drawing"))
        }
    }
}

/// An 8-bit colour.
public struct RGB: Sendable, Hashable, Codable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Parses `#RRGGBB` or `#RRGGBBAA`.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        if s.count == 6 { self.init(UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)) }
        else { self.init(UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)) }
    }
}
