@testable import VeilKit
import XCTest

/// Which of a frame's sightings the other model is asked about, and which
/// answers are awaited before the frame is drawn (`SecondLooks.asked`,
/// docs/design/video-tracking.md#second-looks-beside-the-next-frame).
final class SecondLooksTests: XCTestCase {
    private let weak = ImageRect(x: 20, y: 20, width: 30, height: 36)
    private let hand = ImageRect(x: 300, y: 40, width: 60, height: 70)
    private let face = ImageRect(x: 600, y: 60, width: 80, height: 96)

    private func sighting(_ box: ImageRect, _ score: Float) -> FaceSighting { (box, score, []) }

    /// A tracker that saw the hand at 0.52 on frame 2, then, on `frame`, a weak
    /// sighting at 0.15, the hand again at 0.57 and a sure face: the frame's
    /// detections, and their tracks.
    private func tracked(on frame: Int) -> (BoxTracker, [FaceSighting], [Int]) {
        var tracker = BoxTracker(grace: 25, limits: BoxTracker.Limits())
        _ = tracker.update(frame: frame - 1, detections: [(hand, 0.52)])
        let found = [sighting(weak, 0.15), sighting(hand, 0.57), sighting(face, 0.95)]
        let ids = tracker.update(frame: frame, detections: found.map { ($0.box, $0.confidence) })
        return (tracker, found, ids)
    }

    func testAWeakSightingsCropIsAnsweredBeforeItsFrameIsDrawn() {
        let (tracker, found, ids) = tracked(on: 3)
        let (now, later) = SecondLooks.asked(about: found, tracks: ids, by: tracker, frame: 3, crops: true, photo: true)
        XCTAssertEqual(now.crops.map(\.track), [ids[0]],
                       "the weak sighting is covered only if the other model finds a face: its answer is awaited before the frame is drawn")
        XCTAssertEqual(later.crops.map(\.track), [ids[1]], "the hand, covered either way, is answered beside the next frame")
        XCTAssertEqual(later.photo.map(\.track), [ids[1]], "the frame's photo is asked about the hand seen twice, on every third frame")
        XCTAssertTrue(now.photo.isEmpty)
        XCTAssertEqual(now.crops.first?.box, weak)
        XCTAssertEqual(now.crops.first?.confidence, 0.15)
    }

    func testThePhotoIsAskedOnEveryThirdFrameOnly() {
        let (tracker, found, ids) = tracked(on: 4)
        let later = SecondLooks.asked(about: found, tracks: ids, by: tracker, frame: 4, crops: true, photo: true).later
        XCTAssertTrue(later.photo.isEmpty, "frame 4 is not a photo's")
        XCTAssertEqual(later.crops.map(\.track), [ids[1]])
    }

    func testAtMostFourWeakCropsAFrameAndNoneWithoutTheOtherModel() {
        var tracker = BoxTracker(grace: 25, limits: BoxTracker.Limits())
        let found = (0..<6).map { sighting(ImageRect(x: Double(20 + 100 * $0), y: 20, width: 30, height: 36), 0.1 + 0.01 * Float($0)) }
        let ids = tracker.update(frame: 0, detections: found.map { ($0.box, $0.confidence) })
        let (now, later) = SecondLooks.asked(about: found, tracks: ids, by: tracker, frame: 0, crops: true, photo: true)
        XCTAssertEqual(now.crops.map(\.track), Array(ids.prefix(BoxTracker.Limits().coverAsksPerFrame)),
                       "a crowd's weak sightings are its small faces: the rest are covered while seen")
        XCTAssertTrue(later.isEmpty)

        let (seen, hand, handIds) = tracked(on: 3)
        let off = SecondLooks.asked(about: hand, tracks: handIds, by: seen, frame: 3, crops: false, photo: false)
        XCTAssertTrue(off.now.isEmpty && off.later.isEmpty, "a live source asks nothing")
    }
}
