import Foundation
import VeilKit
import XCTest

/// The editor's Live tab in headless Chromium over `veil serve --live`, fed
/// the panning clip (TestData.panClip) paced in real time over UDP by ffmpeg: frames arrive in the
/// browser with their faces covered (Browser/judge-live.py matches each frame
/// shown to its source frame and judges the labelled faces with
/// Tests/Fixtures/cover_judge.py), and the style changes live.
final class ServeLiveBrowserTests: XCTestCase {
    func testLiveTabShowsAPacedStreamCovered() throws {
        let browser = try BrowserScript.require()
        let scratch = try TestData.scratch(self)
        let clip = try TestData.panClip(in: scratch)
        let port = try LoopbackUDP.freePort()
        let sender = try BackgroundProcess.ffmpeg(["-re", "-stream_loop", "-1", "-i", clip.video.path, "-c", "copy", "-f", "mpegts",
                                                   "udp://127.0.0.1:\(port)?pkt_size=1316"], scratch: scratch)
        addTeardownBlock { sender.send(SIGTERM); _ = sender.wait(timeout: 5) }
        let server = try ServeProcess(self, ["--live", "pan=udp://127.0.0.1:\(port)"])
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-live")

        let text = try browser.run("live-browser-test.py", ["http://127.0.0.1:\(server.port)/", "pan", try TestData.astronaut().path, artifacts.path],
                                   timeout: 240)
        XCTAssertTrue(text.contains("browser test: ok"), text)
        let judged = try BrowserScript.judge("judge-live.py", [clip.video.path, clip.labels.path, artifacts.path])
        XCTAssertTrue(judged.contains("judge: ok"), judged)

        // The latency of what was shown is in /metrics.
        let metrics = String(decoding: try server.request("GET", "/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("veil_live_latency_seconds{source=\"pan\",quantile=\"0.99\"}"), metrics)
    }

    /// A file as a live source, in the Live tab: the frames the page reports
    /// shown grow at the file's own rate over 3 s (not the whole file at once,
    /// most of it dropped: "738 frames shown, 987 dropped").
    func testLiveTabShowsAFileAtItsFrameRate() throws {
        let browser = try BrowserScript.require()
        let scratch = try TestData.scratch(self)
        let clip = scratch.appendingPathComponent("clip.mp4")
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 160, height: 160)
        let maker = try TestClip(path: clip.path, width: 160, height: 160, fps: 10, audio: .none)
        for _ in 0..<150 { try maker.add(face) }  // 15 s, longer than the test watches
        try maker.close()
        let server = try ServeProcess(self, ["--live", "clip=\(clip.path)"])
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-live-file")
        let text = try browser.run("live-file-browser-test.py", ["http://127.0.0.1:\(server.port)/", "clip", "10", artifacts.path], timeout: 180)
        XCTAssertTrue(text.contains("browser test: ok"), text)
    }
}
