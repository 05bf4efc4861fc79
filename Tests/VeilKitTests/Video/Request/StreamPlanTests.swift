@testable import VeilKit
import XCTest

/// What an output does with the input's audio, decided in Swift: copied where
/// the container takes it, re-encoded where it does not, dropped when asked.
final class StreamPlanTests: XCTestCase {
    func testAACIsCopiedIntoMP4ReencodedIntoWebMAndDroppedWhenAsked() throws {
        let dir = try TestData.scratch(self)
        let clip = dir.appendingPathComponent("tone.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=64x64:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                      "-t", "0.4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", clip.path])
        let reader = VideoReader()
        try reader.open(clip.path, format: nil, maxPixels: 0)
        let streams = reader.streams()
        let audio = StreamPlan.actions(for: streams, format: "mp4", url: "out.mp4", dropOthers: false)
        XCTAssertEqual(audio.count, 2)
        XCTAssertEqual(audio.filter { $0 == .copy }.count, 1, "AAC goes into an mp4 as it is: \(audio)")
        XCTAssertEqual(StreamPlan.actions(for: streams, format: "webm", url: "out.webm", dropOthers: false).filter { $0 == .reencode }.count, 1,
                       "WebM takes Opus or Vorbis, not AAC")
        XCTAssertEqual(StreamPlan.actions(for: streams, format: nil, url: "out.mkv", dropOthers: false).filter { $0 == .copy }.count, 1, "the muxer from the name")
        XCTAssertEqual(StreamPlan.actions(for: streams, format: "mp4", url: "out.mp4", dropOthers: true), [.drop, .drop])
    }
}
