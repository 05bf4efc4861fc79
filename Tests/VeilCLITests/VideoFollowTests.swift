import Foundation
@testable import VeilKit
import XCTest

/// A box added at one frame of pan-small (a camera panning over a crowd,
/// faces labelled per frame) is followed backward and forward from there,
/// and covered on the frames its face is in view, judged as
/// ../shared/tools/covered.py judges (the patch no longer follows the
/// input, or has lost its detail), and nowhere once the face is gone.
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

    func testAnAddedBoxIsFollowedBackwardAndForward() throws {
        let clip = try TestData.sharedData("video/pan-small.mp4")
        let labels = try JSONSerialization.jsonObject(with: Data(contentsOf: clip.deletingPathExtension().appendingPathExtension("json"))) as! [String: Any]
        let frames = (labels["frames"] as! [[String: Any]]).map { ($0["faces"] as! [[Double]]) }
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("pan.mp4"), output = dir.appendingPathComponent("out.mp4")
        try FileManager.default.copyItem(at: clip, to: input)
        // A state with no tracks, as if every track had been dropped: what is covered is the added box alone.
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
        let state = VideoEditingState(source: .init(file: "pan.mp4", sha256: try VideoEditingState.digest(ofFileAt: input), size: size,
                                                    width: width, height: height, framesPerSecond: 25, frames: 100),
                                      style: .solid(RGB(255, 0, 255)), shape: .box, maskScale: 1, tracks: [])
        try state.save(to: dir.appendingPathComponent("out.mp4.veil.json"))
        // The face labelled [449.2, 335.6, 35.2, 35.2] on frame 50: in view (whole) on frames 18...80.
        let r = try Veil.run(["video", input.path, "-o", output.path, "--add", "50:449,335,35,35"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(" 0 detections"), r.stdout)

        // The face's label on each frame: the box of its size nearest its label on the frame beside.
        var face: [Int: [Double]] = [50: [449.2, 335.6, 35.2, 35.2]]
        for direction in [-1, 1] {
            var n = 50
            while let last = face[n], frames.indices.contains(n + direction),
                  let next = frames[n + direction].filter({ abs($0[2] - last[2]) < 0.5 && abs($0[0] - last[0]) + abs($0[1] - last[1]) < 40 })
                      .min(by: { abs($0[0] - last[0]) < abs($1[0] - last[0]) }) {
                n += direction
                face[n] = next
            }
        }
        XCTAssertLessThanOrEqual(face.keys.min()!, 20, "the labels hold the face from frame 18")
        XCTAssertGreaterThanOrEqual(face.keys.max()!, 78)

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
        // Where the face is gone (off the right edge until frame 15; it
        // enters from it), nothing is covered: the frames are the input's.
        for n in 0...13 {
            let mean = Double(zip(a[n], b[n]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a[n].count)
            XCTAssertLessThan(mean, 2, "frame \(n): nothing covered before the face is in view")
        }
        let followed = try XCTUnwrap(try VideoEditingState.load(from: dir.appendingPathComponent("out.mp4.veil.json")).manual.first?.followed)
        let first = try XCTUnwrap(followed.first?.frame), last = try XCTUnwrap(followed.last?.frame)
        XCTAssertTrue((14...19).contains(first), "followed back to where the face comes in (frame \(first))")
        XCTAssertTrue((79...84).contains(last), "followed on to where it leaves (frame \(last))")
        XCTAssertEqual(followed.map(\.frame), Array(first...last), "every frame between, in order")
        print("followed frames \(first)...\(last); \(hidden)/\(judged) labelled frames of the face covered")
    }
}
