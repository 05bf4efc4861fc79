@testable import VeilKit
import VeilTestSupport
import XCTest

/// When a sighting becomes a track (issue 52, docs/design/video-tracking.md#hands-are-not-faces):
/// the score confirms, and below a sure score and a sure number of detections
/// the other model must agree; a sighting it does not confirm is still covered.
final class FaceConfirmationTests: XCTestCase {
    private let box = ImageRect(x: 100, y: 100, width: 60, height: 70)

    /// A gesturing hand as RetinaFace sees it: three detections at 0.5–0.6.
    private func seen(_ scores: [Float], limits: BoxTracker.Limits = BoxTracker.Limits()) -> BoxTracker {
        var tracker = BoxTracker(grace: 25, limits: limits)
        for (f, score) in scores.enumerated() { tracker.update(frame: f, detections: [(box, score)]) }
        return tracker
    }

    func testTheScoreAloneConfirmsOnlyASureSighting() {
        let limits = BoxTracker.Limits()
        var hand = seen([0.52, 0.57, 0.55])
        let id = hand.tracks[0].id
        XCTAssertFalse(hand.tracks[0].isFace(limits), "two detections at 0.5 were a face before: now the other model decides")
        XCTAssertTrue(hand.tracks[0].isCarried(limits), "it is covered as a face is, carried the grace period")
        XCTAssertEqual(hand.boxes(at: 5).first?.unsure, true, "and covered while it is unsure")
        XCTAssertTrue(hand.tracks[0].wantsOpinion(at: 0.57, limits))

        hand.heard(0.03, about: id, at: 0.57)
        XCTAssertFalse(hand.tracks[0].isFace(limits), "the other model finds nothing there")
        XCTAssertFalse(hand.tracks[0].wantsOpinion(at: 0.56, limits), "asked again only at a better score")
        XCTAssertTrue(hand.tracks[0].wantsOpinion(at: 0.6, limits))
        hand.heard(0.2, about: id, at: 0.6)
        XCTAssertTrue(hand.tracks[0].isFace(limits), "the other model finds a face: a track")

        XCTAssertTrue(seen([0.52, 0.85]).tracks[0].isFace(limits), "a sure score needs no other word")
        XCTAssertTrue(seen(Array(repeating: 0.55, count: 10)).tracks[0].isFace(limits), "nor a face seen on 10 detections")
        XCTAssertFalse(seen(Array(repeating: 0.55, count: 9)).tracks[0].isFace(limits))
        XCTAssertFalse(seen([0.45, 0.45, 0.45]).tracks[0].isFace(limits), "below the face score the other model is not asked")
        XCTAssertFalse(seen([0.45, 0.45]).tracks[0].wantsOpinion(at: 0.45, limits))

        var scoreAlone = BoxTracker.Limits()
        scoreAlone.opinionScore = nil
        XCTAssertTrue(seen([0.52, 0.57], limits: scoreAlone).tracks[0].isFace(scoreAlone), "without another model the score confirms, as before")
        XCTAssertFalse(seen([0.52, 0.57], limits: scoreAlone).tracks[0].wantsOpinion(at: 0.57, scoreAlone))
    }

    /// A weak sighting (never 0.3) is covered only where the other model, asked,
    /// finds a face at photos' 0.12 (docs/design/video-tracking.md#weak-sightings-covered-where-a-photo-would-be):
    /// unasked it is covered while seen; one that scored 0.3 is covered whatever the other model says.
    func testAWeakSightingIsCoveredOnlyWhereTheOtherModelSeesAFace() {
        let limits = BoxTracker.Limits()
        var weak = seen([0.15])
        let id = weak.tracks[0].id
        XCTAssertEqual(weak.boxes(at: 0).count, 1, "unasked: covered while seen")
        XCTAssertTrue(weak.tracks[0].wantsCoverOpinion(at: 0.15, limits))
        weak.heard(0.05, about: id, at: 0.15)
        XCTAssertTrue(weak.boxes(at: 0).isEmpty, "the other model finds nothing there: a photo would not cover it")
        XCTAssertFalse(weak.tracks[0].wantsCoverOpinion(at: 0.14, limits), "asked again only at a better score")
        weak.heard(0.2, about: id, at: 0.2)
        XCTAssertEqual(weak.boxes(at: 0).count, 1, "asked at a better score, it finds a face: covered")

        var hand = seen([0.52, 0.57])
        hand.heard(0, about: hand.tracks[0].id, at: 0.57)
        XCTAssertEqual(hand.boxes(at: 1).count, 1, "a sighting that scored 0.3 is covered whatever the other model says")
        XCTAssertFalse(hand.tracks[0].wantsCoverOpinion(at: 0.6, limits))

        var off = BoxTracker.Limits()
        off.coverOpinionScore = nil
        var live = seen([0.15], limits: off)
        live.heard(0, about: live.tracks[0].id, at: 0.15)
        XCTAssertEqual(live.boxes(at: 0).count, 1, "without the rule (a live source) every sighting is covered")
        XCTAssertFalse(live.tracks[0].wantsCoverOpinion(at: 0.2, off))
    }

    /// A sighting between 0.3 and 0.8 seen twice is covered only where a frame
    /// covered as a photo has a face (docs/design/video-tracking.md#sightings-no-photo-covers):
    /// until a photo is looked at it is covered; found once, it stays covered.
    func testASightingNoPhotoCoversIsNotCovered() {
        let limits = BoxTracker.Limits()
        var print = seen([0.52, 0.57])
        let id = print.tracks[0].id
        XCTAssertTrue(print.tracks[0].wantsPhotoVerdict(limits))
        XCTAssertEqual(print.boxes(at: 1).count, 1, "not looked for yet: covered while seen")
        print.heardPhoto(found: false, about: id)
        XCTAssertTrue(print.boxes(at: 1).isEmpty, "no photo of the frame covers it: neither does the video")
        XCTAssertFalse(print.tracks[0].isFace(limits), "nor is it a track to review")
        XCTAssertTrue(print.tracks[0].wantsPhotoVerdict(limits), "looked for again on a later frame")
        print.heardPhoto(found: true, about: id)
        XCTAssertEqual(print.boxes(at: 1).count, 1, "a photo found it: covered")
        print.heardPhoto(found: false, about: id)
        XCTAssertEqual(print.boxes(at: 1).count, 1, "and it stays covered: a face is not found on every frame")
        XCTAssertFalse(print.tracks[0].wantsPhotoVerdict(limits))

        XCTAssertFalse(seen([0.57]).tracks[0].wantsPhotoVerdict(limits), "seen once: not yet")
        XCTAssertFalse(seen([0.2, 0.25]).tracks[0].wantsPhotoVerdict(limits), "a weak sighting has the crop's word instead")
        var sure = seen([0.6, 0.85])
        XCTAssertFalse(sure.tracks[0].wantsPhotoVerdict(limits), "a sure one is covered, whatever a photo says")
        sure.heardPhoto(found: false, about: sure.tracks[0].id)
        XCTAssertEqual(sure.boxes(at: 1).count, 1)

        let live = limits.withoutOtherModel
        var seenLive = seen([0.52, 0.57], limits: live)
        XCTAssertFalse(seenLive.tracks[0].wantsPhotoVerdict(live), "a live source has no time for photos")
        seenLive.heardPhoto(found: false, about: seenLive.tracks[0].id)
        XCTAssertEqual(seenLive.boxes(at: 1).count, 1, "and covers every sighting")
    }

    func testTheOtherModelAsksAtMostThreeTimes() {
        let limits = BoxTracker.Limits()
        var hand = seen([0.51, 0.52])
        let id = hand.tracks[0].id
        for (i, score) in [Float(0.52), 0.6, 0.7].enumerated() {
            XCTAssertTrue(hand.tracks[0].wantsOpinion(at: score, limits), "ask \(i + 1)")
            hand.heard(0, about: id, at: score)
        }
        XCTAssertFalse(hand.tracks[0].wantsOpinion(at: 0.75, limits))
        XCTAssertEqual(hand.tracks[0].asked, 3)
    }

    /// CenterFace on crops of a real frame (the astronaut beside the coffee cup,
    /// where RetinaFace at video's threshold sees a weak face): the face is
    /// confirmed, the cup and a plain wall are not.
    func testCenterFaceConfirmsAFaceAndNotACup() async throws {
        try TestData.requireFaceModel()
        let side = 512
        let panels = try [Asset.astronaut, .coffee].map {
            try ImageDecoder().decode(.url(TestData.sample($0))).image.resized(width: side, height: side).srgb8().pixelBytes()
        }
        var pixels = [UInt8](repeating: 0, count: 2 * side * side * 3)
        for y in 0..<side {
            for (p, panel) in panels.enumerated() {
                pixels.replaceSubrange((y * 2 * side + p * side) * 3..<(y * 2 * side + p * side + side) * 3, with: panel[y * side * 3..<(y + 1) * side * 3])
            }
        }
        let frame = try VeilImage(pixels: pixels, width: 2 * side, height: side, bands: 3)
        let opinion = SecondOpinion(detector: VideoAnonymizer().detection.detector)
        let face = try await opinion.score(of: TestData.astronautFace, in: frame, rotation: .up)
        XCTAssertGreaterThan(face, 0.5)
        // The box RetinaFace draws on the cup at 0.061, a weak face for a privacy threshold.
        let cup = try await opinion.score(of: ImageRect(x: 630, y: 108, width: 195, height: 279), in: frame, rotation: .up)
        XCTAssertLessThan(cup, BoxTracker.Limits().opinionScore!)
        XCTAssertLessThan(cup, BoxTracker.Limits().coverOpinionScore!, "nor covered: a photo would not cover the cup")
        // The same frame turned a quarter (stored sideways, shown upright): the face is found where the box maps.
        let sideways = try frame.applying(ImageOrientation(clockwiseDegrees: 270))
        let turned = ImageOrientation(clockwiseDegrees: 90)
        let stored = turned.storedRect(for: TestData.astronautFace, uprightSize: frame.size)
        let again = try await opinion.score(of: stored, in: sideways, rotation: turned)
        XCTAssertGreaterThan(again, 0.5, "a rotated video's crop is turned upright before CenterFace reads it")

        // The frame covered as a photo, as `veil blur` detects it: the face is among its faces, the cup is not.
        let verdict = PhotoVerdict(detector: VideoAnonymizer().detection.detector)
        let cupBox = ImageRect(x: 630, y: 108, width: 195, height: 279)
        let answers = try await verdict.finds([TestData.astronautFace, cupBox], in: frame, rotation: .up)
        XCTAssertEqual(answers, [true, false], "the photo covers the face, not the cup")
        let turnedAnswers = try await verdict.finds([stored, turned.storedRect(for: cupBox, uprightSize: frame.size)], in: sideways, rotation: turned)
        XCTAssertEqual(turnedAnswers, [true, false], "a rotated video's frame is detected upright and its boxes mapped to it")
    }
}
