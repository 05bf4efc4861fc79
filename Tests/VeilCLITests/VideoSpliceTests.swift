import Foundation
@testable import VeilKit
import XCTest

/// A re-render re-encodes only the GOPs its edits change and copies the
/// rest from the previous output (issue 20, `VideoSplice`), on the panning
/// clip (TestData.panClip: a crowd made from the sample photo, faces labelled per frame) with a tone
/// added as its audio: the copied GOPs are the previous output's packets
/// byte for byte, the dropped track is the input again, every other
/// labelled face stays covered (Tests/Fixtures/cover_judge.py), and
/// frames, times and audio packets are the first run's. A previous output
/// that changed or is missing, or other encoder settings, re-encode every
/// frame and say why.
final class VideoSpliceTests: XCTestCase {
    private let (width, height) = (960, 540)

    /// The panning clip with 4 s of AAC tone, in `dir`.
    private func panWithAudio(in dir: URL) throws -> URL {
        let clip = try TestData.panClip(in: dir).video
        let input = dir.appendingPathComponent("pan-tone.mp4")
        try FFmpegTool.run("ffmpeg", ["-i", clip.path, "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
                                      "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-ac", "1", input.path])
        return input
    }

    /// One line per packet of stream `kind` ("v", "a"): times, flags and the sha256 of its bytes.
    private func packets(_ video: URL, _ kind: String) throws -> [String] {
        try FFmpegTool.run("ffprobe", ["-select_streams", kind, "-show_entries", "packet=pts,dts,duration,flags,data_hash", "-show_data_hash", "sha256",
                                       "-of", "csv", video.path]).split(separator: "\n").map(String.init)
    }

    /// What playing shows of packet lines: the frames' presentation times in
    /// order and the keyframes' (a GOP encoded again may order its B-frames
    /// otherwise, so decode times and packet order can differ), after
    /// checking decode times rise and never pass presentation times.
    private func shown(_ lines: [String]) -> (times: [Int], keys: [Int]) {
        let fields = lines.map { $0.split(separator: ",") }
        let (pts, dts) = (fields.map { Int($0[1])! }, fields.map { Int($0[2])! })
        XCTAssertEqual(dts, dts.sorted(), "decode times rise")
        XCTAssertTrue(zip(dts, pts).allSatisfy { $0 <= $1 }, "no frame is shown before it is decoded")
        return (pts.sorted(), zip(fields, pts).filter { $0.0[4].hasPrefix("K") }.map(\.1))
    }

    /// Every frame of `video`, grey.
    private func greyFrames(_ video: URL) throws -> [[UInt8]] {
        let raw = video.deletingPathExtension().appendingPathExtension("grey")
        try FFmpegTool.run("ffmpeg", ["-i", video.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        let data = [UInt8](try Data(contentsOf: raw))
        return stride(from: 0, to: data.count, by: width * height).map { Array(data[$0..<$0 + width * height]) }
    }

    /// Mean absolute difference of two grey frames over the central half of `box`.
    private func difference(_ a: [UInt8], _ b: [UInt8], _ box: ImageRect) -> Double {
        let x0 = Int(box.x + box.width / 4), y0 = Int(box.y + box.height / 4)
        let x1 = max(x0 + 1, Int(box.x + 3 * box.width / 4)), y1 = max(y0 + 1, Int(box.y + 3 * box.height / 4))
        var sum = 0
        for y in y0..<y1 { for x in x0..<x1 { sum += abs(Int(a[y * width + x]) - Int(b[y * width + x])) } }
        return Double(sum) / Double((x1 - x0) * (y1 - y0))
    }

    /// The frames (by presentation) of each GOP of `video`.
    private func gops(_ video: URL) throws -> [Range<Int>] {
        let probed = try VideoPackets(probing: video.path, what: video.lastPathComponent)
        return try VideoSplice.gops(of: probed, times: probed.pts.sorted()).map(\.frames)
    }

    /// cover_judge.py's "covered=C/T" of `output` against the clip's labels less those `drop` says.
    private func coverage(input: URL, output: URL, labels: [[[Double]]], dropping drop: (Int, [Double]) -> Bool, in dir: URL) throws -> String {
        let script = TestData.fixtures.appendingPathComponent("cover_judge.py")
        let kept = labels.enumerated().map { n, faces in ["faces": faces.filter { !drop(n, $0) }] }
        let gt = dir.appendingPathComponent("gt-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["frames": kept]).write(to: gt)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, gt.path, input.path, output.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try XCTUnwrap(text.split(separator: " ").first { $0.hasPrefix("covered=") }.map(String.init), text)
    }

    /// Overlap of two boxes, as a share of the smaller.
    private func overlap(_ a: ImageRect, _ b: ImageRect) -> Double {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x), h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return w > 0 && h > 0 ? w * h / min(a.width * a.height, b.width * b.height) : 0
    }

    func testDroppingAShortTrackCopiesTheGOPsItDoesNotTouch() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try panWithAudio(in: dir)
        let labels = (try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("pan.json"))) as! [String: Any])
        let faces = (labels["frames"] as! [[String: Any]]).map { $0["faces"] as! [[Double]] }
        let output = dir.appendingPathComponent("out.mp4"), first = dir.appendingPathComponent("first.mp4")
        let statePath = dir.appendingPathComponent("out.mp4.veil.json")
        let run = try Veil.run(["video", input.path, "-o", output.path, "--style", "solid=#FF00FF"])
        XCTAssertEqual(run.status, 0, run.stderr)
        try FileManager.default.copyItem(at: output, to: first)
        let gops = try gops(first)
        XCTAssertEqual(gops, [0..<50, 50..<100], "a keyframe every 2 s")
        XCTAssertNotNil(try VideoEditingState.load(from: statePath).output, "the state records the output")

        // A short track inside the second GOP with frames where no other box is near it.
        let state = try VideoEditingState.load(from: statePath)
        let box = { (s: VideoEditingState.Sighting) in ImageRect(x: s.box.x * 960, y: s.box.y * 540, width: s.box.width * 960, height: s.box.height * 540) }
        func alone(_ track: VideoEditingState.Track) -> [VideoEditingState.Sighting] {
            track.frames.filter { s in
                state.regions(at: s.frame).allSatisfy { $0.id == track.id || overlap($0.box, box(s)) == 0 } && box(s).width >= 16
                    && box(s).x >= 0 && box(s).y >= 0 && box(s).x + box(s).width <= 960 && box(s).y + box(s).height <= 540
            }
        }
        let track = try XCTUnwrap(state.tracks.filter { $0.frames.first!.frame >= 50 && $0.frames.count >= 3 && $0.frames.count <= 20 && !alone($0).isEmpty }
            .max { alone($0).count < alone($1).count }, "a short track in the second GOP")
        let started = Date()
        let redo = try Veil.run(["video", input.path, "-o", output.path, "--drop-track", "\(track.id)"])
        XCTAssertEqual(redo.status, 0, redo.stderr)
        XCTAssertTrue(redo.stderr.contains("the detector does not run"), redo.stderr)
        XCTAssertTrue(redo.stderr.contains("copied 1 of 2 GOPs (50 of 100 frames)"), redo.stderr)
        print("re-render dropping track \(track.id) (frames \(track.frames.first!.frame)...\(track.frames.last!.frame)) took \(Date().timeIntervalSince(started)) s")
        // The summary counts the copied frames' covers too: the first run's less the dropped track's.
        func faceFrames(_ out: String) -> Int? {
            out.range(of: #"(\d+) face-frames covered"#, options: .regularExpression).flatMap { Int(out[$0].split(separator: " ")[0]) }
        }
        XCTAssertEqual(try XCTUnwrap(faceFrames(redo.stdout)), try XCTUnwrap(faceFrames(run.stdout)) - track.frames.count, redo.stdout)

        // The first GOP is the first run's packet for packet; the second was encoded again.
        let (before, after) = (try packets(first, "v"), try packets(output, "v"))
        XCTAssertEqual(before.count, 100)
        XCTAssertEqual(Array(after.prefix(50)), Array(before.prefix(50)), "the copied GOP, byte for byte")
        XCTAssertNotEqual(Array(after.suffix(50)), Array(before.suffix(50)), "the GOP the track lives in was re-encoded")
        XCTAssertEqual(shown(after).times, shown(before).times, "frames and times are the first run's")
        XCTAssertEqual(shown(after).keys, shown(before).keys, "and its keyframes")
        XCTAssertEqual(try packets(output, "a"), try packets(first, "a"), "the audio packets are the first run's")
        let (status, _, errors) = try FFmpegTool.output("ffmpeg", ["-i", output.path, "-f", "null", "-"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(errors, "", "the spliced output decodes without an error")

        // The dropped track is the input again where nothing else covers it; it was covered before.
        let (a, b, c) = (try greyFrames(input), try greyFrames(first), try greyFrames(output))
        for s in alone(track) {
            XCTAssertGreaterThan(difference(a[s.frame], b[s.frame], box(s)), 20, "frame \(s.frame): covered in the first run")
            XCTAssertLessThan(difference(a[s.frame], c[s.frame], box(s)), 6, "frame \(s.frame): the dropped track is the input (within encoding noise)")
        }
        // Every other labelled face stays covered, as in the first run.
        let dropped = { (n: Int, label: [Double]) in
            track.sighting(at: n).map { self.overlap(box($0), ImageRect(x: label[0], y: label[1], width: label[2], height: label[3])) > 0.3 } ?? false
        }
        let firstCover = try coverage(input: input, output: first, labels: faces, dropping: dropped, in: dir)
        XCTAssertEqual(try coverage(input: input, output: output, labels: faces, dropping: dropped, in: dir), firstCover)
        let counts = firstCover.dropFirst("covered=".count).split(separator: "/")
        XCTAssertEqual(counts.first, counts.last, "the first run covered every labelled face: \(firstCover)")

        // The state now records the new output, and a re-render that changes nothing copies it all.
        let again = try Veil.run(["video", input.path, "-o", output.path, "--confirm"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("copied 2 of 2 GOPs"), again.stderr)
        XCTAssertEqual(try packets(output, "v"), after)
    }

    /// GOPs to re-encode on both sides of one to copy: the encoder restarts
    /// twice, and the file still decodes cleanly with the first run's times.
    func testEditsInTwoGOPsRestartTheEncoder() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try panWithAudio(in: dir)
        let output = dir.appendingPathComponent("out.mp4"), first = dir.appendingPathComponent("first.mp4")
        let params = ["--x264-params", "rc-lookahead=5:sync-lookahead=0:keyint=25"]
        XCTAssertEqual(try Veil.run(["video", input.path, "-o", output.path, "--style", "solid=#FF00FF"] + params).status, 0)
        try FileManager.default.copyItem(at: output, to: first)
        XCTAssertEqual(try gops(first), [0..<25, 25..<50, 50..<75, 75..<100])
        // Boxes added with key frames inside the first and the third GOP.
        let redo = try Veil.run(["video", input.path, "-o", output.path, "--add", "5:100,100,60,60 10:120,100,60,60", "--add", "55:300,200,60,60 60:320,200,60,60"] + params)
        XCTAssertEqual(redo.status, 0, redo.stderr)
        XCTAssertTrue(redo.stderr.contains("copied 2 of 4 GOPs (50 of 100 frames)"), redo.stderr)
        let (before, after) = (try packets(first, "v"), try packets(output, "v"))
        XCTAssertEqual(Array(after[25..<50]), Array(before[25..<50]))
        XCTAssertEqual(Array(after[75...]), Array(before[75...]))
        XCTAssertEqual(shown(after).times, shown(before).times, "the first run's frames, at its times")
        XCTAssertEqual(shown(after).keys, shown(before).keys, "with its keyframes")
        XCTAssertEqual(try packets(output, "a"), try packets(first, "a"))
        let (status, _, errors) = try FFmpegTool.output("ffmpeg", ["-i", output.path, "-f", "null", "-"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(errors, "")
        let (a, c) = (try greyFrames(input), try greyFrames(output))
        XCTAssertGreaterThan(difference(a[8], c[8], ImageRect(x: 112, y: 100, width: 60, height: 60)), 10, "the first added box is covered")
        XCTAssertGreaterThan(difference(a[58], c[58], ImageRect(x: 312, y: 200, width: 60, height: 60)), 10, "the second added box is covered")
    }

    /// A previous output that changed, is missing, or was made with other
    /// settings is not copied from: every frame is re-encoded, and said so.
    func testAChangedOrMissingOutputIsRenderedInFull() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try panWithAudio(in: dir)
        let output = dir.appendingPathComponent("out.mp4")
        XCTAssertEqual(try Veil.run(["video", input.path, "-o", output.path]).status, 0)
        let reference = try packets(output, "v")

        // Changed: re-encoded by another tool under the same name.
        let other = dir.appendingPathComponent("other.mp4")
        try FFmpegTool.run("ffmpeg", ["-i", output.path, "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", other.path])
        try FileManager.default.removeItem(at: output)
        try FileManager.default.moveItem(at: other, to: output)
        let changed = try Veil.run(["video", input.path, "-o", output.path, "--drop-track", "1"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("re-encoded every frame: out.mp4 changed since it was rendered"), changed.stderr)
        XCTAssertEqual(changed.stderr.split(separator: "\n").filter { $0.contains("every frame") }.count, 1)
        XCTAssertEqual(shown(try packets(output, "v")).times, shown(reference).times, "the full render has the first run's frames and times")

        // Missing.
        try FileManager.default.removeItem(at: output)
        let missing = try Veil.run(["video", input.path, "-o", output.path, "--keep-track", "1"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("re-encoded every frame: out.mp4 is missing"), missing.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))

        // Other encoder settings.
        let crf = try Veil.run(["video", input.path, "-o", output.path, "--crf", "23"])
        XCTAssertEqual(crf.status, 0, crf.stderr)
        XCTAssertTrue(crf.stderr.contains("re-encoded every frame: out.mp4 was made with other encoder settings (crf 20 -> 23)"), crf.stderr)
        // And then, with the same settings again, it copies.
        let same = try Veil.run(["video", input.path, "-o", output.path, "--crf", "23", "--confirm"])
        XCTAssertTrue(same.stderr.contains("copied 2 of 2 GOPs"), same.stderr)
    }
}
