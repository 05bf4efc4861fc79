import Foundation
import VeilKit
import XCTest

/// Parts that know their place: each `--segment I/N` part keeps a state
/// naming I, N and its range; `veil video join` refuses a missing, repeated
/// or out-of-order part and writes nothing; the joined output has the
/// parts' states joined, which `veil video tracks` reads.
final class VideoPartsTests: XCTestCase {
    func testJoinRefusesMissingRepeatedAndOutOfOrderPartsAndJoinsTheStates() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try VideoSegmentTests.clip(dir)
        var parts: [String] = []
        for i in 0..<3 {
            let part = dir.appendingPathComponent("parts/part\(i).mp4")
            try FileManager.default.createDirectory(at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
            let r = try Veil.run(["video", input.path, "--segment", "\(i)/3", "-o", part.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            let state = try VideoEditingState.load(from: PhotoBlurrer.sidecar(for: part))
            XCTAssertEqual(state.segment?.index, i)
            XCTAssertEqual(state.segment?.count, 3)
            XCTAssertEqual(state.segment?.start == nil, i == 0)
            XCTAssertEqual(state.segment?.end == nil, i == 2)
            XCTAssertEqual(state.source.frames, try FFmpegTool.frameCount(part.path))
            parts.append(part.path)
        }
        let joined = dir.appendingPathComponent("joined/out.mp4")
        try FileManager.default.createDirectory(at: joined.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (given, words) in [([parts[0], parts[2]], "part 1 of 3 is missing"),
                               ([parts[1], parts[0], parts[2]], "given in place 0"),
                               ([parts[0], parts[1], parts[1], parts[2]], "are both part 1 of 3")] {
            let refused = try Veil.run(["video", "join"] + given + ["-o", joined.path])
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains(words), refused.stderr)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: joined.deletingLastPathComponent().path), [], "something was written")
        }
        // A part without its state cannot be placed.
        let bare = dir.appendingPathComponent("bare.mp4")
        try FileManager.default.copyItem(atPath: parts[1], toPath: bare.path)
        let unknown = try Veil.run(["video", "join", parts[0], bare.path, parts[2], "-o", joined.path])
        XCTAssertEqual(unknown.status, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("bare.mp4.veil.json"), unknown.stderr)

        let join = try Veil.run(["video", "join"] + parts + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)
        let state = try VideoEditingState.load(from: PhotoBlurrer.sidecar(for: joined))
        XCTAssertNil(state.segment)
        XCTAssertEqual(state.source.frames, 75)
        XCTAssertEqual(state.source.file, "../in.mp4", "the input by its path from the joined state's folder")
        // The joined clock is the input's: every frame at its own time.
        let times = try VideoSegmentTests.frameTimes(input)
        XCTAssertEqual(times.count, 75)
        for (i, t) in times.enumerated() { XCTAssertEqual(state.time(ofFrame: i), t, accuracy: 1e-5, "frame \(i)") }
        // The one face, in view throughout, is one track across both joins.
        XCTAssertEqual(state.tracks.count, 1, "\(state.tracks.map { ($0.id, $0.frames.first!.frame, $0.frames.last!.frame) })")
        XCTAssertEqual(state.tracks.first?.frames.map(\.frame), Array(0..<75))
        XCTAssertEqual(Set(state.tracks.map(\.id)).count, state.tracks.count)
        let tracks = try Veil.run(["video", "tracks", PhotoBlurrer.sidecar(for: joined).path, "--sheet", dir.appendingPathComponent("sheet.png").path])
        XCTAssertEqual(tracks.status, 0, tracks.stderr)
        XCTAssertTrue(tracks.stdout.contains("75 frames"), tracks.stdout)
        // And it re-renders like any whole video's state: a track dropped uncovers the face.
        let id = try XCTUnwrap(state.tracks.first?.id)
        let edit = try Veil.run(["video", input.path, "-o", joined.path, "--drop-track", "\(id)"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertEqual(try VideoEditingState.load(from: PhotoBlurrer.sidecar(for: joined)).tracks.first?.status, .dropped)
        // A part's state is not a whole video's: it is not re-rendered from.
        let partEdit = try Veil.run(["video", input.path, "-o", parts[0], "--drop-track", "1"])
        XCTAssertEqual(partEdit.status, 2, partEdit.stderr)
    }
}
