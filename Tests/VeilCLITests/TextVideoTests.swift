import Foundation
import VeilKit
import XCTest

/// `veil video --cover text`: a plate passing by stays covered, detected
/// every other frame and carried between by the text tracker.
final class TextVideoTests: XCTestCase {
    private func frames(_ url: URL, width: Int, height: Int, in dir: URL) throws -> [[UInt8]] {
        let raw = dir.appendingPathComponent(url.lastPathComponent + ".rgb")
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        let bytes = [UInt8](try Data(contentsOf: raw)), size = width * height * 3
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    private func change(_ a: [UInt8], _ b: [UInt8], width: Int, in r: PixelRect) -> Double {
        var sum = 0, n = 0
        for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { for k in 0..<3 {
            sum += abs(Int(a[(y * width + x) * 3 + k]) - Int(b[(y * width + x) * 3 + k])); n += 1
        } } }
        return Double(sum) / Double(max(1, n))
    }

    /// A clip of the sample photo stretched to 854x480 with the street scene's
    /// plate board pasted 40 px further right each frame.
    private struct PlateClip { var input: URL; var xs: [Int]; var y: Int; var board: PixelRect }

    private func plateClip(in dir: URL) throws -> PlateClip {
        let scene = try TextScene.street(in: dir)
        let stretched = dir.appendingPathComponent("background.png")
        try FFmpegTool.run("ffmpeg", ["-i", TestData.astronaut().path, "-vf", "scale=854:480", stretched.path])
        let background = try ImageDecoder().decode(.url(stretched)).image.srgb8()
        let board = scene.plate.rect.integral
        let padded = PixelRect(x: board.x - 4, y: board.y - 4, width: board.width + 8, height: board.height + 8)
        let plate = try ImageDecoder().decode(.url(scene.url)).image.srgb8().cropped(to: padded)
        let input = dir.appendingPathComponent("in.mp4")
        let clip = try TestClip(path: input.path, width: 854, height: 480, fps: 25, audio: .none)
        let xs = (0..<16).map { 60 + $0 * 40 }, y = 400
        for x in xs { try clip.add(background.inserting(plate, x: x, y: y)) }
        try clip.close()
        return PlateClip(input: input, xs: xs, y: y, board: board)
    }

    /// The mean change inside the central half of the plate's lettering, frame by frame.
    private func plateChanges(_ clip: PlateClip, output: URL, in dir: URL) throws -> [Double] {
        let before = try frames(clip.input, width: 854, height: 480, in: dir), after = try frames(output, width: 854, height: 480, in: dir)
        XCTAssertEqual(before.count, clip.xs.count)
        XCTAssertEqual(after.count, clip.xs.count)
        return zip(clip.xs, zip(before, after)).map { x, pair in
            let b = clip.board
            // The suit below it is left alone (away from the buckle at x 400, which the video detector takes for a face).
            XCTAssertLessThan(change(pair.0, pair.1, width: 854, in: PixelRect(x: 520, y: 440, width: 260, height: 30)), 3, "the suit at plate x \(x)")
            return change(pair.0, pair.1, width: 854, in: PixelRect(x: x + 4 + b.width / 4, y: clip.y + 4 + b.height / 4, width: b.width / 2, height: b.height / 2))
        }
    }

    func testPlateMovingAcrossTheFrameStaysCovered() throws {
        let dir = try TestData.scratch(self)
        let clip = try plateClip(in: dir)
        let output = dir.appendingPathComponent("out.mp4")
        let result = try Veil.run(["video", clip.input.path, "-o", output.path, "--cover", "text", "--detect-every", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for (i, covered) in try plateChanges(clip, output: output, in: dir).enumerated() {
            XCTAssertGreaterThan(covered, 15, "frame \(i): the plate at x \(clip.xs[i]) is not covered")
        }
    }

    /// The text tracks live in the video editing state (version 2): a
    /// re-render from it, the detector not run, covers the moving plate in
    /// every frame as the first run did. A state of before text (version 1,
    /// no texts) still loads and re-renders; asked to cover text it is refused
    /// (exit 2) rather than leaving the text uncovered.
    func testAReRenderFromTheStateCoversThePlateWithoutDetecting() throws {
        let dir = try TestData.scratch(self)
        let clip = try plateClip(in: dir)
        let output = dir.appendingPathComponent("out.mp4"), statePath = dir.appendingPathComponent("out.mp4.veil.json")
        let log = dir.appendingPathComponent("frames.jsonl")
        let first = try Veil.run(["video", clip.input.path, "-o", output.path, "--cover", "faces,text", "--detect-every", "2", "--json", log.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        // The frame log names the text boxes too, by their tracks' ids.
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(lines.filter { ($0["texts"] as? [[String: Any]])?.isEmpty == false }.count, 16, "every frame's line has its text boxes")
        let state = try VideoEditingState.load(from: statePath)
        // Version 2 for the text tracks; 3 where the plate's clip also gave unsure face sightings.
        XCTAssertEqual(state.version, (state.unsure ?? []).isEmpty ? VideoEditingState.strokesVersion : VideoEditingState.unsureVersion)
        let texts = try XCTUnwrap(state.texts)
        XCTAssertEqual(Set(texts.flatMap { $0.frames.map(\.frame) }), Set(0..<16), "a text track on every frame")
        XCTAssertTrue(texts.allSatisfy { $0.frames.contains(where: \.detected) })

        // The output written again from the state alone.
        try FileManager.default.removeItem(at: output)
        let redo = try Veil.run(["video", clip.input.path, "-o", output.path])
        XCTAssertEqual(redo.status, 0, redo.stderr)
        XCTAssertTrue(redo.stderr.contains("the detector does not run") && redo.stderr.contains("\(texts.count) text tracks"), redo.stderr)
        XCTAssertTrue(redo.stdout.contains(" 0 detections"), redo.stdout)
        for (i, covered) in try plateChanges(clip, output: output, in: dir).enumerated() {
            XCTAssertGreaterThan(covered, 15, "re-render, frame \(i): the plate at x \(clip.xs[i]) is not covered")
        }
        XCTAssertEqual(try VideoEditingState.load(from: statePath).texts, texts, "the text tracks kept through the re-render")

        // The state as a Veil of before text (and before unsure sightings) wrote it.
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: statePath)) as? [String: Any])
        object["texts"] = nil
        object["unsure"] = nil
        object["version"] = 1
        try JSONSerialization.data(withJSONObject: object).write(to: statePath)
        XCTAssertNil(try VideoEditingState.load(from: statePath).texts)
        let refused = try Veil.run(["video", clip.input.path, "-o", output.path, "--cover", "faces,text"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("without --cover text"), refused.stderr)
        let old = try Veil.run(["video", clip.input.path, "-o", output.path])
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertEqual(try VideoEditingState.load(from: statePath).version, 1, "a state without text stays version 1")
    }
}
