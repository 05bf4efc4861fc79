import Foundation
@testable import VeilKit
import XCTest

/// `veil video --segment I/N` and `veil video join`: a clip with audio split
/// in three time ranges and joined is one run's video — every frame at its
/// time, the audio, the duration — and the faces at the cuts are covered.
final class VideoSegmentTests: XCTestCase {
    /// 3 s of the astronaut at 25 fps with a 440 Hz tone, a keyframe every
    /// `gop` frames (1000: the first frame's only, as screen recordings and
    /// some body cameras write).
    static func clip(_ dir: URL, gop: Int = 10) throws -> URL {
        // 256 px: the face is still found (about 46x58 px), at a quarter of the detector's work.
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 256, height: 256)
        let raw = dir.appendingPathComponent("raw.mp4"), input = dir.appendingPathComponent("in.mp4")
        let clip = try TestClip(path: raw.path, width: photo.width, height: photo.height, fps: 25, audio: .aac)
        for _ in 0..<75 { try clip.add(photo) }
        try clip.close()
        try FFmpegTool.run("ffmpeg", ["-i", raw.path, "-c:v", "libx264", "-preset", "ultrafast", "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0",
                                      "-pix_fmt", "yuv420p", "-c:a", "copy", input.path])
        return input
    }

    func testThreeSegmentsJoinedAreOneRun() throws {
        try threeSegmentsJoinedAreOneRun(gop: 10)
    }

    /// One keyframe in 3 s: it splits anyway, at the frames 3 asks for.
    func testAOneKeyframeClipSplitsAtAnyFrame() throws {
        try threeSegmentsJoinedAreOneRun(gop: 1000)
        let dir = try TestData.scratch(self)
        let input = try Self.clip(dir, gop: 1000)
        let plan = try Veil.run(["video", "plan", input.path, "--segments", "3"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertEqual(plan.stdout.split(separator: "\n").count, 3, plan.stdout)
        XCTAssertTrue(plan.stdout.hasPrefix("0/3  start  0.98"), plan.stdout)
        let bySeconds = try Veil.run(["video", "plan", input.path, "--seconds", "1", "--json"])
        XCTAssertEqual(bySeconds.status, 0, bySeconds.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(bySeconds.stdout.utf8)) as? [Any])?.count, 3)
    }

    private func threeSegmentsJoinedAreOneRun(gop: Int) throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self).appendingPathComponent("gop\(gop)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = try Self.clip(dir, gop: gop)
        let single = dir.appendingPathComponent("single.mp4"), joined = dir.appendingPathComponent("joined.mp4")
        let one = try Veil.run(["video", input.path, "-o", single.path])
        XCTAssertEqual(one.status, 0, one.stderr)
        var parts: [String] = []
        for i in 0..<3 {
            let part = dir.appendingPathComponent("part\(i).mp4").path
            let r = try Veil.run(["video", input.path, "--segment", "\(i)/3", "-o", part])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("segment \(i)/3"), r.stderr)
            parts.append(part)
        }
        let partFrames = try parts.map { try FFmpegTool.frameCount($0) }
        XCTAssertTrue(partFrames.allSatisfy { (24...26).contains($0) }, "evenly cut: \(partFrames)")
        let join = try Veil.run(["video", "join"] + parts + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)

        // Frames and their times, the duration: one run's.
        XCTAssertEqual(try FFmpegTool.frameCount(joined.path), 75)
        XCTAssertEqual(partFrames.reduce(0, +), 75)
        XCTAssertEqual(try Self.frameTimes(joined), try Self.frameTimes(single))
        XCTAssertEqual(try duration(joined, stream: "v:0"), try duration(single, stream: "v:0"), accuracy: 0.001)
        XCTAssertEqual(try FFmpegTool.decodeErrors(joined.path), "")
        // Audio: one run's packets, each at its time and of its length, the
        // parts abutting (no gap, no overlap), the decoded samples the same
        // sample for sample (around every join too), the length to a sample.
        let audio = try Self.audioPackets(joined)
        XCTAssertGreaterThan(audio.count, 100)
        XCTAssertEqual(audio, try Self.audioPackets(single))
        try Self.assertAbutting(parts.map { URL(fileURLWithPath: $0) })
        try Self.assertSameSamples(joined, single, cuts: try parts.dropFirst().map { try Self.audioPackets(URL(fileURLWithPath: $0))[0].pts })
        XCTAssertEqual(try duration(joined, stream: "a:0"), try duration(single, stream: "a:0"), accuracy: 1.0 / 48000)

        // Covered where one run covers, the frames either side of each cut included.
        let original = try frames(input), covered = try frames(single), rejoined = try frames(joined)
        let f = TestData.astronautFace, face = ImageRect(x: f.x / 2, y: f.y / 2, width: f.width / 2, height: f.height / 2)  // the clip is at half size
        var cuts = [0]
        for n in partFrames.dropLast() { cuts.append(cuts.last! + n) }
        for i in 0..<75 {
            let byOneRun = try difference(covered[i], original[i], in: face)
            let byParts = try difference(rejoined[i], original[i], in: face)
            XCTAssertGreaterThan(byOneRun, 12, "frame \(i): one run left the face bare")
            XCTAssertGreaterThan(byParts, 12, "frame \(i) (parts start at \(cuts)): the joined video left the face bare")
        }
    }

    func testSegmentOutOfRangeIsOneLineError() throws {
        let dir = try TestData.scratch(self)
        let raw = dir.appendingPathComponent("in.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=25", "-t", "1", "-c:v", "libx264", "-g", "25", raw.path])
        for (segment, words) in [("3/3", "--segment's I"), ("0/0", "--segment's N"), ("1-2", "I/N"), ("0/100000", "frame(s)")] {
            let r = try Veil.run(["video", raw.path, "--segment", segment, "-o", dir.appendingPathComponent("o.mp4").path])
            XCTAssertEqual(r.status, 2, "\(segment): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(words), "\(segment): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.mp4").path))
        let batch = try Veil.run(["video", raw.path, "--segment", "0/2", "--out-dir", dir.appendingPathComponent("out").path])
        XCTAssertEqual(batch.status, 2, batch.stderr)
        let missing = try Veil.run(["video", "join", dir.appendingPathComponent("nope.mp4").path, "-o", dir.appendingPathComponent("j.mp4").path])
        XCTAssertEqual(missing.status, 2, missing.stderr)
    }

    static func frameTimes(_ url: URL) throws -> [Double] {
        try FFmpegTool.run("ffprobe", ["-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", url.path])
            .split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }  // side data (each part's x264 SEI) aside
    }

    /// The first audio stream's packets: time and length (in its clock) and bytes.
    struct AudioPacket: Equatable { var pts: Int, duration: Int, size: Int }
    static func audioPackets(_ url: URL) throws -> [AudioPacket] {
        try FFmpegTool.run("ffprobe", ["-select_streams", "a:0", "-show_entries", "packet=pts,duration,size", "-of", "csv=p=0", url.path])
            .split(separator: "\n").compactMap { line in
                let f = line.split(separator: ",").compactMap { Int($0) }
                return f.count >= 3 ? AudioPacket(pts: f[0], duration: f[1], size: f[2]) : nil  // side data lines aside
            }
    }

    /// Each part's audio begins where the part before it ends, to the sample.
    static func assertAbutting(_ parts: [URL], file: StaticString = #filePath, line: UInt = #line) throws {
        for (a, b) in zip(parts, parts.dropFirst()) {
            let last = try XCTUnwrap(try audioPackets(a).last), first = try XCTUnwrap(try audioPackets(b).first)
            XCTAssertEqual(last.pts + last.duration, first.pts, "\(a.lastPathComponent) -> \(b.lastPathComponent): a gap or an overlap", file: file, line: line)
        }
    }

    /// The decoded audio (s16, first channel's layout as it is) of `a` and `b`
    /// is the same, sample for sample; a difference is reported with the
    /// join (`cuts`, in samples) nearest to it.
    static func assertSameSamples(_ a: URL, _ b: URL, cuts: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
        let x = try samples(a), y = try samples(b)
        XCTAssertEqual(x.count, y.count, "decoded samples", file: file, line: line)
        if let i = x.indices.first(where: { $0 < y.count && x[$0] != y[$0] }) {
            let near = cuts.min(by: { abs($0 - i) < abs($1 - i) }) ?? 0
            XCTFail("sample \(i) differs (\(x[i]) against \(y[i])), \(i - near) from the join at \(near)", file: file, line: line)
        }
        for cut in cuts where cut > 0 && cut < x.count {  // around each join: sound, not silence
            let window = x[max(0, cut - 1024)..<min(x.count, cut + 1024)]
            XCTAssertGreaterThan(window.map { abs(Int($0)) }.max() ?? 0, 1000, "silence at the join at \(cut)", file: file, line: line)
        }
    }

    /// The first audio stream decoded as signed 16-bit samples (channels interleaved).
    static func samples(_ url: URL) throws -> [Int16] {
        let raw = url.deletingPathExtension().appendingPathExtension("s16")
        try FFmpegTool.run("ffmpeg", ["-y", "-i", url.path, "-map", "0:a:0", "-f", "s16le", raw.path])
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    private func duration(_ url: URL, stream: String) throws -> Double {
        let out = try FFmpegTool.run("ffprobe", ["-select_streams", stream, "-show_entries", "stream=duration", "-of", "csv=p=0", url.path])
        return try XCTUnwrap(Double(out.trimmingCharacters(in: .whitespacesAndNewlines)), out)
    }

    /// Every frame decoded as RGB.
    private func frames(_ url: URL) throws -> [VeilImage] {
        let raw = url.deletingPathExtension().appendingPathExtension("rgb")
        try FFmpegTool.run("ffmpeg", ["-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        let size = try FFmpegTool.run("ffprobe", ["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path])
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let bytes = [UInt8](try Data(contentsOf: raw)), frame = size[0] * size[1] * 3
        return try stride(from: 0, to: bytes.count - frame + 1, by: frame).map {
            try VeilImage(pixels: Array(bytes[$0..<$0 + frame]), width: size[0], height: size[1], bands: 3)
        }
    }

    /// Mean absolute difference of the central half of `box`.
    private func difference(_ a: VeilImage, _ b: VeilImage, in box: ImageRect) throws -> Double {
        let rect = PixelRect(x: Int(box.x + box.width / 4), y: Int(box.y + box.height / 4), width: Int(box.width / 2), height: Int(box.height / 2))
        return try TestImages.meanAbsoluteDifference(a.cropped(to: rect), b.cropped(to: rect))
    }
}
