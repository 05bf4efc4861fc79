import Foundation

/// What to do with lifted subjects, as the Photos app's subject tools:
/// cut them out, put them on another background, or treat the background.
public enum SubjectEffect: Sendable {
    /// The subjects alone, the rest transparent (RGBA).
    case remove
    /// The subjects over `background`, scaled to cover the image.
    case replace(background: VeilImage)
    /// The subjects over a solid colour.
    case color(RGB)
    /// The background darkened by `ev` stops (negative), the subjects untouched.
    case highlight(ev: Double)
    /// The background blurred by a gaussian of `sigma` pixels (nil: 1% of the
    /// image's diagonal), the subjects sharp, as a phone's portrait mode looks;
    /// with `halo` a white halo round them (their mask grown by `halo` pixels
    /// and softened, filled white under the subjects; nil: 1.5% of the
    /// diagonal; 0, the default: none).
    case bokeh(sigma: Double?, halo: Double? = 0)

    /// `image` with the effect applied round `mask` (one 8-bit band, 255 =
    /// subject, same size). Every effect but `.remove` gives opaque RGB.
    public func render(_ image: VeilImage, mask: VeilImage) throws -> VeilImage {
        guard mask.size == image.size else {
            throw VeilError.invalidArgument("mask \(mask.size) does not match image \(image.size)")
        }
        let original = try image.srgb8()
        let background: VeilImage
        switch self {
        case .remove:
            let visible = try mask.above(0).linear(1 / 255.0, 0)
            return try (original * visible).asUChar().joined(bands: mask)
        case let .replace(picture):
            background = try picture.srgb8().filling(original.size)
        case let .color(rgb):
            background = try VeilImage.constant(RGB(rgb.r, rgb.g, rgb.b), size: original.size)
        case let .highlight(ev):
            background = try original.exposureAdjusted(ev: ev)
        case let .bokeh(sigma, halo):
            let diagonal = Double(original.width * original.width + original.height * original.height).squareRoot()
            let s = sigma ?? max(1, diagonal / 100)
            // Blurring the whole photo would smear the subject's colours into
            // a halo round it; the background is blurred without the subject
            // (a grown, softened mask) and renormalised by how much
            // background each pixel's blur saw.
            let grown = try mask.dilatedMask(radius: max(1, Int(s / 3)), softness: max(1, s / 4))
            let weight = try grown.linear(-1 / 255.0, 1)
            let seen = try weight.gaussianBlurred(sigma: s).linear(1, 1e-3)
            let blurred = try ((original * weight).gaussianBlurred(sigma: s) / seen).asUChar()
            let glow = halo ?? max(2, diagonal * 0.015)
            guard glow > 0 else { background = blurred; break }
            let haloMask = try mask.dilatedMask(radius: max(1, Int(glow.rounded())), softness: max(1, glow / 3))
            background = try blurred.blended(with: VeilImage.constant(RGB(255, 255, 255), size: original.size), mask: haloMask)
        }
        return try background.blended(with: original, mask: mask)
    }
}

extension InstanceMaskObservation {
    /// The image with `effect` applied round `instances`, optionally cropped
    /// to their bounding box. Every effect but `.remove` gives opaque RGB.
    public func applying(_ effect: SubjectEffect, to instances: IndexSet,
                         croppedToInstancesExtent cropped: Bool = false) throws -> VeilImage {
        if case .remove = effect {
            return try generateMaskedImage(for: instances, croppedToInstancesExtent: cropped)
        }
        let mask = try generateScaledMask(for: instances).greyscaleImage()
        let out = try effect.render(image, mask: mask)
        return cropped ? try out.cropped(to: extent(of: instances, cropped: true)) : out
    }
}
