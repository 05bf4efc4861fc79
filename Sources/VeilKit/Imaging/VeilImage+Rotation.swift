import Foundation

/// A turn of an image in its plane by any angle, and the way back for points
/// found in the turned picture.
///
/// libvips' `rotate` grows the canvas to hold the whole turned image (black
/// corners) and resamples bilinearly; `PlaneRotation` maps a point of that
/// canvas to the source through their centres, which a rotation keeps
/// (the centre of a turned rectangle's bounding box is its turned centre).
struct PlaneRotation: Sendable, Hashable {
    /// Degrees, clockwise as seen on screen (image y grows downward).
    let degrees: Double
    let source: PixelSize
    let turned: PixelSize

    /// The point of the source that lands at `point` of the turned canvas.
    func sourcePoint(of point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let u = point.x - Double(turned.width) / 2, v = point.y - Double(turned.height) / 2
        // Clockwise on screen by a: (x, y) -> (x c - y s, x s + y c); back: its transpose.
        return (x: Double(source.width) / 2 + u * c + v * s, y: Double(source.height) / 2 - u * s + v * c)
    }
}

extension VeilImage {
    /// This image turned clockwise (as seen) by `degrees` on a canvas grown to
    /// hold it, corners black, resampled bilinearly (libvips' `rotate`); by a
    /// multiple of 90°, exactly (libvips' `rot`: the pixels moved, no canvas grown).
    func rotated(clockwise degrees: Double) throws -> (image: VeilImage, rotation: PlaneRotation) {
        let quarters = degrees / 90
        let image: VeilImage
        if quarters == quarters.rounded() {
            let turns = ((Int(quarters) % 4) + 4) % 4
            image = turns == 0 ? self : VeilImage(try handle.call("rot", "angle=d\(turns * 90)"))
        } else {
            // libvips' positive angles turn clockwise as seen (`RotationTests`).
            image = VeilImage(try handle.call("rotate", "angle=\(degrees)"))
        }
        return (image, PlaneRotation(degrees: degrees, source: size, turned: image.size))
    }
}
