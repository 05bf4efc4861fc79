import Foundation
import VeilKit
import XCTest

/// The Video tab on the video's own clock (issue 51), in headless Chromium:
/// Browser/video-clock-browser-test.py opens clips whose frames are not at
/// index ÷ fps (ClockClips: a video starting 0.85 s after its audio, an edit
/// list, a variable frame rate), seeks, plays and pauses, and compares the
/// picture the `<video>` shows with the frame the page says it is on, as
/// FFmpeg decodes it; then clicks the astronaut's face to hit its track.
final class ServeVideoClockBrowserTests: XCTestCase {
    func testVideoTabShowsTheFrameItSaysOnTheVideosClock() throws {
        let browser = try BrowserScript.require()
        try TestData.requireFaceModel()
        let scratch = try TestData.scratch(self)
        let media = scratch.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        // The frames of the second shot to click its face on, and frames to seek to: each clip's
        // first and last, and ones index ÷ fps would show as others (at 0.97 s and after the cut).
        let plan: [(ClockClips.Kind, seek: [Int], faceFrame: Int)] = [
            (.offset, [0, 29, 40, ClockClips.frames - 1], 45),
            (.editList, [0, 20, 30, ClockClips.frames - 14], 30),
            (.variable, [0, 21, 30, 50, ClockClips.frames - 1], 45),
        ]
        var clips: [[String: Any]] = []
        let face = ClockClips.face(after: true)
        for (kind, seek, faceFrame) in plan {
            let clip = try ClockClips.make(kind, in: scratch)
            let name = clip.lastPathComponent
            try FileManager.default.moveItem(at: clip, to: media.appendingPathComponent(name))
            // Every frame FFmpeg decodes (none dropped or repeated), as 4x4 block means: what the page's pictures are held to.
            let frames = scratch.appendingPathComponent(kind.rawValue + ".rgb")
            try FFmpegTool.run("ffmpeg", ["-i", media.appendingPathComponent(name).path, "-map", "0:v", "-fps_mode", "passthrough",
                                          "-vf", "scale=\(ClockClips.width / 4):\(ClockClips.height / 4):flags=area",
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", frames.path])
            let (w, h) = (Double(ClockClips.width), Double(ClockClips.height))
            clips.append(["name": name, "frames": frames.path, "seek": seek, "faceFrame": faceFrame,
                          "face": [face.x / w, face.y / h, face.width / w, face.height / h]])
        }
        let list = scratch.appendingPathComponent("clips.json")
        try JSONSerialization.data(withJSONObject: clips).write(to: list)
        let server = try ServeProcess(self, ["--media", media.path])
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-video-clock")
        let text = try browser.run("video-clock-browser-test.py", ["http://127.0.0.1:\(server.port)/", list.path, artifacts.path], timeout: 600)
        XCTAssertTrue(text.contains("browser test: ok"), text)
    }
}
