import Foundation
@testable import VeilKit
import XCTest

/// Which tracks are one person: the grouping of tracks by their faces'
/// embeddings, and which sightings a run embeds.
final class PersonProposalTests: XCTestCase {
    /// A unit embedding at `angle` radians in the plane of the first two axes:
    /// two of them have the cosine of their angles' difference.
    private func embedding(_ angle: Double) -> FaceEmbedding {
        var v = [Float](repeating: 0, count: 128)
        v[0] = Float(cos(angle)); v[1] = Float(sin(angle))
        return FaceEmbedding(values: v)
    }

    private func member(_ id: Int, _ frames: ClosedRange<Int>, _ angle: Double?) -> PersonGrouping.Member {
        .init(id: id, detected: Array(frames), embedding: angle.map(embedding))
    }

    /// One face in two shots (cosine 0.95), another beside it in the second
    /// (0.1): two people, numbered in the order they are first seen.
    func testOnePersonAcrossACutIsOneAndTheOtherAnother() {
        let person = PersonGrouping.group([member(1, 0...11, 0), member(2, 12...23, acos(0.95)), member(3, 12...23, acos(0.1))], threshold: 0.4)
        XCTAssertEqual(person, [1: 1, 2: 1, 3: 2])
        // Numbered by first appearance, whatever the ids.
        let later = PersonGrouping.group([member(7, 30...40, 0), member(3, 0...10, 2), member(5, 12...20, 0.1)], threshold: 0.4)
        XCTAssertEqual(later, [3: 1, 5: 2, 7: 2])
    }

    /// Two tracks the detector saw on one frame are two people, however alike.
    func testTracksSeenOnOneFrameAreNeverJoined() {
        let person = PersonGrouping.group([member(1, 0...10, 0), member(2, 10...20, 0.01)], threshold: 0.4)
        XCTAssertEqual(Set(person.values).count, 2)
        // Nor through a third: 1 and 3 alike, 2 and 3 alike, 1 and 2 together on frames 5...10.
        let chain = PersonGrouping.group([member(1, 0...10, 0), member(2, 5...15, 0.05), member(3, 30...40, 0.02)], threshold: 0.4)
        XCTAssertNotEqual(chain[1], chain[2])
        XCTAssertTrue(chain[3] == chain[1] || chain[3] == chain[2])
        XCTAssertTrue(PersonGrouping.seenTogether([1, 4, 9], [2, 9]))
        XCTAssertFalse(PersonGrouping.seenTogether([1, 4, 9], [2, 5, 10]))
        XCTAssertFalse(PersonGrouping.seenTogether([], [1]))
    }

    /// Average linkage: a group joins another while their pairs' mean is above the
    /// threshold, not when one pair is (no chain of neighbours becomes one person).
    func testAGroupJoinsOnItsMeanNotItsNearestPair() {
        // 1~2: cos 0.9; 2~3: cos(0.451+0.59)=..., chosen so 2~3 is 0.5 but 1~3 is about 0.08.
        let a = 0.0, b = acos(0.9), c = b + acos(0.5)
        let person = PersonGrouping.group([member(1, 0...9, a), member(2, 20...29, b), member(3, 40...49, c)], threshold: 0.4)
        XCTAssertEqual(person[1], person[2])
        XCTAssertNotEqual(person[3], person[1], "the mean of 0.5 and \(cos(c)) is under 0.4")
        XCTAssertEqual(PersonGrouping.group([member(1, 0...9, a), member(2, 20...29, b), member(3, 40...49, c)], threshold: 0.2).values.max(), 1)
    }

    /// A track with no face embedded (too small, never clear) is a person of its own.
    func testATrackWithoutAnEmbeddingIsAPersonOfItsOwn() {
        let person = PersonGrouping.group([member(1, 0...9, 0), member(2, 10...19, nil), member(3, 20...29, 0)], threshold: 0.4)
        XCTAssertEqual(person, [1: 1, 2: 2, 3: 1])
        XCTAssertEqual(PersonGrouping.group([], threshold: 0.4), [:])
    }

    func testMeanOfEmbeddingsIsUnitLength() throws {
        let mean = try XCTUnwrap(FaceEmbedding.mean([embedding(0), embedding(.pi / 2)]))
        XCTAssertEqual(mean.similarity(to: mean), 1, accuracy: 1e-5)
        XCTAssertEqual(mean.similarity(to: embedding(.pi / 4)), 1, accuracy: 1e-5)
        XCTAssertNil(FaceEmbedding.mean([]))
    }

    /// A track's first clear sighting is embedded at once, the next ones 8, 16, 32
    /// frames after the one before, five at most; faces too small or unclear never;
    /// at most four a frame, tracks with the fewest first.
    func testTheScheduleSpreadsAFewSightingsOverATrack() {
        var schedule = EmbeddingSchedule(PersonProposal())
        let face = ImageRect(x: 0, y: 0, width: 60, height: 70)
        var taken: [Int] = []
        for frame in 0..<200 where !schedule.choose([(0, 1, 0.9, face)], at: frame).isEmpty { taken.append(frame) }
        XCTAssertEqual(taken, [0, 8, 24, 56, 120])
        var small = EmbeddingSchedule(PersonProposal())
        XCTAssertEqual(small.choose([(0, 1, 0.9, ImageRect(x: 0, y: 0, width: 39, height: 60)), (1, 2, 0.5, face), (2, 3, 0.95, face)], at: 0), [2])
        var crowd = EmbeddingSchedule(PersonProposal())
        XCTAssertEqual(crowd.choose((0..<3).map { ($0, $0 + 1, 0.9, face) }, at: 0).count, 3)
        let next = crowd.choose((0..<6).map { ($0, $0 + 1, 0.9, face) }, at: 1)
        XCTAssertEqual(Set(next), [3, 4, 5], "the tracks not embedded yet, not those embedded a frame ago")
        XCTAssertEqual(crowd.choose((0..<12).map { ($0, $0 + 10, 0.9, face) }, at: 2).count, 4, "four a frame")
    }
}
