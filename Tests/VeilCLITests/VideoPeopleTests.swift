import Foundation
@testable import VeilKit
import XCTest

/// The same person across cuts (issue 52): a clip made here from the sample
/// photos, the astronaut filmed in two shots (large on the left; after a hard
/// cut smaller on the right) with the cameraman beside her in the second. Her
/// two tracks are proposed as one person and the cameraman as another;
/// `--uncover-person` uncovers her in both shots and only her, `--cover-person`
/// the reverse; the state keeps person numbers and nothing of the faces.
final class VideoPeopleTests: XCTestCase {
    private let shot = TwoShotClip.shot
    private let (astronautFirst, astronautSecond, cameraman) = (TwoShotClip.astronautFirst, TwoShotClip.astronautSecond, TwoShotClip.cameraman)
    private func greyFrames(_ video: URL) throws -> [[UInt8]] { try TwoShotClip.greyFrames(video) }
    private func change(_ a: [UInt8], _ b: [UInt8], in box: PixelRect) -> Double { TwoShotClip.change(a, b, in: box) }

    private func people(_ state: URL) throws -> [[String: Any]] {
        let listing = try Veil.run(["video", "tracks", state.path, "--people", "--json"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(object["people"] as? [[String: Any]])
    }

    func testOnePersonAcrossACutIsProposedAndUncoveredEverywhere() throws {
        try TestData.requireFaceModel([.retinaFace, .sface])
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let state = dir.appendingPathComponent("out.mp4.veil.json")
        try TwoShotClip.make(at: input)
        let run = try Veil.run(["video", input.path, "-o", output.path, "--crf", "0"])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Three tracks: the astronaut in shot 1, the cameraman and the astronaut in shot 2; two people.
        let listing = try Veil.run(["video", "tracks", state.path, "--json"])
        let tracks = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?["tracks"] as? [[String: Any]])
        func track(near box: PixelRect, after first: Int) -> [String: Any]? {
            tracks.first { t in
                let seen = t["firstSeen"] as? [Double] ?? [], start = t["first"] as? Int ?? -1
                return (start >= first) && (start < first + 3) && abs(seen[0] - Double(box.x)) < 0.5 * Double(box.width)
            }
        }
        let (her1, her2, him) = (try XCTUnwrap(track(near: astronautFirst, after: 0), "\(tracks)"),
                                 try XCTUnwrap(track(near: astronautSecond, after: shot), "\(tracks)"),
                                 try XCTUnwrap(track(near: cameraman, after: shot), "\(tracks)"))
        XCTAssertEqual(tracks.count, 3, "\(tracks)")
        let proposed = try people(state)
        XCTAssertEqual(proposed.count, 2, "\(proposed)")
        XCTAssertEqual(her1["person"] as? Int, her2["person"] as? Int, "the astronaut's two shots are one person: \(tracks)")
        XCTAssertNotEqual(her1["person"] as? Int, him["person"] as? Int)
        let (she, he) = (try XCTUnwrap(her1["person"] as? Int), try XCTUnwrap(him["person"] as? Int))
        XCTAssertEqual(she, 1, "people are numbered as they are first seen")
        let hers = try XCTUnwrap(proposed.first { $0["person"] as? Int == she })
        XCTAssertEqual(Set(hers["tracks"] as? [Int] ?? []), [her1["id"] as! Int, her2["id"] as! Int])
        XCTAssertEqual((hers["spans"] as? [Any])?.count, 2, "her time on screen: one span a shot")

        // Nothing of a face in the state: tracks hold an id, a status, sightings and a person; no array longer than a sighting.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        for t in object["tracks"] as? [[String: Any]] ?? [] { XCTAssertEqual(Set(t.keys), ["id", "status", "frames", "person"]) }
        func longestNumbers(_ value: Any) -> Int {
            if let array = value as? [Any] {
                let own = array.allSatisfy { $0 is NSNumber } ? array.count : 0
                return max(own, array.map(longestNumbers).max() ?? 0)
            }
            if let dictionary = value as? [String: Any] { return dictionary.values.map(longestNumbers).max() ?? 0 }
            return 0
        }
        XCTAssertLessThanOrEqual(longestNumbers(object), 7, "a 128-number embedding would be the longest array")

        // --uncover-person: she is uncovered in both shots, he stays covered.
        let source = try greyFrames(input)
        let kept = try Veil.run(["video", input.path, "-o", output.path, "--crf", "0", "--uncover-person", "\(she)"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        var frames = try greyFrames(output)
        XCTAssertEqual(frames.count, 2 * shot)
        for f in [0, shot - 1] { XCTAssertLessThan(change(source[f], frames[f], in: astronautFirst), 3, "frame \(f): her face as filmed") }
        for f in [shot, 2 * shot - 1] {
            XCTAssertLessThan(change(source[f], frames[f], in: astronautSecond), 3, "frame \(f): her face as filmed")
            XCTAssertGreaterThan(change(source[f], frames[f], in: cameraman), 8, "frame \(f): his face covered")
        }
        XCTAssertEqual(try people(state).first { $0["person"] as? Int == she }?["status"] as? String, "dropped")

        // --cover-person covers her again; --uncover-person of him uncovers him alone.
        let reverse = try Veil.run(["video", input.path, "-o", output.path, "--crf", "0", "--cover-person", "\(she)", "--uncover-person", "\(he)"])
        XCTAssertEqual(reverse.status, 0, reverse.stderr)
        frames = try greyFrames(output)
        for f in [0, shot - 1] { XCTAssertGreaterThan(change(source[f], frames[f], in: astronautFirst), 8, "frame \(f): her face covered") }
        for f in [shot, 2 * shot - 1] {
            XCTAssertGreaterThan(change(source[f], frames[f], in: astronautSecond), 8, "frame \(f): her face covered")
            XCTAssertLessThan(change(source[f], frames[f], in: cameraman), 3, "frame \(f): his face as filmed")
        }

        // The sheet: her two tracks on a row of their own, then his (two rows of thumbnails).
        let sheet = dir.appendingPathComponent("sheet.png")
        let made = try Veil.run(["video", "tracks", state.path, "--sheet", sheet.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try ImageDecoder().decode(.url(sheet)).image.height, 8 + 2 * (TrackSheet.cell + 26))

        // The reviewer splits her second shot off (a number no track has), then joins it back.
        let split = try Veil.run(["video", input.path, "-o", output.path, "--person-of", "\(her2["id"] as! Int)=9"])
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertEqual(try people(state).count, 3)
        let joined = try Veil.run(["video", input.path, "-o", output.path, "--merge-people", "\(she),9"])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertEqual(try people(state).count, 2)
        let wrong = try Veil.run(["video", input.path, "-o", output.path, "--uncover-person", "5"])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("no person 5"), wrong.stderr)
        // The names of before, which read as the opposite of --keep-track, are refused with the new ones.
        for (old, now) in [("--keep-person", "--uncover-person"), ("--drop-person", "--cover-person")] {
            let retired = try Veil.run(["video", input.path, "-o", output.path, old, "\(she)"])
            XCTAssertEqual(retired.status, 2, retired.stderr)
            XCTAssertTrue(retired.stderr.contains("\(old) is now \(now)"), retired.stderr)
            XCTAssertEqual(retired.stderr.split(separator: "\n").count, 1, retired.stderr)
        }
    }
}
