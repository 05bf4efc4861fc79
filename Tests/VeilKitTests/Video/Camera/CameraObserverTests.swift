@testable import VeilKit
import VeilTestSupport
import XCTest

/// The camera followed from the frames alone: a real photo filmed by a
/// simulated hand-held camera (jitter, roll, zoom) whose every pose is known,
/// so each frame's motion can be checked against the truth.
final class CameraObserverTests: XCTestCase {
    /// A camera on the photo: frame pixel (u, v) shows the photo at
    /// centre + R(roll)·((u, v) − frame centre) / zoom.
    struct Pose {
        var cx: Double, cy: Double, degrees: Double, zoom: Double

        func photoPoint(_ u: Double, _ v: Double, frame: (Double, Double)) -> (Double, Double) {
            let r = degrees * .pi / 180, (du, dv) = ((u - frame.0 / 2) / zoom, (v - frame.1 / 2) / zoom)
            return (cx + cos(r) * du - sin(r) * dv, cy + sin(r) * du + cos(r) * dv)
        }

        func framePoint(_ x: Double, _ y: Double, frame: (Double, Double)) -> (Double, Double) {
            let r = degrees * .pi / 180, (dx, dy) = (x - cx, y - cy)
            return (zoom * (cos(r) * dx + sin(r) * dy) + frame.0 / 2, zoom * (-sin(r) * dx + cos(r) * dy) + frame.1 / 2)
        }
    }

    static let frameSize = (width: 480, height: 270)

    /// The photo as the camera at `pose` films it (bilinear, black off the photo).
    static func film(_ photo: [UInt8], _ pw: Int, _ ph: Int, _ pose: Pose) -> [UInt8] {
        let (w, h) = frameSize
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for v in 0..<h {
            for u in 0..<w {
                let (x, y) = pose.photoPoint(Double(u) + 0.5, Double(v) + 0.5, frame: (Double(w), Double(h)))
                let (fx, fy) = (x - 0.5, y - 0.5)
                let (x0, y0) = (Int(fx.rounded(.down)), Int(fy.rounded(.down)))
                guard x0 >= 0, y0 >= 0, x0 + 1 < pw, y0 + 1 < ph else { continue }
                let (ax, ay) = (fx - Double(x0), fy - Double(y0))
                for c in 0..<3 {
                    func p(_ x: Int, _ y: Int) -> Double { Double(photo[(y * pw + x) * 3 + c]) }
                    let top = p(x0, y0) * (1 - ax) + p(x0 + 1, y0) * ax, bottom = p(x0, y0 + 1) * (1 - ax) + p(x0 + 1, y0 + 1) * ax
                    out[(v * w + u) * 3 + c] = UInt8(max(0, min(255, (top * (1 - ay) + bottom * ay).rounded())))
                }
            }
        }
        return out
    }

    func astronaut() throws -> (pixels: [UInt8], width: Int, height: Int) {
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        return (try image.pixelBytes(), image.width, image.height)
    }

    /// A hand-held shot: jitter of up to ~12 px, a roll of up to 2 degrees and
    /// a slow zoom. Every frame's motion is found (no frame is taken for a
    /// cut), and it moves each corner of the frame to within 1.5 px of where
    /// the true poses put it: a face carried with it stays on its face.
    func testAHandHeldShotsMotionIsFoundFrameByFrame() throws {
        let photo = try astronaut()
        let poses = [Pose(cx: 256, cy: 250, degrees: 0, zoom: 1.1), Pose(cx: 265, cy: 243, degrees: 1.2, zoom: 1.1),
                     Pose(cx: 254, cy: 255, degrees: -0.8, zoom: 1.12), Pose(cx: 244, cy: 249, degrees: 0.5, zoom: 1.14),
                     Pose(cx: 250, cy: 238, degrees: 2.0, zoom: 1.16), Pose(cx: 257, cy: 247, degrees: 0.2, zoom: 1.18)]
        let (w, h) = (Double(Self.frameSize.width), Double(Self.frameSize.height))
        var observer = CameraObserver()
        for (k, pose) in poses.enumerated() {
            let change = observer.observe(Self.film(photo.pixels, photo.width, photo.height, pose), width: Self.frameSize.width, height: Self.frameSize.height)
            guard k > 0 else { XCTAssertEqual(change, .start); continue }
            guard case let .moved(motion) = change else { return XCTFail("frame \(k): \(change)") }
            for (u, v) in [(0.0, 0.0), (w, 0), (0, h), (w, h), (w / 2, h / 2)] {
                let seen = poses[k - 1].photoPoint(u, v, frame: (w, h))
                let truth = pose.framePoint(seen.0, seen.1, frame: (w, h))
                let found = motion.apply(u, v)
                XCTAssertLessThan(hypot(found.x - truth.0, found.y - truth.1), 1.5, "frame \(k), point (\(u), \(v)): \(found) against \(truth)")
            }
        }
    }

    /// A hard cut to the same photo mirrored: the grey levels' histogram does
    /// not change at all, but no motion maps one frame onto the other, and
    /// that is a cut. The next frame of the new shot is followed again.
    func testACutIsFoundEvenWhereTheHistogramStaysTheSame() throws {
        let photo = try astronaut()
        var mirrored = photo.pixels
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                for c in 0..<3 { mirrored[(y * photo.width + x) * 3 + c] = photo.pixels[(y * photo.width + photo.width - 1 - x) * 3 + c] }
            }
        }
        let pose = Pose(cx: 256, cy: 256, degrees: 0, zoom: 1.1), next = Pose(cx: 262, cy: 252, degrees: 0.5, zoom: 1.1)
        let (w, h) = Self.frameSize
        var observer = CameraObserver()
        XCTAssertEqual(observer.observe(Self.film(photo.pixels, photo.width, photo.height, pose), width: w, height: h), .start)
        XCTAssertEqual(observer.observe(Self.film(mirrored, photo.width, photo.height, pose), width: w, height: h), .cut)
        guard case .moved = observer.observe(Self.film(mirrored, photo.width, photo.height, next), width: w, height: h) else {
            return XCTFail("the new shot's next frame is not followed")
        }
    }

    /// A live view that fell behind drops frames: the next frame it covers is
    /// a pan of several frames further on (here 56 px at 480x270, past one
    /// frame's reach of 24). Told the gap, the observer reaches that far and
    /// finds the motion, so tracks go on with their faces; told nothing, the
    /// frame reads as a cut and every track would end (a face the detector
    /// then missed was shown bare in a loaded live view).
    func testAPanAcrossDroppedFramesIsFollowedNotCut() throws {
        let photo = try astronaut()
        let (w, h) = Self.frameSize
        let before = Self.film(photo.pixels, photo.width, photo.height, Pose(cx: 230, cy: 256, degrees: 0, zoom: 1.1))
        let after = Self.film(photo.pixels, photo.width, photo.height, Pose(cx: 281, cy: 256, degrees: 0, zoom: 1.1))
        var blind = CameraObserver()
        _ = blind.observe(before, width: w, height: h)
        if case .moved = blind.observe(after, width: w, height: h) { XCTFail("a 56 px step was found within one frame's reach: the test shows nothing") }
        var told = CameraObserver()
        _ = told.observe(before, width: w, height: h)
        guard case let .moved(motion) = told.observe(after, width: w, height: h, gap: 4) else { return XCTFail("the pan across 4 frames was not followed") }
        let moved = motion.apply(Double(w) / 2, Double(h) / 2)
        XCTAssertEqual(moved.x - Double(w) / 2, -51 * 1.1, accuracy: 1.5)
        XCTAssertEqual(moved.y - Double(h) / 2, 0, accuracy: 1.5)
    }

    /// A motion-blurred frame of a shaking camera is the same shot, not a cut.
    func testAMotionBlurredFrameIsNoCut() throws {
        let photo = try astronaut()
        let (w, h) = Self.frameSize
        let sharp = Self.film(photo.pixels, photo.width, photo.height, Pose(cx: 256, cy: 256, degrees: 0, zoom: 1.1))
        let moved = Self.film(photo.pixels, photo.width, photo.height, Pose(cx: 263, cy: 251, degrees: 1, zoom: 1.1))
        // A 7-pixel box blur along x, as a fast shake smears a frame.
        var blurred = moved
        for y in 0..<h {
            for x in 3..<(w - 3) {
                for c in 0..<3 {
                    var sum = 0
                    for d in -3...3 { sum += Int(moved[(y * w + x + d) * 3 + c]) }
                    blurred[(y * w + x) * 3 + c] = UInt8(sum / 7)
                }
            }
        }
        var observer = CameraObserver()
        _ = observer.observe(sharp, width: w, height: h)
        let change = observer.observe(blurred, width: w, height: h)
        XCTAssertNotEqual(change, .cut)
    }

    /// The fit itself: four points moved by a known similarity give it back.
    func testAFitGivesBackTheMotion() throws {
        let truth = CameraMotion(scale: 1.05, degrees: 3, tx: 12, ty: -7)
        let from = [(10.0, 20.0), (200, 40), (50, 180), (300, 260)]
        let to = from.map { truth.apply($0.0, $0.1) }.map { ($0.x, $0.y) }
        let fit = try XCTUnwrap(CameraMotion.fit(from, to))
        XCTAssertEqual(fit.scale, 1.05, accuracy: 1e-9)
        XCTAssertEqual(fit.degrees, 3, accuracy: 1e-9)
        XCTAssertEqual(fit.tx, 12, accuracy: 1e-9)
        XCTAssertEqual(fit.ty, -7, accuracy: 1e-9)
    }
}
