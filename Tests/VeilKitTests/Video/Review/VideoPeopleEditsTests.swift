import Foundation
@testable import VeilKit
import XCTest

/// The people of a video's state: uncovered or covered whole, a track moved to
/// another person or a person of its own, people joined; the state keeps the
/// person's number and nothing of the face.
final class VideoPeopleEditsTests: XCTestCase {
    private func sighting(_ frame: Int, x: Double) -> VideoEditingState.Sighting {
        .init(frame: frame, box: .init(x: x, y: 0.2, width: 0.05, height: 0.08), detected: true, score: 0.9)
    }

    /// Person 1 in two shots (tracks 1 and 3), person 2 beside it in the second (track 2).
    private func state() -> VideoEditingState {
        VideoStateRoundTripTests.state([.init(id: 1, status: .covered, frames: (0..<10).map { sighting($0, x: 0.1) }, person: 1),
                                        .init(id: 2, status: .covered, frames: (10..<20).map { sighting($0, x: 0.6) }, person: 2),
                                        .init(id: 3, status: .covered, frames: (10..<20).map { sighting($0, x: 0.2) }, person: 1)], frames: 40)
    }

    func testKeepingAPersonUncoversEveryTrackOfItAndOnlyThose() throws {
        var s = state()
        try s.apply(VideoEdits(uncoverPeople: [1]))
        XCTAssertEqual(s.tracks.map(\.status), [.dropped, .covered, .dropped])
        XCTAssertEqual(s.people.map(\.person), [1, 2])
        try s.apply(VideoEdits(coverPeople: [1]))
        XCTAssertEqual(s.tracks.map(\.status), [.covered, .covered, .covered])
        // A track's own edit comes after its person's.
        try s.apply(VideoEdits(keep: [3], uncoverPeople: [1]))
        XCTAssertEqual(s.tracks.map(\.status), [.dropped, .covered, .covered])
    }

    func testATrackMovesToAPersonOrAPersonOfItsOwnAndPeopleJoin() throws {
        var s = state()
        try s.apply(VideoEdits(personOf: [3: 7]))
        XCTAssertEqual(s.tracks.map(\.person), [1, 2, 7], "split: a number no track had is a person of its own")
        try s.apply(VideoEdits(mergePeople: [[1, 7]]))
        XCTAssertEqual(s.tracks.map(\.person), [1, 2, 1])
        try s.apply(VideoEdits(personOf: [2: 1]))
        XCTAssertEqual(s.people.map(\.person), [1], "the reviewer may say two faces seen together are one person (a screen)")
    }

    func testEditsOfPeopleThatAreNotThereAreRefused() throws {
        var s = state()
        XCTAssertThrowsError(try s.apply(VideoEdits(uncoverPeople: [9]))) { XCTAssertTrue("\($0)".contains("no person 9"), "\($0)") }
        XCTAssertThrowsError(try s.apply(VideoEdits(personOf: [42: 1]))) { XCTAssertTrue("\($0)".contains("no track 42"), "\($0)") }
        XCTAssertThrowsError(try s.apply(VideoEdits(mergePeople: [[1, 1]])))
        var old = state()
        for t in old.tracks.indices { old.tracks[t].person = nil }
        XCTAssertThrowsError(try old.apply(VideoEdits(uncoverPeople: [1]))) { XCTAssertTrue("\($0)".contains("holds no people"), "\($0)") }
        XCTAssertNoThrow(try old.apply(VideoEdits(drop: [1])), "tracks are edited as ever")
    }

    /// Merged tracks keep the first's person (or the first person among them).
    func testMergedTracksKeepAPerson() throws {
        var s = state()
        s.tracks[0].person = nil
        try s.apply(VideoEdits(merge: [[1, 3]]))
        XCTAssertEqual(s.tracks.first { $0.id == 1 }?.person, 1)
    }

    /// On disk: a number per track, and nothing else of the person; a person out of range is refused.
    func testTheStateKeepsANumberPerTrackAndNoFace() throws {
        let dir = try TestData.scratch(self)
        let url = dir.appendingPathComponent("out.mp4.veil.json")
        try state().save(to: url)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tracks = try XCTUnwrap(object["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.map { Set($0.keys) }, Array(repeating: ["id", "status", "frames", "person"], count: 3))
        XCTAssertEqual(tracks.compactMap { $0["person"] as? Int }, [1, 2, 1])
        XCTAssertEqual(object["version"] as? Int, 1, "people change no cover: a Veil that knows none re-renders the same")
        XCTAssertEqual(try VideoEditingState.load(from: url), state())
        var bad = state()
        bad.tracks[0].person = 0
        XCTAssertThrowsError(try bad.validate(folder: nil)) { XCTAssertTrue("\($0)".contains("person 0"), "\($0)") }
    }
}
