import Foundation
@testable import VeilKit
import XCTest

/// A track is a face (issue 52): a clip made here from the sample photos, the
/// astronaut on the left of every frame, a cup of coffee on the right, and on
/// one frame the cat in the cup's place. RetinaFace at video's threshold takes
/// the cat for a face (0.67): it must be covered there, listed apart as
/// unsure rather than as a track to review, not carried over the cup for
/// long after it has gone, and still covered by a re-render from the state;
/// the astronaut, found on every frame, is one track.
final class VideoUnsureTests: XCTestCase {
    private let (side, frames, catFrame) = (512, 10, 4)

    private func panel(_ asset: Asset) throws -> [UInt8] {
        try ImageDecoder().decode(.url(TestData.sample(asset))).image.resized(width: side, height: side).srgb8().pixelBytes()
    }

    /// Two panels side by side, each `side` square.
    private func sideBySide(_ left: [UInt8], _ right: [UInt8]) throws -> VeilImage {
        var canvas = [UInt8](repeating: 0, count: 2 * side * side * 3)
        for y in 0..<side {
            let row = y * side * 3
            canvas.replaceSubrange(2 * row..<2 * row + side * 3, with: left[row..<row + side * 3])
            canvas.replaceSubrange(2 * row + side * 3..<2 * row + 2 * side * 3, with: right[row..<row + side * 3])
        }
        return try VeilImage(pixels: canvas, width: 2 * side, height: side, bands: 3)
    }

    /// Every frame of `video`, grey.
    private func greyFrames(_ video: URL) throws -> [[UInt8]] {
        let raw = video.deletingPathExtension().appendingPathExtension("grey")
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", video.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        let data = [UInt8](try Data(contentsOf: raw)), size = 2 * side * side
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// Mean absolute difference of two grey frames over the right panel's central half.
    private func rightPanelChange(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0
        for y in side / 4..<3 * side / 4 { for x in side + side / 4..<side + 3 * side / 4 { sum += abs(Int(a[y * 2 * side + x]) - Int(b[y * 2 * side + x])) } }
        return Double(sum) / Double(side * side / 4)
    }

    func testABriefFalseSightingIsCoveredButIsNoTrack() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let log = dir.appendingPathComponent("frames.jsonl"), state = dir.appendingPathComponent("out.mp4.veil.json")
        let (face, cup, cat) = (try panel(.astronaut), try panel(.coffee), try panel(.chelsea))
        let clip = try TestClip(path: input.path, width: 2 * side, height: side, fps: 25, audio: .none)
        for f in 0..<frames { try clip.add(try sideBySide(face, f == catFrame ? cat : cup)) }
        try clip.close()
        let run = try Veil.run(["video", input.path, "-o", output.path, "--crf", "0", "--json", log.path])
        XCTAssertEqual(run.status, 0, run.stderr)

        // What the detector saw: the astronaut on every frame, the cat on its frame only, and taken for a face.
        let (_, records) = try VideoCommandTests.frameLog(log)
        XCTAssertEqual(records.count, frames)
        let seen = records.map { r in (r["faces"] as? [[String: Any]] ?? []).filter { $0["detected"] as? Bool == true } }
        XCTAssertTrue(seen.allSatisfy { $0.contains { ($0["x"] as! Double) < Double(side) } }, "the astronaut is found on every frame")
        let catSightings = seen[catFrame].filter { ($0["x"] as! Double) >= Double(side) }
        XCTAssertEqual(catSightings.count, 1, "RetinaFace takes the cat for a face: \(seen[catFrame])")
        XCTAssertEqual(catSightings.first?["unsure"] as? Bool, true, "and it is not a face yet")

        // The state: one track, the astronaut over the whole clip; the cat apart, as unsure.
        let listing = try Veil.run(["video", "tracks", state.path, "--json"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
        let tracks = try XCTUnwrap(object["tracks"] as? [[String: Any]]), unsure = try XCTUnwrap(object["unsure"] as? [[String: Any]])
        XCTAssertEqual(tracks.count, 1, "\(tracks)")
        XCTAssertEqual(tracks.first?["first"] as? Int, 0)
        XCTAssertEqual(tracks.first?["last"] as? Int, frames - 1)
        XCTAssertEqual(tracks.first?["detected"] as? Int, frames)
        XCTAssertEqual(unsure.count, 1, "\(unsure)")
        XCTAssertEqual(unsure.first?["first"] as? Int, catFrame)
        let catLast = try XCTUnwrap(unsure.first?["last"] as? Int)
        XCTAssertEqual(catLast, catFrame, "a sighting found once is covered on its frame alone, not carried")
        let text = try Veil.run(["video", "tracks", state.path])
        XCTAssertTrue(text.stdout.contains("1 tracks, 0 added, 1 unsure"), text.stdout)

        // The output: the cat covered on its frame; the cup left alone once the cat has gone.
        let (a, b) = (try greyFrames(input), try greyFrames(output))
        XCTAssertGreaterThan(rightPanelChange(a[catFrame], b[catFrame]), 10, "the cat's frame is covered")
        XCTAssertLessThan(rightPanelChange(a[frames - 1], b[frames - 1]), 1, "the cup is not covered after the cat has gone")

        // A re-render from the state, the astronaut uncovered: the cat stays covered.
        let id = try XCTUnwrap(tracks.first?["id"] as? Int)
        let again = try Veil.run(["video", input.path, "-o", output.path, "--crf", "0", "--drop-track", "\(id)"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let c = try greyFrames(output)
        XCTAssertGreaterThan(rightPanelChange(a[catFrame], c[catFrame]), 10, "the unsure sighting is covered by a re-render")
    }
}
