import Foundation
@testable import VeilKit
import XCTest

/// Frame times on the video's own clock (issue 51): the state's
/// `source.clock`, `--json`'s "time" and `veil video tracks`' seconds are
/// each frame's presentation time as FFmpeg reads it (the time a browser's
/// `<video>` shows that frame at: ServeVideoClockBrowserTests), on clips
/// made by the ffmpeg CLI whose frames are not at index ÷ fps.
final class VideoClockTests: XCTestCase {
    func testStateLogAndListingTellEachFrameByItsPresentationTime() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        for kind in ClockClips.Kind.allCases {
            let input = try ClockClips.make(kind, in: dir)
            let output = dir.appendingPathComponent("\(kind.rawValue)-covered.mp4"), log = dir.appendingPathComponent("\(kind.rawValue).jsonl")
            let expected = try ClockClips.frameTimes(input)
            let run = try Veil.run(["video", input.path, "-o", output.path, "--json", log.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            let statePath = URL(fileURLWithPath: output.path + ".veil.json")
            let state = try VideoEditingState.load(from: statePath)
            XCTAssertEqual(state.source.frames, expected.count, kind.rawValue)
            let clock = try XCTUnwrap(state.source.clock, kind.rawValue)
            for (i, t) in expected.enumerated() { XCTAssertEqual(state.time(ofFrame: i), t, accuracy: 1e-5, "\(kind.rawValue) frame \(i)") }
            switch kind {
            case .offset:
                // Kept as a start and a step; index ÷ fps would put frame 0 at 0, 21 frames early.
                XCTAssertEqual(clock.start, 0.85, accuracy: 1e-6)
                XCTAssertEqual(clock.step ?? 0, 0.04, accuracy: 1e-9)
                XCTAssertNil(clock.times)
            case .editList:
                // The 13 frames the edit list hides are decoded but neither frames of the state nor times.
                XCTAssertEqual(expected.count, ClockClips.frames - 13)
                XCTAssertEqual(clock.start, 0, accuracy: 1e-6)
                XCTAssertNil(clock.times)
            case .variable:
                XCTAssertEqual(clock.times?.count, ClockClips.frames)
                XCTAssertNil(clock.step)
            }

            // --json: every frame's line says its time on that clock.
            var logged = 0
            for line in try String(contentsOf: log, encoding: .utf8).split(whereSeparator: \.isNewline) {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let frame = object["frame"] as? Int, let time = object["time"] as? Double else { continue }
                XCTAssertEqual(time, expected[frame], accuracy: 1e-5, "\(kind.rawValue) --json frame \(frame)")
                logged += 1
            }
            XCTAssertEqual(logged, expected.count, kind.rawValue)

            // The listing's seconds: the face's tracks begin and end at their frames' times.
            let listing = try Veil.run(["video", "tracks", statePath.path, "--json"])
            XCTAssertEqual(listing.status, 0, listing.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
            let rows = try XCTUnwrap(object["tracks"] as? [[String: Any]])
            XCTAssertFalse(rows.isEmpty, "\(kind.rawValue): the astronaut is tracked")
            for row in rows {
                let (first, last) = (row["first"] as! Int, row["last"] as! Int)
                XCTAssertEqual(row["firstTime"] as! Double, expected[first], accuracy: 1e-5, "\(kind.rawValue) track \(row["id"]!)")
                XCTAssertEqual(row["lastTime"] as! Double, expected[last], accuracy: 1e-5, "\(kind.rawValue) track \(row["id"]!)")
            }
        }
    }

    /// A clock that cannot be the video's is refused with the state, in one
    /// line; a state written before clocks still reads, its frames at index ÷ fps.
    func testAClockThatIsNotTheVideosIsRefusedAndAnOldStateReads() throws {
        var state = VideoEditingState(source: .init(file: "in.mp4", sha256: "00", size: 1, width: 64, height: 64, framesPerSecond: 25, frames: 3,
                                                    clock: FrameClock(frameTimes: [0.85, 0.9, 1.2])),
                                      style: .pixelate(), shape: .disc, maskScale: 1.1, tracks: [])
        XCTAssertEqual(state.source.clock?.times, [0.85, 0.9, 1.2])
        XCTAssertEqual(try VideoEditingState.decode(try JSONEncoder().encode(state)), state)
        state.source.clock = FrameClock(times: [0.85, 0.9])
        XCTAssertThrowsError(try VideoEditingState.decode(try JSONEncoder().encode(state))) { error in
            XCTAssertTrue("\(error)".contains("a clock that cannot be the 3 frames'"), "\(error)")
        }
        state.source.clock = nil
        XCTAssertEqual(try VideoEditingState.decode(try JSONEncoder().encode(state)).time(ofFrame: 2), 0.08, accuracy: 1e-12)
    }
}
