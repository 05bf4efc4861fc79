import Foundation
import XCTest

/// A segment's audio: cut at the same times as its video, every sample in
/// exactly one part. A lossless track counting its own samples makes a
/// doubled or missing sample at a join visible as a break in the count.
final class VideoSegmentAudioTests: XCTestCase {
    /// 3 s of a test pattern at 25 fps with one keyframe, and 48 kHz mono
    /// 16-bit PCM whose sample k is k - 32768 (mod 65536), in a .mov.
    private func countingClip(_ dir: URL) throws -> URL {
        let input = dir.appendingPathComponent("count.mov")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=128x96:rate=25", "-f", "lavfi",
                                      "-i", "aevalsrc=exprs=(mod(n\\,65536)-32768)/32768:sample_rate=48000", "-t", "3",
                                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000", "-keyint_min", "1000", "-sc_threshold", "0",
                                      "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-shortest", input.path])
        return input
    }

    private func assertCounts(_ samples: [Int16], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        if let k = samples.indices.first(where: { Int(samples[$0]) != ($0 % 65536) - 32768 }) {
            XCTFail("\(what): sample \(k) is \(samples[k]), not \((k % 65536) - 32768): a sample doubled or missing before it", file: file, line: line)
        }
    }

    func testEverySampleOnceAcrossTheJoins() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try countingClip(dir)
        let original = try VideoSegmentTests.samples(input)
        XCTAssertEqual(original.count, 144_000)
        assertCounts(original, "the input")

        let single = dir.appendingPathComponent("single.mov"), joined = dir.appendingPathComponent("joined.mov")
        let one = try Veil.run(["video", input.path, "-o", single.path])
        XCTAssertEqual(one.status, 0, one.stderr)
        var parts: [URL] = []
        for i in 0..<3 {
            let part = dir.appendingPathComponent("part\(i).mov")
            let r = try Veil.run(["video", input.path, "--segment", "\(i)/3", "-o", part.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            parts.append(part)
        }
        let join = try Veil.run(["video", "join"] + parts.map(\.path) + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)
        XCTAssertEqual(try FFmpegTool.frameCount(joined.path), 75)

        // Each part's audio starts at its video's first frame, within one
        // audio packet (the cut falls between packets, never inside one).
        for part in parts.dropFirst() {
            let audioStart = try XCTUnwrap(try VideoSegmentTests.audioPackets(part).first).pts
            let videoStart = try XCTUnwrap(try VideoSegmentTests.frameTimes(part).first)
            XCTAssertEqual(Double(audioStart) / 48000, videoStart, accuracy: 1024.0 / 48000, part.lastPathComponent)
        }
        try VideoSegmentTests.assertAbutting(parts)
        let counted = try parts.map { try VideoSegmentTests.samples($0).count }
        XCTAssertEqual(counted.reduce(0, +), 144_000, "the parts' samples: \(counted)")
        let rejoined = try VideoSegmentTests.samples(joined)
        XCTAssertEqual(rejoined.count, 144_000)
        assertCounts(rejoined, "the joined audio")
        XCTAssertEqual(rejoined, try VideoSegmentTests.samples(single))
    }

    /// Audio the part's container cannot copy (PCM into mp4) would be
    /// re-encoded part by part, each with its encoder's priming: refused.
    func testASegmentDoesNotReencodeItsAudio() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try countingClip(dir), part = dir.appendingPathComponent("part1.mp4")
        let r = try Veil.run(["video", input.path, "--segment", "1/3", "-o", part.path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(".mov") && r.stderr.contains("--no-audio"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: part.path))
        let silent = try Veil.run(["video", input.path, "--segment", "1/3", "--no-audio", "-o", part.path])
        XCTAssertEqual(silent.status, 0, silent.stderr)
    }
}
