import CVideoShim
import Foundation
@testable import VeilKit
import XCTest

/// The shim says which step failed and FFmpeg's code; the words are
/// `VideoShimFailure`'s. Every step has its own sentence, and real failures
/// of real files read as they did when C wrote them.
final class VideoShimFailureTests: XCTestCase {
    func testEveryStepHasItsOwnWords() {
        var seen: [String: Int] = [:]
        for step in 1...VEIL_FAILED_PART_STREAMS {
            var failure = VideoShimFailure(part: "p.mp4")
            failure.raw.step = Int32(step)
            failure.raw.detail = (640, 480, 1000)
            XCTAssertNotEqual(failure.what, "out of memory", "step \(step) has no words")
            XCTAssertNil(seen[failure.what], "steps \(seen[failure.what] ?? 0) and \(step) read the same")
            seen[failure.what] = step
        }
        var limit = VideoShimFailure()
        (limit.raw.step, limit.raw.detail) = (Int32(VEIL_FAILED_FRAMES_OVER_LIMIT), (640, 480, 1000))
        XCTAssertEqual(limit.description, "frames of 640x480 (307200 pixels) are over the limit of 1000 pixels")
    }

    func testFFmpegsReasonFollowsTheStep() throws {
        let dir = try TestData.scratch(self)
        let missing = dir.appendingPathComponent("missing.mp4").path
        let reader = VideoReader()
        XCTAssertThrowsError(try reader.open(missing, format: nil, maxPixels: 0)) { error in
            XCTAssertEqual("\(error)".contains("cannot open the input: No such file or directory"), true, "\(error)")
        }
        let text = dir.appendingPathComponent("notes.txt")
        try Data("not a video\n".utf8).write(to: text)
        XCTAssertThrowsError(try VideoReader().open(text.path, format: nil, maxPixels: 0)) { error in
            XCTAssertTrue("\(error)".contains("cannot open the input: Invalid data found"), "\(error)")
        }
        XCTAssertThrowsError(try VideoReader().open(missing, format: "no-such-format", maxPixels: 0)) { error in
            XCTAssertTrue("\(error)".contains("unknown input format"), "\(error)")
        }
    }

    func testAJoinNamesThePartItCannotRead() throws {
        let dir = try TestData.scratch(self)
        let part = dir.appendingPathComponent("part-1.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=25", "-t", "0.4", "-c:v", "libx264", "-preset", "ultrafast", part.path])
        let missing = dir.appendingPathComponent("part-2.mp4").path
        let output = dir.appendingPathComponent("joined.mp4").path
        XCTAssertThrowsError(try VideoJoin.copy(parts: [part.path, missing], output: output)) { error in
            XCTAssertTrue("\(error)".contains("cannot read part \(missing): No such file or directory"), "\(error)")
        }
        XCTAssertThrowsError(try VideoJoin.copy(parts: [missing, part.path], output: output)) { error in
            XCTAssertTrue("\(error)".contains("cannot read part \(missing)"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
