import Foundation
import XCTest

/// The Video tab's person tool in headless Chromium over `veil serve --media`
/// (issue 52): on a clip of one person in two shots with another beside her
/// (`TwoShotClip`), Browser/video-people-browser-test.py reads the person
/// proposed for each track, clicks her face in the second shot with the
/// person tool and renders; then her face is as filmed in both shots and
/// his is covered, judged here on the server's output.
final class ServeVideoPeopleBrowserTests: XCTestCase {
    func testVideoTabUncoversOnePersonInEveryShot() throws {
        try TestData.requireFaceModel([.retinaFace, .sface])
        let browser = try BrowserScript.require()
        let scratch = try TestData.scratch(self)
        let media = scratch.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let clip = media.appendingPathComponent("talk.mp4")
        try TwoShotClip.make(at: clip)
        let server = try ServeProcess(self, ["--media", media.path])
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-video-people")
        let face = TwoShotClip.astronautSecond
        let text = try browser.run("video-people-browser-test.py", ["http://127.0.0.1:\(server.port)/", "talk.mp4", artifacts.path,
                                                                    "\(TwoShotClip.shot + 2)", "\(face.x + face.width / 2)", "\(face.y + face.height / 2)"],
                                   timeout: 400)
        XCTAssertTrue(text.contains("browser test: ok"), text)

        // The covered video: hers as filmed in both shots, his covered.
        let downloads = artifacts.appendingPathComponent("downloads")
        let output = try XCTUnwrap(try FileManager.default.contentsOfDirectory(at: downloads, includingPropertiesForKeys: nil)
            .first { $0.pathExtension == "mp4" }, "the covered video was downloaded")
        let (source, covered) = (try TwoShotClip.greyFrames(clip), try TwoShotClip.greyFrames(output))
        XCTAssertEqual(covered.count, 2 * TwoShotClip.shot)
        let shot = TwoShotClip.shot
        for f in [1, shot - 2] { XCTAssertLessThan(TwoShotClip.change(source[f], covered[f], in: TwoShotClip.astronautFirst), 4, "frame \(f): her face as filmed") }
        for f in [shot + 1, 2 * shot - 2] {
            XCTAssertLessThan(TwoShotClip.change(source[f], covered[f], in: TwoShotClip.astronautSecond), 4, "frame \(f): her face as filmed")
            XCTAssertGreaterThan(TwoShotClip.change(source[f], covered[f], in: TwoShotClip.cameraman), 8, "frame \(f): his face covered")
        }
    }
}
