import Foundation
@testable import VeilKit
import XCTest

/// Edits of the panning clip (TestData.panClip: a camera panning over a
/// crowd made from the sample photo, faces labelled per frame) from a state with no tracks, so that what changes is the edit
/// alone: a box added at one frame is followed backward and forward from
/// there, and covered on the frames its face is in view, judged as
/// Tests/Fixtures/cover_judge.py judges (the patch no longer follows the
/// input, or has lost its detail), and nowhere once the face is gone; a pen
/// stroke over a frame range changes its pixels on those frames only.
final class VideoFollowTests: XCTestCase {
    private let (width, height) = (960, 540)

    /// Every frame of `video`, grey.
    private func greyFrames(_ video: URL) throws -> [[UInt8]] {
        let raw = video.deletingPathExtension().appendingPathExtension("grey")
        try FFmpegTool.run("ffmpeg", ["-i", video.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        let data = [UInt8](try Data(contentsOf: raw))
        return stride(from: 0, to: data.count, by: width * height).map { Array(data[$0..<$0 + width * height]) }
    }

    /// covered.py's judgement of the central half of `box`: nil when the input has no detail there.
    private func covered(_ a: [UInt8], _ b: [UInt8], _ box: [Double]) -> Bool? {
        let x0 = Int(box[0] + box[2] / 4), y0 = Int(box[1] + box[3] / 4)
        let x1 = max(x0 + 1, Int(box[0] + 3 * box[2] / 4)), y1 = max(y0 + 1, Int(box[1] + 3 * box[3] / 4))
        var p: [Double] = [], q: [Double] = []
        for y in y0..<y1 { for x in x0..<x1 { p.append(Double(a[y * width + x])); q.append(Double(b[y * width + x])) } }
        func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
        let (mp, mq) = (mean(p), mean(q))
        let sp = sqrt(mean(p.map { ($0 - mp) * ($0 - mp) })), sq = sqrt(mean(q.map { ($0 - mq) * ($0 - mq) }))
        guard sp >= 2 else { return nil }
        if sq < 0.5 * sp { return true }
        let r = mean(zip(p, q).map { ($0 - mp) * ($1 - mq) }) / (sp * sq)
        return r < 0.8
    }

    /// The panning clip made in `dir` as pan.mp4, beside out.mp4's state with
    /// no tracks (as if every track had been dropped), painting magenta.
    private func panWithoutTracks(in dir: URL) throws -> (input: URL, output: URL, state: URL, labels: URL) {
        let clip = try TestData.panClip(in: dir)
        let input = clip.video, output = dir.appendingPathComponent("out.mp4")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
        let state = VideoEditingState(source: .init(file: "pan.mp4", sha256: try VideoEditingState.digest(ofFileAt: input), size: size,
                                                    width: width, height: height, framesPerSecond: 25, frames: 100),
                                      style: .solid(RGB(255, 0, 255)), shape: .box, maskScale: 1, tracks: [])
        let url = dir.appendingPathComponent("out.mp4.veil.json")
        try state.save(to: url)
        return (input, output, url, clip.labels)
    }

    /// Mean absolute difference of two grey frames.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    func testAnAddedBoxIsFollowedBackwardAndForward() throws {
        let dir = try TestData.scratch(self)
        let (input, output, _, labelsURL) = try panWithoutTracks(in: dir)
        let labels = try JSONSerialization.jsonObject(with: Data(contentsOf: labelsURL)) as! [String: Any]
        let frames = (labels["frames"] as! [[String: Any]]).map { ($0["faces"] as! [[Double]]) }
        /// A face's label on each frame from `start`: the box of its size nearest its label on the frame beside.
        func chain(_ start: [Double]) -> [Int: [Double]] {
            var face: [Int: [Double]] = [50: start]
            for direction in [-1, 1] {
                var n = 50
                while let last = face[n], frames.indices.contains(n + direction),
                      let next = frames[n + direction].filter({ abs($0[2] - last[2]) < 0.5 && abs($0[0] - last[0]) + abs($0[1] - last[1]) < 40 })
                          .min(by: { abs($0[0] - last[0]) < abs($1[0] - last[0]) }) {
                    n += direction
                    face[n] = next
                }
            }
            return face
        }
        // The face to add on frame 50: the largest whose labels run from 20 frames before to 20 after,
        // entering after the clip's first frames (so frames before it are judged unchanged).
        let face = try XCTUnwrap(frames[50].map(chain).filter { $0.keys.min()! >= 8 && $0.keys.min()! <= 30 && $0.keys.max()! >= 70 }
            .max { $0[50]![2] < $1[50]![2] }, "no face of frame 50 in view from before frame 30 to after frame 70")
        let (enters, leaves) = (face.keys.min()!, face.keys.max()!)
        let key = face[50]!.map { Int($0.rounded()) }
        let r = try Veil.run(["video", input.path, "-o", output.path, "--add", "50:\(key[0]),\(key[1]),\(key[2]),\(key[3])"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(" 0 detections"), r.stdout)

        let a = try greyFrames(input), b = try greyFrames(output)
        XCTAssertEqual(a.count, 100)
        XCTAssertEqual(b.count, 100)
        var judged = 0, hidden = 0
        for (n, box) in face {
            guard let verdict = covered(a[n], b[n], box) else { continue }
            judged += 1
            hidden += verdict ? 1 : 0
            XCTAssertTrue(verdict, "frame \(n): the face is covered")
        }
        XCTAssertGreaterThan(judged, 50)
        XCTAssertTrue(face.keys.contains { $0 < 40 }, "judged on frames before the key frame too")
        // Where the face is gone (off the right edge until it enters from
        // it), nothing is covered: the frames are the input's.
        for n in 0...(enters - 6) { XCTAssertLessThan(difference(a[n], b[n]), 2, "frame \(n): nothing covered before the face is in view") }
        let followed = try XCTUnwrap(try VideoEditingState.load(from: dir.appendingPathComponent("out.mp4.veil.json")).manual.first?.followed)
        let first = try XCTUnwrap(followed.first?.frame), last = try XCTUnwrap(followed.last?.frame)
        XCTAssertTrue((enters - 5...enters + 1).contains(first), "followed back to where the face comes in (frame \(first); whole from \(enters))")
        XCTAssertTrue((leaves - 1...leaves + 5).contains(last), "followed on to where it leaves (frame \(last); whole to \(leaves))")
        XCTAssertEqual(followed.map(\.frame), Array(first...last), "every frame between, in order")
        print("followed frames \(first)...\(last); \(hidden)/\(judged) labelled frames of the face covered")
    }

    /// A pen stroke on frames 10...20: its pixels change there, and nowhere
    /// else; the state keeps it (version 2), and hostile strokes are refused.
    func testAPenStrokeOverAFrameRangeChangesThoseFramesOnly() throws {
        let dir = try TestData.scratch(self)
        let (input, output, statePath, _) = try panWithoutTracks(in: dir)
        XCTAssertEqual(try VideoEditingState.load(from: statePath).version, 1, "a state without strokes stays version 1")
        let r = try Veil.run(["video", input.path, "-o", output.path, "--stroke", "10-20:100,100 300,150 500,100@12"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(" 0 detections"), r.stdout)
        let a = try greyFrames(input), b = try greyFrames(output)
        XCTAssertEqual(b.count, 100)
        // Points on the stroke (on its middle line), and a patch well away from it.
        let on = [(100, 100), (200, 125), (300, 150), (400, 125), (500, 100)]
        for n in 0..<100 {
            let painted = on.map { p in abs(Int(a[n][p.1 * width + p.0]) - Int(b[n][p.1 * width + p.0])) }
            if (10...20).contains(n) {
                // Magenta is grey level 105 (0.299 R + 0.114 B); the pen's core is
                // painted. Judged by the median of the 3x3 pixels around each point:
                // at CRF 20 x264 may ring one pixel of a sharp vertex by 15 levels
                // (105 everywhere there at CRF 0).
                let core = on.map { p in (-1...1).flatMap { dy in (-1...1).map { dx in b[n][(p.1 + dy) * width + p.0 + dx] } }.sorted()[4] }
                for (p, level) in zip(on, core) { XCTAssertEqual(Double(level), 105, accuracy: 12, "frame \(n) at \(p)") }
                XCTAssertGreaterThan(painted.max()!, 20, "frame \(n): the stroke changed the picture")
                var away = 0
                for y in 300..<500 { for x in 600..<900 { away += abs(Int(a[n][y * width + x]) - Int(b[n][y * width + x])) } }
                XCTAssertLessThan(Double(away) / 60_000, 2, "frame \(n): away from the stroke the picture is the input's")
            } else {
                XCTAssertLessThan(difference(a[n], b[n]), 2, "frame \(n): no stroke outside 10...20")
            }
        }
        let state = try VideoEditingState.load(from: statePath)
        XCTAssertEqual(state.version, VideoEditingState.strokesVersion)
        let pen = try XCTUnwrap(state.strokes?.first)
        XCTAssertEqual([pen.first, pen.last], [10, 20])
        XCTAssertEqual(pen.stroke.points.first?.x ?? 0, 100.0 / 960, accuracy: 1e-9)
        XCTAssertEqual(pen.stroke.width, 12.0 / 960, accuracy: 1e-9)
        XCTAssertEqual(try VideoEditingState.decode(try JSONEncoder().encode(state)), state)

        // Hostile strokes in the state: one line, exit 2, refused before anything is drawn.
        let good = try String(contentsOf: statePath, encoding: .utf8)
        let stroke = "{\"first\":10,\"last\":20,\"stroke\":{\"points\":[[0.1,0.1]],\"width\":0.01}}"
        func with(_ strokes: String) -> String {
            let start = good.range(of: "\"strokes\":[")!, end = good.range(of: "}}]", range: start.upperBound..<good.endIndex)!
            return good.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "\"strokes\":[\(strokes)]")
        }
        XCTAssertNoThrow(try VideoEditingState.decode(Data(with(stroke).utf8)))
        let hostile: [(String, String)] = [
            ("frame past the end", with(stroke.replacingOccurrences(of: "\"last\":20", with: "\"last\":100"))),
            ("negative frame", with(stroke.replacingOccurrences(of: "\"first\":10", with: "\"first\":-1"))),
            ("range backwards", with(stroke.replacingOccurrences(of: "\"first\":10", with: "\"first\":30"))),
            ("NaN point", with(stroke.replacingOccurrences(of: "[[0.1,0.1]]", with: "[[0.1,\"NaN\"]]"))),
            ("infinite width", with(stroke.replacingOccurrences(of: "\"width\":0.01", with: "\"width\":1e999"))),
            ("no points", with(stroke.replacingOccurrences(of: "[[0.1,0.1]]", with: "[]"))),
            ("a thousand and one strokes", with(Array(repeating: stroke, count: 1001).joined(separator: ","))),
            ("a million points", with(stroke.replacingOccurrences(of: "[[0.1,0.1]]", with: "[" + Array(repeating: "[0.1,0.1]", count: 1_000_000).joined(separator: ",") + "]"))),
            ("a version past this Veil's", good.replacingOccurrences(of: "\"version\":2", with: "\"version\":\(VideoEditingState.unsureVersion + 1)")),
        ]
        for (what, text) in hostile {
            try Data(text.utf8).write(to: statePath)
            let refused = try Veil.run(["video", input.path, "-o", output.path])
            XCTAssertEqual(refused.status, 2, "\(what): \(refused.stderr)")
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, "\(what): \(refused.stderr)")
        }
        // Bad --stroke spellings are usage errors.
        try Data(good.utf8).write(to: statePath)
        for bad in ["20-10:1,1@3", "10-200:1,1@3", "10:1,1", "x-3:1,1@2", "1,1@2"] {
            let refused = try Veil.run(["video", input.path, "-o", output.path, "--stroke", bad])
            XCTAssertEqual(refused.status, 2, "\(bad): \(refused.stderr)")
        }
    }
}
