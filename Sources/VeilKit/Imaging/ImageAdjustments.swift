import CVipsShim
import Foundation

/// Tone and geometry helpers that effects combine with the Core Image-like
/// filters: exposure, growing a mask, and filling a frame with an image.
extension VeilImage {
    /// Brighter (`ev` > 0) or darker (`ev` < 0) by `ev` stops, 8-bit, alpha
    /// untouched (`CIExposureAdjust` on sRGB values).
    public func exposureAdjusted(ev: Double) throws -> VeilImage {
        guard ev != 0 else { return self }
        let colour = hasAlpha ? try band(0, count: bands - 1) : self
        let adjusted = try colour.linear(Double(pow(2.0, ev)), 0).asUChar()
        return hasAlpha ? try adjusted.joined(bands: band(bands - 1)) : adjusted
    }

    /// A one-band 8-bit mask grown by `radius` pixels (square dilation of
    /// whatever is above 0) and then softened by a gaussian of `softness`
    /// pixels: a margin that covers halos round a subject.
    public func dilatedMask(radius: Int, softness: Double) throws -> VeilImage {
        var grown = radius > 0 ? try boxBlurred(radius: radius).above(0.5) : self
        if softness > 0 { grown = try grown.gaussianBlurred(sigma: softness) }
        return try grown.asUChar()
    }

    /// This image scaled to cover `size` (aspect ratio kept) and centre-cropped to it.
    public func filling(_ size: PixelSize) throws -> VeilImage {
        guard size.width > 0, size.height > 0 else { throw VeilError.invalidArgument("fill \(size.width)x\(size.height)") }
        let scale = max(Double(size.width) / Double(width), Double(size.height) / Double(height))
        let w = max(size.width, Int((Double(width) * scale).rounded())), h = max(size.height, Int((Double(height) * scale).rounded()))
        let scaled = try resized(width: w, height: h)
        return try scaled.cropped(to: PixelRect(x: (w - size.width) / 2, y: (h - size.height) / 2, width: size.width, height: size.height))
    }
}
