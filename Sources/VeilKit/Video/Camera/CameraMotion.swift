import Foundation

/// How the camera moved between two frames, as a similarity transform of
/// pixel coordinates (previous frame → this one): p' = s·R(θ)·p + t, held as
/// a = s·cos θ, b = s·sin θ. A hand-held phone shakes (translation of a few
/// pixels, a degree or two of roll), pans (translation) and zooms (scale);
/// a similarity holds all three in four numbers, which a handful of matched
/// blocks fixes robustly where an affine's six would fit the noise.
public struct CameraMotion: Sendable, Hashable {
    public var a: Double, b: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, tx: Double, ty: Double) { self.a = a; self.b = b; self.tx = tx; self.ty = ty }

    public init(scale: Double, degrees: Double, tx: Double, ty: Double) {
        let r = degrees * .pi / 180
        self.init(a: scale * cos(r), b: scale * sin(r), tx: tx, ty: ty)
    }

    public static let identity = CameraMotion(a: 1, b: 0, tx: 0, ty: 0)

    public var scale: Double { (a * a + b * b).squareRoot() }
    public var degrees: Double { atan2(b, a) * 180 / .pi }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x - b * y + tx, b * x + a * y + ty)
    }

    /// A box carried with the camera: its centre moved, its size scaled (a
    /// roll of a degree or two leaves a face's box the same box).
    public func apply(_ r: ImageRect) -> ImageRect {
        let (cx, cy) = apply(r.midX, r.midY)
        let s = scale
        return ImageRect(x: cx - r.width * s / 2, y: cy - r.height * s / 2, width: r.width * s, height: r.height * s)
    }

    /// The same motion in coordinates `factor` times larger (a thumbnail's
    /// motion at the frame's size).
    func scaled(by factor: Double) -> CameraMotion { CameraMotion(a: a, b: b, tx: tx * factor, ty: ty * factor) }

    /// The similarity that best maps `from` onto `to` in least squares
    /// (nil for fewer than two distinct points).
    static func fit(_ from: [(Double, Double)], _ to: [(Double, Double)]) -> CameraMotion? {
        let n = Double(from.count)
        guard from.count >= 2, from.count == to.count else { return nil }
        var (mx, my, nx, ny) = (0.0, 0.0, 0.0, 0.0)
        for (p, q) in zip(from, to) { mx += p.0; my += p.1; nx += q.0; ny += q.1 }
        (mx, my, nx, ny) = (mx / n, my / n, nx / n, ny / n)
        var (sxx, sab, sba) = (0.0, 0.0, 0.0)
        for (p, q) in zip(from, to) {
            let (px, py, qx, qy) = (p.0 - mx, p.1 - my, q.0 - nx, q.1 - ny)
            sxx += px * px + py * py
            sab += px * qx + py * qy
            sba += px * qy - py * qx
        }
        guard sxx > 1e-9 else { return nil }
        let (a, b) = (sab / sxx, sba / sxx)
        return CameraMotion(a: a, b: b, tx: nx - (a * mx - b * my), ty: ny - (b * mx + a * my))
    }
}
