import Foundation
@testable import VeilKit
import XCTest

/// `--merge-tracks A,B`: one person the tracker followed as two tracks.
final class VideoMergeTests: XCTestCase {
    func sighting(_ frame: Int, x: Double) -> VideoEditingState.Sighting {
        .init(frame: frame, box: .init(x: x, y: 0.2, width: 0.05, height: 0.08), detected: true, score: 0.9)
    }

    func state(_ tracks: [VideoEditingState.Track]) -> VideoEditingState {
        VideoStateRoundTripTests.state(tracks, frames: 40)
    }

    /// Lost on frame 9 and found again as track 2 on frame 12: merged, one
    /// track holds both runs; dropping it uncovers the person on every frame.
    func testTracksOfOnePersonMergeIntoTheFirst() throws {
        var s = state([.init(id: 1, status: .covered, frames: (0..<10).map { sighting($0, x: 0.1 + 0.001 * Double($0)) }),
                       .init(id: 2, status: .covered, frames: (12..<20).map { sighting($0, x: 0.12) }),
                       .init(id: 3, status: .covered, frames: (0..<20).map { sighting($0, x: 0.6) })])
        try s.apply(VideoEdits(drop: [1], merge: [[1, 2]]))
        XCTAssertEqual(s.tracks.map(\.id), [1, 3])
        XCTAssertEqual(s.tracks[0].frames.map(\.frame), Array(0..<10) + Array(12..<20))
        XCTAssertEqual(s.tracks[0].status, .dropped)
        XCTAssertEqual(s.tracks[1].status, .covered)
    }

    /// Where both are on a frame in one place (the tracker's handover), one
    /// box round both; in two places they are two people, and refused.
    func testTracksInTwoPlacesAtOnceAreNotMerged() throws {
        var s = state([.init(id: 1, status: .covered, frames: [sighting(0, x: 0.1), sighting(1, x: 0.1)]),
                       .init(id: 2, status: .covered, frames: [sighting(1, x: 0.12), sighting(2, x: 0.12)]),
                       .init(id: 3, status: .covered, frames: [sighting(1, x: 0.6)])])
        var merged = s
        try merged.apply(VideoEdits(merge: [[1, 2]]))
        let handover = try XCTUnwrap(merged.tracks[0].frames.first { $0.frame == 1 })
        XCTAssertEqual(handover.box.x, 0.1, accuracy: 1e-12)
        XCTAssertEqual(handover.box.width, 0.07, accuracy: 1e-12)
        XCTAssertThrowsError(try s.apply(VideoEdits(merge: [[1, 3]]))) { error in
            XCTAssertTrue("\(error)".contains("two people"), "\(error)")
        }
        XCTAssertThrowsError(try s.apply(VideoEdits(merge: [[1, 99]])))
        XCTAssertThrowsError(try s.apply(VideoEdits(merge: [[1, 1]])))
    }
}
