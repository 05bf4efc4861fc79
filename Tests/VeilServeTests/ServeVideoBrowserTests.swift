import Foundation
import XCTest

/// The editor's Video tab in headless Chromium over `veil serve --media`:
/// Browser/video-browser-test.py picks the panning clip (TestData.panClip),
/// plays it, uncovers a track, adds a box, renders and downloads;
/// Browser/judge-video.py then judges the download's pixels with
/// Tests/Fixtures/cover_judge.py.
final class ServeVideoBrowserTests: XCTestCase {
    func testVideoTabPicksPlaysDropsAddsRendersAndDownloads() throws {
        let browser = try BrowserScript.require()
        let scratch = try TestData.scratch(self)
        let clip = try TestData.panClip(in: scratch)
        let media = scratch.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: clip.video, to: media.appendingPathComponent("pan.mp4"))
        let server = try ServeProcess(self, ["--media", media.path])
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-video")

        let text = try browser.run("video-browser-test.py", ["http://127.0.0.1:\(server.port)/", "pan.mp4", artifacts.path], timeout: 400)
        XCTAssertTrue(text.contains("browser test: ok"), text)
        let judged = try BrowserScript.judge("judge-video.py", [clip.video.path, clip.labels.path,
                                                                 artifacts.appendingPathComponent("video-check.json").path])
        XCTAssertTrue(judged.contains("judge: ok"), judged)
    }
}

/// Runs the Python scripts of Browser/: selenium's in the venv
/// scripts/setup-browser makes; the pixel judges with the python3 that has
/// numpy (../shared/tools/covered.py needs it).
struct BrowserScript {
    let python: URL

    static func require() throws -> BrowserScript {
        let python = TestData.repoRoot.appendingPathComponent(".build/browser-venv/bin/python")
        for (path, hint) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver"), (python.path, "selenium venv")]
            where !FileManager.default.isExecutableFile(atPath: path) {
            throw XCTSkip("\(hint) absent (\(path)): run scripts/setup-browser")
        }
        return BrowserScript(python: python)
    }

    static let folder = TestData.repoRoot.appendingPathComponent("Tests/VeilServeTests/Browser")

    /// The script's output; fails the test (with it) on a non-zero exit.
    func run(_ script: String, _ arguments: [String], timeout: Double) throws -> String {
        try BrowserScript.run(python.path, [BrowserScript.folder.appendingPathComponent(script).path] + arguments, timeout: timeout)
    }

    /// A judge run with python3 and numpy, handed the fixtures' folder (cover_judge.py) last.
    static func judge(_ script: String, _ arguments: [String]) throws -> String {
        if try launch("/usr/bin/env", ["python3", "-c", "import numpy"], timeout: 30).status != 0 {
            throw XCTSkip("python3 with numpy is needed to judge the pixels: run scripts/test")
        }
        return try run("/usr/bin/env", ["python3", folder.appendingPathComponent(script).path] + arguments + [TestData.fixtures.path], timeout: 120)
    }

    static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> String {
        let (status, text) = try launch(executable, arguments, timeout: timeout)
        print(text)
        XCTAssertEqual(status, 0, text)
        return text
    }

    private static func launch(_ executable: String, _ arguments: [String], timeout: Double) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
