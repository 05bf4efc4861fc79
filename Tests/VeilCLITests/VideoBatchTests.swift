import Foundation
import VeilKit
import XCTest

/// `veil video INPUT... --out-dir DIR` split over array tasks: each clip made
/// by exactly one task, a re-run writes nothing, `veil status` says complete.
final class VideoBatchTests: XCTestCase {
    func testClipsSplitOverTwoShardsAndSkippedWhenDone() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), output = dir.appendingPathComponent("out")
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 160, height: 160)
        var relatives: [String] = []
        for (i, relative) in ["a/one.mp4", "a/b/two.mp4", "three.mp4"].enumerated() {
            let url = input.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let clip = try TestClip(path: url.path, width: 160, height: 160, fps: 10, audio: i == 0 ? .aac : .none)
            for _ in 0..<(4 + i) { try clip.add(face) }
            try clip.close()
            relatives.append(relative)
        }
        for index in 0..<2 {
            let run = try Veil.run(["video", input.path, "--out-dir", output.path, "--shard", "\(index)/2"], timeout: 300)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let summary = BatchSummary(record: BatchRecord(outputFolder: output))
        XCTAssertTrue(summary.isComplete, "\(summary.missing) \(summary.failed)")
        XCTAssertEqual(summary.done.sorted(), relatives.sorted())
        for relative in relatives {
            XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent(relative).path), relative)
        }
        let again = try Veil.run(["video", input.path, "--out-dir", output.path], timeout: 300)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout.components(separatedBy: "already done").count - 1, 3, again.stdout)
        XCTAssertEqual(try Veil.run(["status", output.path, input.path]).status, 0)
    }
}
