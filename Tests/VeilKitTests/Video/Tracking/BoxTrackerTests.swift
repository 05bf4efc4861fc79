@testable import VeilKit
import XCTest

final class BoxTrackerTests: XCTestCase {
    /// A face moving right 10 px a frame, missed by the detector on frames 5
    /// and 6: it stays covered there, where it has moved to, with the same id.
    func testMissedDetectionsAreCoveredByPrediction() {
        var tracker = BoxTracker(grace: 6)
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
        var tracker = BoxTracker(grace: 6)
        func face(_ f: Int) -> ImageRect { ImageRect(x: 1450 + 35 * Double(f), y: 500, width: 78, height: 136) }
        tracker.update(frame: 0, detections: [(face(0), 0.8)])
        let guess = tracker.boxes(at: 1)[0].box
        // Video's cover: a disc of radius min(w, h) / 1.5 times the profile's scale, full inside 0.8 of it.
        let full = 0.8 * min(guess.width, guess.height) / 1.5 * VideoAnonymizer().cover.face.profile.scale
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
        var tracker = BoxTracker(grace: 25)
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
        XCTAssertNil(BoxTracker.commonMotion(of: [], to: faces(0), at: 1))
    }

    func testTracksEndAfterTheGracePeriodAndNewFacesGetNewIDs() {
        var tracker = BoxTracker(grace: 3)
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

/// The rules that keep a track's box the size of a face (issue 18).
final class BoxTrackerBoundsTests: XCTestCase {
    /// SplitMix64: the same random tracks on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Property: over random faces (sizes 8-200 px, random walks with jumps,
    /// sizes that change, detections missed at random for up to 40 frames,
    /// jittered boxes, random scores), no box the tracker returns is ever
    /// wider or taller than 1.5x the largest box detected for its track.
    func testNoBoxOutgrowsItsFace() {
        var rng = Seeded(state: 18)
        let limits = BoxTracker.Limits()
        for trial in 0..<60 {
            var tracker = BoxTracker(grace: 25, limits: limits)
            let count = Int.random(in: 1...12, using: &rng)
            var faces = (0..<count).map { _ in
                let side = Double.random(in: 8...200, using: &rng)
                return (box: ImageRect(x: .random(in: 0...1700, using: &rng), y: .random(in: 0...900, using: &rng), width: side, height: side * 1.25),
                        v: (Double.random(in: -30...30, using: &rng), Double.random(in: -30...30, using: &rng)),
                        hidden: 0)
            }
            var largest: [Int: (Double, Double)] = [:]
            for frame in 0..<150 {
                var detections: [(box: ImageRect, confidence: Float)] = []
                for i in faces.indices {
                    var f = faces[i]
                    if Int.random(in: 0..<10, using: &rng) == 0 { f.v = (.random(in: -30...30, using: &rng), .random(in: -30...30, using: &rng)) }
                    let grow = Double.random(in: 0.9...1.1, using: &rng)
                    f.box = ImageRect(x: f.box.x + f.v.0, y: f.box.y + f.v.1, width: min(400, max(6, f.box.width * grow)), height: min(500, max(8, f.box.height * grow)))
                    if f.hidden > 0 { f.hidden -= 1 } else if Int.random(in: 0..<8, using: &rng) == 0 { f.hidden = Int.random(in: 1...40, using: &rng) }
                    faces[i] = f
                    guard f.hidden == 0 else { continue }
                    let j = { Double.random(in: -0.15...0.15, using: &rng) * f.box.width }
                    detections.append((ImageRect(x: f.box.x + j(), y: f.box.y + j(), width: f.box.width * (1 + j() / f.box.width), height: f.box.height),
                                       Float.random(in: 0.05...1, using: &rng)))
                }
                tracker.update(frame: frame, detections: detections)
                for track in tracker.tracks where track.lastSeen == frame {
                    let old = largest[track.id] ?? (0, 0)
                    largest[track.id] = (max(old.0, track.box.width), max(old.1, track.box.height))
                }
                for box in tracker.boxes(at: frame) {
                    let most = largest[box.id]!, side = max(most.0, most.1)
                    XCTAssertLessThanOrEqual(max(box.box.width, box.box.height), 1.5 * side + 1e-6,
                                             "trial \(trial) frame \(frame) track \(box.id): \(box.box) from a face of at most \(most)")
                }
            }
        }
    }

    /// A single sighting at a low score (a pattern, a dress) is covered on its
    /// frame alone (`onceLife` 0); found again it is a candidate, covered for
    /// `candidateLife` more detections, then gone; at a confident score it is
    /// kept for the grace period.
    func testASingleWeakSightingIsNotCarried() {
        for (score, expected) in [(Float(0.1), 1), (Float(0.9), 26)] {
            var tracker = BoxTracker(grace: 25)
            tracker.update(frame: 0, detections: [(ImageRect(x: 400, y: 300, width: 30, height: 36), score)])
            var shown = 1
            for frame in 1..<60 {
                tracker.update(frame: frame, detections: [])
                if !tracker.boxes(at: frame).isEmpty { shown += 1 }
            }
            XCTAssertEqual(shown, expected, "score \(score)")
        }
        // Seen twice, weakly: a candidate, covered three more detections.
        var twice = BoxTracker(grace: 25)
        for frame in 0..<2 { twice.update(frame: frame, detections: [(ImageRect(x: 400, y: 300, width: 30, height: 36), 0.1)]) }
        var shown = 2
        for frame in 2..<60 {
            twice.update(frame: frame, detections: [])
            if !twice.boxes(at: frame).isEmpty { shown += 1 }
        }
        XCTAssertEqual(shown, 5, "a candidate seen twice")
        // Counted in detections, not frames: detected every third frame, a
        // candidate still gets three more looks.
        var tracker = BoxTracker(grace: 25)
        tracker.update(frame: 0, detections: [(ImageRect(x: 400, y: 300, width: 30, height: 36), 0.1)])
        tracker.update(frame: 3, detections: [(ImageRect(x: 400, y: 300, width: 30, height: 36), 0.1)])
        var last = 0
        for frame in 4..<60 {
            if frame % 3 == 0 { tracker.update(frame: frame, detections: []) }
            if !tracker.boxes(at: frame).isEmpty { last = frame }
        }
        XCTAssertEqual(last, 14)
    }

    /// A sighting never seen at the sure score ends once looks at the whole
    /// frame have missed it more than `missesPerDetection` times its
    /// detections (a scarf RetinaFace took for a face three times, then
    /// never again); a sure one, or one the looks did not reach (a tile
    /// elsewhere), is carried the grace period.
    func testASightingTheDetectorNoLongerFindsEnds() {
        let scarf = ImageRect(x: 260, y: 212, width: 155, height: 236)
        func shown(_ scores: [Float], everywhere: Bool = true, limits: BoxTracker.Limits = BoxTracker.Limits()) -> Int {
            var tracker = BoxTracker(grace: 25, limits: limits)
            for (f, score) in scores.enumerated() { tracker.update(frame: f, detections: [(scarf, score)]) }
            var frames = scores.count
            for frame in scores.count..<60 {
                tracker.update(frame: frame, detections: [], everywhere: everywhere)
                if !tracker.boxes(at: frame).isEmpty { frames += 1 }
            }
            return frames
        }
        XCTAssertEqual(shown([0.46, 0.55, 0.53]), 3 + 9, "found 3 times, carried 3 x 3 looks that miss it")
        XCTAssertEqual(shown([0.46, 0.55]), 2 + 6)
        XCTAssertEqual(shown(Array(repeating: 0.55, count: 10)), 10 + 25, "found 10 times: the whole grace")
        XCTAssertEqual(shown([0.46, 0.85, 0.53]), 3 + 25, "seen once at the sure score: the whole grace")
        XCTAssertEqual(shown([0.46, 0.55, 0.53], everywhere: false), 3 + 25, "missed only by looks at part of the frame")
        var off = BoxTracker.Limits()
        off.missesPerDetection = nil
        XCTAssertEqual(shown([0.46, 0.55, 0.53], limits: off), 3 + 25)
    }

    /// A confirmed face missed for the whole grace period is predicted where
    /// it moves for `ownMotionFrames` frames, then where it was last headed
    /// (a face not found keeps no momentum of its own: the camera alone
    /// moves it), at most 1.5x its size, never growing with time past that.
    func testAMissedFaceStaysItsSize() {
        var tracker = BoxTracker(grace: 25)
        func face(_ f: Int) -> ImageRect { ImageRect(x: 100 + 6 * Double(f), y: 200, width: 40 + Double(f), height: 50 + Double(f)) }
        for f in 0..<3 { tracker.update(frame: f, detections: [(face(f), 0.3)]) }
        for f in 3..<40 {
            let boxes = tracker.boxes(at: f)
            guard f <= 27 else { XCTAssertTrue(boxes.isEmpty, "frame \(f)"); continue }
            XCTAssertEqual(boxes.count, 1, "frame \(f)")
            XCTAssertLessThanOrEqual(boxes[0].box.width, 1.5 * 42 + 1e-9)
            let carried = min(f, 2 + BoxTracker.Limits().ownMotionFrames)
            XCTAssertEqual(boxes[0].box.midX, face(carried).midX, accuracy: 1, "moves with its velocity, for a while")
        }
    }

    /// A tracker that saw one face at `first` on frame 0 and at `second` on
    /// frame 1, confidently, and its boxes on frame 1.
    private func seenTwice(_ first: ImageRect, then second: ImageRect, in size: PixelSize) -> (BoxTracker, [TrackedBox]) {
        var tracker = BoxTracker(grace: 25, frame: size)
        tracker.update(frame: 0, detections: [(first, 0.9)])
        tracker.update(frame: 1, detections: [(second, 0.9)])
        return (tracker, tracker.boxes(at: 1))
    }

    /// A face leaving the frame is found as its visible part: its box keeps
    /// the face's size past the edge.
    func testAFaceCutByTheEdgeKeepsItsSize() {
        let (_, boxes) = seenTwice(ImageRect(x: 20, y: 200, width: 33, height: 40), then: ImageRect(x: 0, y: 200, width: 25, height: 40),
                                   in: PixelSize(width: 960, height: 540))
        XCTAssertEqual(boxes.count, 1)
        XCTAssertEqual(boxes[0].box.width, 33)
        XCTAssertEqual(boxes[0].box.x + boxes[0].box.width, 25, "the inner side stays where it was seen")
    }

    /// A face found as a part of itself (cuts-dev live: 75x87, then 38x89
    /// with hair across it) keeps a box no smaller than a face can shrink
    /// to between sightings, about where the part was found; a face that
    /// shrinks as faces do is followed as it is.
    func testAFaceFoundAsAPartKeepsItsSize() {
        var (tracker, boxes) = seenTwice(ImageRect(x: 1207, y: 480, width: 75, height: 87), then: ImageRect(x: 1235, y: 477, width: 38, height: 89),
                                         in: PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(boxes.count, 1)
        XCTAssertEqual(boxes[0].box.width, 60, accuracy: 1e-9, "75 / 1.25")
        XCTAssertEqual(boxes[0].box.height, 89)
        XCTAssertEqual(boxes[0].box.midX, 1254, accuracy: 1e-9, "about the part found")
        tracker.update(frame: 2, detections: [(ImageRect(x: 1226, y: 478, width: 58, height: 86), 0.9)])
        boxes = tracker.boxes(at: 2)
        XCTAssertEqual(boxes[0].box, ImageRect(x: 1226, y: 478, width: 58, height: 86), "a shrink a face can make is taken as found")
    }

    /// Two tracks on one face: the one left unmatched on top of the matched
    /// one goes.
    func testADuplicateOfAMatchedFaceGoes() {
        var tracker = BoxTracker(grace: 25)
        let face = ImageRect(x: 300, y: 300, width: 40, height: 50)
        tracker.update(frame: 0, detections: [(face, 0.9)])
        tracker.update(frame: 1, detections: [(ImageRect(x: 600, y: 300, width: 40, height: 50), 0.9)])
        // A second track lands on the same face (its first sighting was elsewhere).
        tracker.update(frame: 2, detections: [(face, 0.9), (ImageRect(x: 304, y: 302, width: 40, height: 50), 0.9)])
        XCTAssertEqual(tracker.boxes(at: 2).count, 3)
        tracker.update(frame: 3, detections: [(face, 0.9)])
        XCTAssertEqual(tracker.boxes(at: 3).filter { $0.box.iou(face) > 0.5 }.count, 1)
    }

    /// A hand-held camera over a still crowd: every frame the picture jumps
    /// up to 12 px and rolls up to 2 degrees, and the detector misses every
    /// face on two motion-blurred frames. Carried with the camera, each face
    /// keeps one track, and on the missed frames its box stays on it.
    func testAShakingCameraKeepsOneTrackAFace() {
        let frame = PixelSize(width: 640, height: 360)
        var tracker = BoxTracker(grace: 25, frame: frame)
        let faces: [(x: Double, y: Double)] = (0..<12).map { (i: Int) -> (x: Double, y: Double) in
            let column = Double(i % 6), row = Double(i / 6)
            return (x: 60 + 90 * column, y: 80 + 120 * row)
        }
        let shakes: [(Double, Double, Double)] = [(0, 0, 0), (9, -6, 1.5), (-8, 7, -0.5), (11, 3, 2), (-12, -5, -1.5), (6, 10, 0.5),
                                                  (-4, -11, -2), (10, 4, 1), (-9, 8, 0), (3, -7, -1), (12, 2, 1.8), (-6, -9, -0.8)]
        var pose = CameraMotion.identity
        var ids: [Int: Set<Int>] = [:]
        for (f, shake) in shakes.enumerated() {
            // This frame's camera: the shake about the frame's centre.
            let motion = CameraMotion(scale: 1, degrees: shake.2, tx: 0, ty: 0)
            let centre = motion.apply(320, 180)
            let step = CameraMotion(a: motion.a, b: motion.b, tx: 320 - centre.x + shake.0, ty: 180 - centre.y + shake.1)
            // Previous frame -> this one: a point of the scene goes from where the last pose put it to where this one does.
            let scene = [(0.0, 0.0), (100, 0), (0, 100)]
            let change = CameraMotion.fit(scene.map { pose.apply($0.0, $0.1) }.map { ($0.x, $0.y) },
                                          scene.map { step.apply($0.0, $0.1) }.map { ($0.x, $0.y) })!
            pose = step
            if f > 0 { tracker.follow(camera: change) }
            let truth = faces.map { p -> ImageRect in
                let c = step.apply(p.x, p.y)
                return ImageRect(x: c.x - 11, y: c.y - 13, width: 22, height: 26)
            }
            if f != 4 && f != 9 { tracker.update(frame: f, detections: truth.map { ($0, 0.9) }) }
            let boxes = tracker.boxes(at: f)
            XCTAssertEqual(boxes.count, faces.count, "frame \(f)")
            for (i, face) in truth.enumerated() {
                let best = boxes.max { $0.box.iou(face) < $1.box.iou(face) }!
                XCTAssertGreaterThan(best.box.iou(face), 0.5, "frame \(f), face \(i): \(best.box) against \(face)")
                ids[i, default: []].insert(best.id)
            }
        }
        XCTAssertEqual(ids.values.map(\.count), Array(repeating: 1, count: faces.count), "one track a face")
        XCTAssertEqual(tracker.started, faces.count)
    }

    /// A hard cut: no face of the last shot is in the new one, so no track
    /// goes on, and the faces found there start tracks of their own.
    func testACutEndsEveryTrack() {
        var tracker = BoxTracker(grace: 25)
        tracker.update(frame: 0, detections: [(ImageRect(x: 100, y: 100, width: 40, height: 50), 0.9)])
        tracker.update(frame: 1, detections: [(ImageRect(x: 101, y: 100, width: 40, height: 50), 0.9)])
        let before = Set(tracker.boxes(at: 1).map(\.id))
        tracker.endShot()
        XCTAssertTrue(tracker.boxes(at: 2).isEmpty, "nothing carried over the cut")
        tracker.update(frame: 2, detections: [(ImageRect(x: 102, y: 100, width: 40, height: 50), 0.9)])
        XCTAssertTrue(Set(tracker.boxes(at: 2).map(\.id)).isDisjoint(with: before), "the new shot's face has a new id")
    }

    /// A face leaving through the top: once its box is wholly off the frame
    /// the track ends, well before the grace period, and no box it had lies
    /// wholly outside the frame.
    func testATrackLeavingTheFrameEnds() {
        let frame = PixelSize(width: 320, height: 240)
        var tracker = BoxTracker(grace: 25, frame: frame)
        for f in 0..<4 { tracker.update(frame: f, detections: [(ImageRect(x: 150, y: 40 - 12 * Double(f), width: 30, height: 36), 0.9)]) }
        var ended: Int?
        for f in 4..<29 {
            let boxes = tracker.boxes(at: f)
            for b in boxes.map(\.box) { XCTAssertGreaterThan(b.y + b.height, 0, "frame \(f): \(b) is off the frame") }
            if boxes.isEmpty { ended = ended ?? f }
        }
        XCTAssertNotNil(ended)
        XCTAssertLessThan(ended ?? 99, 12)
    }

    /// ByteTrack's order: a weak sighting that overlaps a face's prediction
    /// better than the face's own confident detection does not take its
    /// track; the confident one does, and the weak one is a candidate.
    func testAWeakSightingBesideAFaceDoesNotTakeItsTrack() {
        var tracker = BoxTracker(grace: 25)
        tracker.update(frame: 0, detections: [(ImageRect(x: 100, y: 100, width: 40, height: 50), 0.9)])
        let id = tracker.boxes(at: 0)[0].id
        let strong = ImageRect(x: 108, y: 100, width: 40, height: 50), weak = ImageRect(x: 101, y: 101, width: 40, height: 50)
        tracker.update(frame: 1, detections: [(weak, 0.12), (strong, 0.9)])
        let boxes = tracker.boxes(at: 1)
        XCTAssertEqual(boxes.first { $0.id == id }?.box, strong)
        XCTAssertEqual(boxes.first { $0.id != id }?.score, 0.12)
    }
}
