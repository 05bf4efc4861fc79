import Foundation
@testable import VeilKit
import XCTest

/// Video you can review and re-edit (issue 20): the state kept beside the
/// output, re-rendered without detecting again, tracks dropped, boxes added.
final class VideoEditingTests: XCTestCase {
    private let (width, height) = (640, 320)

    /// Two faces (the astronaut, twice), drifting right 2 px a frame, on grey.
    private func twoFaces(_ url: URL, frames: Int = 20) throws {
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 200, height: 200)
        let background = try VeilImage.constant(RGB(90, 110, 130), size: PixelSize(width: width, height: height))
        let clip = try TestClip(path: url.path, width: width, height: height, fps: 25, audio: .aac)
        for i in 0..<frames {
            try clip.add(background.inserting(face, x: 20 + 2 * i, y: 60).inserting(face, x: 380 + 2 * i, y: 60))
        }
        try clip.close()
    }

    /// Frame `n` of a video as RGB bytes.
    private func frame(_ video: URL, _ n: Int, in dir: URL) throws -> [UInt8] {
        let png = dir.appendingPathComponent("frame-\(UUID().uuidString).png")
        try FFmpegTool.run("ffmpeg", ["-i", video.path, "-vf", "select=eq(n\\,\(n))", "-vsync", "0", "-frames:v", "1", png.path])
        return try ImageDecoder().decode(.url(png)).image.pixelBytes()
    }

    /// The central part of the astronaut's face in a copy placed at (x, 60), 200 px wide.
    private func face(x: Int) -> PixelRect {
        let f = TestData.astronautFace, k = 200.0 / 512
        return PixelRect(x: x + Int((f.midX - 0.2 * f.width) * k), y: 60 + Int((f.midY - 0.2 * f.height) * k),
                         width: Int(0.4 * f.width * k), height: Int(0.4 * f.height * k))
    }

    /// Mean absolute difference of two frames over `rect`.
    private func difference(_ a: [UInt8], _ b: [UInt8], _ rect: PixelRect) -> Double {
        var sum = 0, n = 0
        for y in rect.y..<rect.y + rect.height { for x in rect.x..<rect.x + rect.width { for c in 0..<3 {
            let i = (y * width + x) * 3 + c
            sum += abs(Int(a[i]) - Int(b[i])); n += 1
        } } }
        return Double(sum) / Double(n)
    }

    func testDropATrackAddABoxAndReRenderWithoutDetecting() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("two.mp4"), output = dir.appendingPathComponent("out.mp4")
        try twoFaces(input)
        // A painted cover (kept in the state, so the re-render paints too): covered is unmistakable.
        let first = try Veil.run(["video", input.path, "-o", output.path, "--style", "solid=#FF00FF"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let statePath = dir.appendingPathComponent("out.mp4.veil.json")
        let state = try VideoEditingState.load(from: statePath)
        XCTAssertEqual(state.source.frames, 20)
        XCTAssertEqual(state.source.sha256, try VideoEditingState.digest(ofFileAt: input))

        // The tracks, as a reviewer lists them.
        let listing = try Veil.run(["video", "tracks", statePath.path, "--json"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
        let tracks = try XCTUnwrap(object["tracks"] as? [[String: Any]])
        for key in ["id", "first", "last", "frames"] { XCTAssertTrue(tracks.allSatisfy { $0[key] is Int }, key) }
        // The left face's track: first seen left of the middle, covering most frames.
        let left = try XCTUnwrap(tracks.filter { (($0["firstSeen"] as? [Double])?[0] ?? 999) < 320 }.max { ($0["frames"] as! Int) < ($1["frames"] as! Int) })
        let leftID = left["id"] as! Int
        XCTAssertGreaterThanOrEqual(left["frames"] as! Int, 18)

        let started = Date()
        let redo = try Veil.run(["video", input.path, "-o", output.path, "--drop-track", "\(leftID)", "--add", "4:260,250,80,50 14:280,250,80,50"])
        XCTAssertEqual(redo.status, 0, redo.stderr)
        XCTAssertTrue(redo.stderr.contains("the detector does not run"), redo.stderr)
        XCTAssertTrue(redo.stdout.contains(" 0 detections"), redo.stdout)
        print("re-render took \(Date().timeIntervalSince(started)) s")
        for n in [2, 10, 17] {
            let a = try frame(input, n, in: dir), b = try frame(output, n, in: dir)
            let leftFace = face(x: 20 + 2 * n), rightFace = face(x: 380 + 2 * n)
            XCTAssertLessThan(difference(a, b, leftFace), 6, "frame \(n): the dropped track is the input again (within encoding noise)")
            XCTAssertGreaterThan(difference(a, b, rightFace), 60, "frame \(n): the other face stays covered")
        }
        // The added box, interpolated between frames 4 and 14: covered there, not before.
        let box = PixelRect(x: 275, y: 255, width: 60, height: 40)
        XCTAssertGreaterThan(difference(try frame(input, 9, in: dir), try frame(output, 9, in: dir), box), 60, "frame 9: the added box is covered")
        XCTAssertLessThan(difference(try frame(input, 2, in: dir), try frame(output, 2, in: dir), box), 6, "frame 2: before its first key")

        // The state round-trips with the edits in it, and undoes with --keep-track.
        let edited = try VideoEditingState.load(from: statePath)
        XCTAssertEqual(edited.tracks.first { $0.id == leftID }?.status, .dropped)
        XCTAssertEqual(edited.manual.count, 1)
        XCTAssertEqual(try VideoEditingState.decode(try JSONEncoder().encode(edited)), edited)
        let undo = try Veil.run(["video", input.path, "-o", output.path, "--keep-track", "\(leftID)"])
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(try VideoEditingState.load(from: statePath).tracks.first { $0.id == leftID }?.status, .covered)
        XCTAssertGreaterThan(difference(try frame(input, 10, in: dir), try frame(output, 10, in: dir), face(x: 40)), 60)
    }

    /// `--preview`: the review video holds the input's frames (the faces
    /// uncovered) with each track's box drawn along its edge, green while
    /// covered, red once dropped; as many frames as the input.
    func testPreviewDrawsEachTracksBoxOnTheUncoveredFrames() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("two.mp4"), output = dir.appendingPathComponent("out.mp4")
        let preview = dir.appendingPathComponent("out.preview.mp4")
        try twoFaces(input, frames: 12)
        let first = try Veil.run(["video", input.path, "-o", output.path, "--preview", preview.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try FFmpegTool.frameCount(preview.path), 12)
        let state = try VideoEditingState.load(from: dir.appendingPathComponent("out.mp4.veil.json"))
        let left = try XCTUnwrap(state.tracks.filter { $0.frames.count >= 10 }.min { $0.frames[0].box.x < $1.frames[0].box.x })
        /// The mean colour along the top edge of `track`'s box on frame `n` of the preview (the line is drawn outside the box).
        func edge(_ track: VideoEditingState.Track, frame n: Int) throws -> (r: Double, g: Double, b: Double) {
            let box = try XCTUnwrap(track.frames.first { $0.frame == n }?.box)
            let pixels = try frame(preview, n, in: dir)
            let (x0, x1, y) = (Int(box.x * Double(width)) + 4, Int((box.x + box.width) * Double(width)) - 4, Int(box.y * Double(height)) - 2)
            var sum = (r: 0.0, g: 0.0, b: 0.0)
            for x in x0..<x1 {
                let i = (y * width + x) * 3
                sum = (sum.r + Double(pixels[i]), sum.g + Double(pixels[i + 1]), sum.b + Double(pixels[i + 2]))
            }
            let n = Double(x1 - x0)
            return (sum.r / n, sum.g / n, sum.b / n)
        }
        let covered = try edge(left, frame: 6)
        XCTAssertGreaterThan(covered.g, covered.r + 80, "a covered track's box is green: \(covered)")
        XCTAssertLessThan(difference(try frame(input, 6, in: dir), try frame(preview, 6, in: dir), face(x: 32)), 8, "the face is uncovered in the preview")

        let dropped = try Veil.run(["video", input.path, "-o", output.path, "--drop-track", "\(left.id)", "--preview", preview.path])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        let red = try edge(left, frame: 6)
        XCTAssertGreaterThan(red.r, red.g + 80, "a dropped track's box is red: \(red)")
        let live = try Veil.run(["video", input.path, "-o", "udp://127.0.0.1:9", "--preview", preview.path])
        XCTAssertEqual(live.status, 2, live.stderr)
        XCTAssertTrue(live.stderr.contains("--preview needs a file INPUT and a file OUTPUT"), live.stderr)
    }

    /// Four faces leave the frame, one through each edge, and tracks coast
    /// after them: the state the first run writes is read by the second run
    /// of the same command and by `veil video tracks` (issue 27: a track
    /// coasted off the frame once made Veil refuse its own state).
    func testTheSameCommandRunsTwiceWhenFacesLeaveThroughEachEdge() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("leaving.mp4"), output = dir.appendingPathComponent("out.mp4")
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 110, height: 110)
        let background = try VeilImage.constant(RGB(90, 110, 130), size: PixelSize(width: width, height: height))
        let clip = try TestClip(path: input.path, width: width, height: height, fps: 25, audio: .none)
        for i in 0..<24 {
            let d = 14 * i
            try clip.add(background.inserting(face, x: 120 - d, y: 20).inserting(face, x: 410 + d, y: 20)
                .inserting(face, x: 265, y: 10 - d).inserting(face, x: 265, y: 200 + d))
        }
        try clip.close()
        for run in 1...2 {
            let result = try Veil.run(["video", input.path, "-o", output.path])
            XCTAssertEqual(result.status, 0, "run \(run): \(result.stderr)")
        }
        let state = try VideoEditingState.load(from: dir.appendingPathComponent("out.mp4.veil.json"))
        XCTAssertGreaterThanOrEqual(state.tracks.count, 4, "the four faces were found")
        for s in state.tracks.flatMap(\.frames) {
            XCTAssertTrue(s.box.x < 1 && s.box.y < 1 && s.box.x + s.box.width > 0 && s.box.y + s.box.height > 0, "\(s.box) is off the frame")
        }
        let listing = try Veil.run(["video", "tracks", dir.appendingPathComponent("out.mp4.veil.json").path])
        XCTAssertEqual(listing.status, 0, listing.stderr)

        // The review sheet: a thumbnail a track, each a face (the astronaut's skin, not the grey background).
        let sheet = dir.appendingPathComponent("sheet.png")
        let made = try Veil.run(["video", "tracks", dir.appendingPathComponent("out.mp4.veil.json").path, "--sheet", sheet.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let picture = try ImageDecoder().decode(.url(sheet)).image
        let cell = TrackSheet.cell, rows = (state.tracks.count + TrackSheet.columns - 1) / TrackSheet.columns
        XCTAssertEqual(picture.width, TrackSheet.columns * (cell + 8) + 8)
        XCTAssertEqual(picture.height, rows * (cell + 26) + 8)
        let pixels = try picture.pixelBytes()
        for i in 0..<state.tracks.count {
            let (x0, y0) = (8 + (i % TrackSheet.columns) * (cell + 8), 8 + (i / TrackSheet.columns) * (cell + 26))
            var values: [Double] = []
            for y in stride(from: y0 + cell / 4, to: y0 + 3 * cell / 4, by: 2) {
                for x in stride(from: x0 + cell / 4, to: x0 + 3 * cell / 4, by: 2) { values.append(Double(pixels[(y * picture.width + x) * 3])) }
            }
            let mean = values.reduce(0, +) / Double(values.count)
            let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
            XCTAssertGreaterThan(spread, 12, "track \(state.tracks[i].id)'s thumbnail is flat: no face in it")
        }
        let wrong = try Veil.run(["video", "tracks", dir.appendingPathComponent("out.mp4.veil.json").path, "--sheet", sheet.path,
                                  "--input", output.path])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("is not the video this state was made from"), wrong.stderr)
    }

    /// A box added at one frame is followed from there on.
    func testAnAddedBoxIsFollowed() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("two.mp4"), output = dir.appendingPathComponent("out.mp4")
        try twoFaces(input)
        XCTAssertEqual(try Veil.run(["video", input.path, "-o", output.path]).status, 0)
        // The left face's eyes region at frame 3 (x = 20 + 6 + 60...), a box the detector's track does not matter for.
        let r = try Veil.run(["video", input.path, "-o", output.path, "--add", "3:86,100,80,60"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let state = try VideoEditingState.load(from: dir.appendingPathComponent("out.mp4.veil.json"))
        let followed = try XCTUnwrap(state.manual.first?.followed)
        XCTAssertGreaterThanOrEqual(followed.count, 15, "followed to the end of the clip")
        let last = try XCTUnwrap(followed.last)
        // It moved right with the face, 2 px a frame.
        XCTAssertEqual(last.box.x * Double(width), 86 + 2 * Double(last.frame - 3), accuracy: 4)
    }

    /// A state from another video, and hostile states, are refused with one line (exit 2).
    func testForeignAndHostileStatesAreRefused() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("two.mp4"), other = dir.appendingPathComponent("other.mp4")
        let output = dir.appendingPathComponent("out.mp4"), statePath = dir.appendingPathComponent("out.mp4.veil.json")
        try twoFaces(input)
        try twoFaces(other, frames: 12)
        XCTAssertEqual(try Veil.run(["video", input.path, "-o", output.path]).status, 0)
        let foreign = try Veil.run(["video", other.path, "-o", output.path])
        XCTAssertEqual(foreign.status, 2, foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("the state of another video"), foreign.stderr)
        XCTAssertEqual(foreign.stderr.split(separator: "\n").count, 1, foreign.stderr)
        let good = try String(contentsOf: statePath, encoding: .utf8)
        let sha = try VideoEditingState.digest(ofFileAt: input)
        func manual(_ keys: String) -> String {
            good.replacingOccurrences(of: "\"manual\":[]", with: "\"manual\":[{\"follow\":false,\"id\":9999,\"keys\":[\(keys)],\"status\":\"covered\"}]")
        }
        let key = "{\"box\":{\"height\":0.1,\"width\":0.1,\"x\":0.1,\"y\":0.1},\"frame\":1}"
        let hostile: [(String, String)] = [
            ("out of range frame", manual(key.replacingOccurrences(of: "\"frame\":1", with: "\"frame\":5000"))),
            ("infinite box", manual(key.replacingOccurrences(of: "\"x\":0.1", with: "\"x\":1e999"))),
            ("a million key frames", manual(Array(repeating: key, count: 1_000_000).joined(separator: ","))),
            ("not a state", "{\"format\":\"something else\"}"),
            ("no kind", good.replacingOccurrences(of: "\"kind\":\"video\",", with: "")),
        ]
        XCTAssertTrue(good.contains(sha))
        for (what, text) in hostile {
            try Data(text.utf8).write(to: statePath)
            let started = Date()
            let r = try Veil.run(["video", input.path, "-o", output.path])
            XCTAssertEqual(r.status, 2, "\(what): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(what): \(r.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, what)
        }
        // A huge file is refused from its size, unread (a sparse 600 MB file).
        _ = FileManager.default.createFile(atPath: statePath.path, contents: nil)
        let handle = try FileHandle(forWritingTo: statePath)
        try handle.truncate(atOffset: 600 << 20)
        try handle.close()
        let huge = try Veil.run(["video", input.path, "-o", output.path])
        XCTAssertEqual(huge.status, 2, huge.stderr)
        XCTAssertTrue(huge.stderr.contains("at most"), huge.stderr)
        // Edits without a state are a usage error, not a silent first run.
        try FileManager.default.removeItem(at: statePath)
        let early = try Veil.run(["video", input.path, "-o", output.path, "--drop-track", "1"])
        XCTAssertEqual(early.status, 2, early.stderr)
    }
}
