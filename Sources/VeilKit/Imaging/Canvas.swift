import CVipsShim

/// An image in memory that can be drawn on: boxes, discs, lines and labels.
/// Used for previews a person looks at, never for the privacy effects.
public final class Canvas {
    private let handle: VipsHandle

    /// A drawable copy of `image` (8-bit RGB).
    public init(_ image: VeilImage) throws {
        handle = try image.srgb8().handle.apply { veil_vips_copy_memory($0, $1) }
    }

    public var image: VeilImage { VeilImage(handle) }

    public func rectangle(_ rect: PixelRect, color: RGB, thickness: Int = 2) throws {
        for t in 0..<max(1, thickness) {
            try ink(color) { veil_vips_draw_rect(handle.pointer, $0, 3, Int32(rect.x - t), Int32(rect.y - t),
                                                 Int32(rect.width + 2 * t), Int32(rect.height + 2 * t), 0) }
        }
    }

    public func disc(x: Int, y: Int, radius: Int, color: RGB) throws {
        try ink(color) { veil_vips_draw_circle(handle.pointer, $0, 3, Int32(x), Int32(y), Int32(radius), 1) }
    }

    public func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), color: RGB) throws {
        try ink(color) { veil_vips_draw_line(handle.pointer, $0, 3, Int32(a.x), Int32(a.y), Int32(b.x), Int32(b.y)) }
    }

    /// Writes `text` with its top-left corner at (x, y), on a dark band for contrast.
    public func label(_ text: String, x: Int, y: Int, height: Int, color: RGB) throws {
        let mask = try VipsHandle.make { veil_vips_text($0, text, Int32(height)) }
        try ink(RGB(0, 0, 0)) { veil_vips_draw_rect(handle.pointer, $0, 3, Int32(x), Int32(y), Int32(mask.width + 4), Int32(mask.height + 2), 1) }
        try ink(color) { veil_vips_draw_mask(handle.pointer, $0, 3, mask.pointer, Int32(x + 2), Int32(y + 1)) }
    }

    private func ink(_ color: RGB, _ op: (UnsafePointer<Double>) -> Int32) throws {
        let ink = [Double(color.r), Double(color.g), Double(color.b)]
        guard ink.withUnsafeBufferPointer({ op($0.baseAddress!) }) == 0 else {
            throw VeilError.imaging(VipsRuntime.takeError())
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
