@testable import VeilKit
import XCTest

final class FaceTrackerTests: XCTestCase {
    /// A face moving right 10 px a frame, missed by the detector on frames 5
    /// and 6: it stays covered there, where it has moved to, with the same id.
    func testMissedDetectionsAreCoveredByPrediction() {
        var tracker = FaceTracker(grace: 6)
        func face(_ f: Int) -> ImageRect { ImageRect(x: 100 + 10 * Double(f), y: 50, width: 40, height: 50) }
        var ids = Set<Int>()
        for f in 0..<10 {
            if f != 5 && f != 6 { tracker.update(frame: f, detections: [(face(f), 0.9)]) }
            let boxes = tracker.boxes(at: f)
            XCTAssertEqual(boxes.count, 1, "frame \(f)")
            ids.insert(boxes[0].id)
            // The prediction covers the true face (IoU well above chance) on missed frames.
            XCTAssertGreaterThan(boxes[0].box.iou(face(f)), 0.6, "frame \(f): \(boxes[0].box) vs \(face(f))")
            XCTAssertEqual(boxes[0].detected, f != 5 && f != 6)
        }
        XCTAssertEqual(ids.count, 1)
    }

    /// A face seen once moves half its width a frame (crowd-1080p's walker
    /// crossing close to the camera): with no velocity known yet, the next
    /// frame's prediction still holds its centre well inside; after the
    /// second sighting the velocity is the measured one, not half of it.
    func testANewFastFaceStaysInsideItsPrediction() {
        var tracker = FaceTracker(grace: 6)
        func face(_ f: Int) -> ImageRect { ImageRect(x: 1450 + 35 * Double(f), y: 500, width: 78, height: 136) }
        tracker.update(frame: 0, detections: [(face(0), 0.8)])
        let guess = tracker.boxes(at: 1)[0].box
        // Video's cover: a disc of radius min(w, h) / 1.5 times the profile's scale, full inside 0.8 of it.
        let full = 0.8 * min(guess.width, guess.height) / 1.5 * VideoAnonymizer().cover.profile.scale
        XCTAssertLessThan(abs(guess.midX - face(1).midX) + 0.3 * face(1).width, full, "\(guess) vs \(face(1))")
        tracker.update(frame: 2, detections: [(face(2), 0.8)])
        let next = tracker.boxes(at: 3)[0].box
        XCTAssertEqual(next.midX, face(3).midX, accuracy: 1, "velocity measured in full on the second sighting")
    }

    /// A panning camera: twelve 20 px faces all moving 14 px a frame, found
    /// on every third frame only. Seen once, no face has a velocity, and 42 px
    /// later none overlaps its old box: the motion they share carries them,
    /// so they keep their ids and the frames between are predicted in place.
    func testAPanIsFollowedThroughTheMotionFacesShare() {
        var tracker = FaceTracker(grace: 25)
        func faces(_ f: Int) -> [ImageRect] {
            (0..<12).map { (i: Int) -> ImageRect in
                let x: Double = 40 + 70 * Double(i % 6) + 14 * Double(f)
                let y: Double = 100 + 90 * Double(i / 6)
                return ImageRect(x: x, y: y, width: 20, height: 20)
            }
        }
        tracker.update(frame: 0, detections: faces(0).map { ($0, 0.9) })
        let first = Set(tracker.boxes(at: 0).map(\.id))
        tracker.update(frame: 3, detections: faces(3).map { ($0, 0.9) })
        XCTAssertEqual(Set(tracker.boxes(at: 3).map(\.id)), first, "every face matched across the 42 px jump")
        let predicted = tracker.boxes(at: 4)
        XCTAssertEqual(predicted.count, 12)
        let boxes = predicted.map(\.box).sorted { (a: ImageRect, b: ImageRect) in (a.y, a.x) < (b.y, b.x) }
        for (box, truth) in zip(boxes, faces(4)) {
            XCTAssertEqual(box.midX, truth.midX, accuracy: 2, "\(box) vs \(truth)")
        }
        // Still: without a common motion, nothing moves.
        XCTAssertNil(FaceTracker.commonMotion(of: [], to: faces(0), at: 1))
    }

    func testTracksEndAfterTheGracePeriodAndNewFacesGetNewIDs() {
        var tracker = FaceTracker(grace: 3)
        tracker.update(frame: 0, detections: [(ImageRect(x: 0, y: 0, width: 20, height: 20), 0.9)])
        XCTAssertEqual(tracker.boxes(at: 3).count, 1)
        XCTAssertEqual(tracker.boxes(at: 4).count, 0)
        tracker.update(frame: 5, detections: [(ImageRect(x: 300, y: 300, width: 20, height: 20), 0.9)])
        XCTAssertEqual(tracker.boxes(at: 5).map(\.id), [2])
    }

    /// A rectangle found on the upright frame maps back onto the stored pixels.
    func testRotatedFramesMapBoxesBack() throws {
        // Stored 60x40 frame with a white block at x 5...14, y 20...29.
        var pixels = [UInt8](repeating: 0, count: 60 * 40 * 3)
        for y in 20..<30 { for x in 5..<15 { for c in 0..<3 { pixels[(y * 60 + x) * 3 + c] = 255 } } }
        let stored = try VeilImage(pixels: pixels, width: 60, height: 40, bands: 3)
        for degrees in [0, 90, 180, 270] {
            let orientation = ImageOrientation(clockwiseDegrees: degrees)
            let upright = try stored.applying(orientation)
            let bytes = try upright.pixelBytes()
            var minX = Int.max, minY = Int.max, maxX = 0, maxY = 0
            for y in 0..<upright.height { for x in 0..<upright.width where bytes[(y * upright.width + x) * 3] > 128 {
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            } }
            let found = ImageRect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
            XCTAssertEqual(orientation.storedRect(for: found, uprightSize: upright.size), ImageRect(x: 5, y: 20, width: 10, height: 10), "\(degrees)°")
        }
    }
}
