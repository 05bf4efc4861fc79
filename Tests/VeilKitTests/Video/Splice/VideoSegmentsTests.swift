import Foundation
@testable import VeilKit
import XCTest

/// The plan of a split (`VideoSegments.plan`) and the join's refusals, on
/// real files made by ffmpeg.
final class VideoSegmentsTests: XCTestCase {
    /// 4 s at 25 fps, a keyframe every 10 frames: 10 keyframes.
    private func clip(_ dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("in.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=25", "-t", "4", "-c:v", "libx264", "-preset", "ultrafast",
                                      "-g", "10", "-pix_fmt", "yuv420p", url.path])
        return url
    }

    func testRangesFollowEachOtherAndCoverTheWholeVideo() throws {
        let input = try clip(try TestData.scratch(self))
        for count in [1, 2, 3, 7, 10, 11, 40] {
            let plan = try VideoSegments.plan(input.path, count: count)
            XCTAssertEqual(plan.count, count)
            XCTAssertNil(plan.first?.start)
            XCTAssertNil(plan.last?.end)
            for (a, b) in zip(plan, plan.dropFirst()) {
                XCTAssertEqual(a.end, b.start, "\(count) segments: a gap or an overlap")
                XCTAssertLessThan(a.start ?? .min, a.end ?? .max)
                if let seek = b.seek { XCTAssertLessThan(seek, b.start!) }
            }
            XCTAssertEqual(try VideoSegments.plan(input.path, count: count), plan, "two tasks must get the same plan")
        }
        // Cut at any frame, not only at the 10 keyframes: 11 and 40 segments too.
        XCTAssertEqual(try VideoSegments.plan(input.path, count: 40).count, 40)
        XCTAssertThrowsError(try VideoSegments.plan(input.path, count: 101)) { error in
            XCTAssertTrue("\(error)".contains("100 frame(s)"), "\(error)")
        }
    }

    func testJoinRefusesPartsOutOfOrderAndLeavesNothing() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try clip(dir)
        var parts: [String] = []
        for segment in try VideoSegments.plan(input.path, count: 2) {
            var anonymizer = VideoAnonymizer()
            anonymizer.source.segment = segment
            let part = dir.appendingPathComponent("part\(segment.index).mp4").path
            _ = try await anonymizer.run(input: input.path, output: part)
            parts.append(part)
        }
        let output = dir.appendingPathComponent("joined.mp4").path
        XCTAssertThrowsError(try VideoJoin.copy(parts: parts.reversed(), output: output)) { error in
            XCTAssertTrue("\(error)".contains("overlaps"), "\(error)")
        }
        XCTAssertThrowsError(try VideoJoin.copy(parts: [parts[0], parts[0]], output: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        try VideoJoin.copy(parts: parts, output: output)
        XCTAssertEqual(try FFmpegTool.frameCount(output), 100)
    }

    /// A part's mp4 clock holds both tracks' clocks: the video's as the muxer
    /// makes it (1/25 s doubled to 1/12800) and the audio's sample rate.
    func testAPartsClockHoldsEveryTrack() {
        XCTAssertEqual(SegmentClock.videoTimescale(timeBaseDenominator: 25), 12_800)
        XCTAssertEqual(SegmentClock.videoTimescale(timeBaseDenominator: 90_000), 90_000)
        XCTAssertEqual(SegmentClock.movieTimescale(video: 12_800, audioSampleRate: 48_000), 192_000)
        XCTAssertEqual(SegmentClock.movieTimescale(video: 90_000, audioSampleRate: 44_100), 4_410_000)
        XCTAssertEqual(SegmentClock.movieTimescale(video: 15_360, audioSampleRate: 0), 15_360)
        // Past 31 bits: the muxer's default (nil), not a clock that wraps.
        XCTAssertNil(SegmentClock.movieTimescale(video: 1_000_003, audioSampleRate: 44_111))
        for (video, rate) in [(12_800, 48_000), (30_000, 44_100), (15_360, 22_050), (90_000, 8_000)] {
            let movie = SegmentClock.movieTimescale(video: video, audioSampleRate: rate)!
            XCTAssertEqual(movie % video, 0)
            XCTAssertEqual(movie % rate, 0)
        }
    }
}
