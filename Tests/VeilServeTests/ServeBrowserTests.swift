import Foundation
import VeilKit
import XCTest

/// The web editor in headless Chromium: Browser/serve-browser-test.py drives
/// it (open, covered, click to uncover, confirm, download; the strip's face
/// counts, a file that is no photo, outlines hidden, solid colour and picture
/// styles; the status's words, and a long status that moves nothing; the
/// subject, tapped through a crop), keeping a
/// screenshot of each state in test-artifacts/serve-browser.
final class ServeBrowserTests: XCTestCase {
    func testEditorCoversUncoversConfirmsAndDownloads() throws {
        let python = TestData.repoRoot.appendingPathComponent(".build/browser-venv/bin/python")
        for (path, hint) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver"), (python.path, "selenium venv")]
            where !FileManager.default.isExecutableFile(atPath: path) {
            throw XCTSkip("\(hint) absent (\(path)): run scripts/setup-browser")
        }
        let server = try ServeProcess(self)
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-browser")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)

        // A photo without a face (flat grey, also the picture for the image style) and a file that is no image.
        let scratch = try TestData.scratch(self)
        let faceless = scratch.appendingPathComponent("grey.png"), notImage = scratch.appendingPathComponent("notes.jpg")
        try ImageEncoder(format: .png).write(try VeilImage.constant(RGB(128, 128, 128), size: PixelSize(width: 320, height: 240)), to: faceless)
        try Data("these are notes, not a photo\n".utf8).write(to: notImage)

        let process = Process()
        process.executableURL = python
        process.arguments = [TestData.repoRoot.appendingPathComponent("Tests/VeilServeTests/Browser/serve-browser-test.py").path,
                             "http://127.0.0.1:\(server.port)/", try TestData.astronaut().path, artifacts.path, faceless.path, notImage.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(150)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print(text)
        XCTAssertEqual(process.terminationStatus, 0, "\(text) (screenshots in \(artifacts.path))")
        XCTAssertTrue(text.contains("browser test: ok"), text)
    }

    /// Browser/text-browser-test.py: with Cover text on, the street scene's plate
    /// and shop sign are found and covered and drawn as text regions; a click
    /// uncovers the plate alone (its pixels the input's, the sign still
    /// covered, nothing detected again), another covers it again; the match
    /// `plates` leaves the sign alone. The scene as PNG: an uncovered region
    /// is then the input's pixels exactly.
    func testEditorShowsTextRegionsAndUncoversOne() throws {
        try editText(try TextScene.street(in: TestData.scratch(self)), artifacts: "serve-text")
    }

    /// The same on a real car's own plate (needs dev data).
    func testEditorCoversARealCarsPlate() throws {
        try editText(try TextScene.realCar(), artifacts: "serve-text-real-car")
    }

    /// Browser/people-browser-test.py: with Cover people on, two people standing
    /// apart are found, covered and outlined; a click uncovers one alone (their
    /// body the input's pixels, the other still covered, the models not run
    /// again), another covers them again; Cover people off leaves the bodies as they were.
    func testEditorCoversPeopleAndUncoversOne() throws {
        let browser = try BrowserScript.require()
        let scene = try PeopleScene.twoApart(in: TestData.scratch(self))
        let bodies = scene.faces.map { [$0.midX - 60, $0.y + 2.5 * $0.height, 120, 100] }
        let labels = try JSONSerialization.data(withJSONObject: ["bodies": bodies])
        let server = try ServeProcess(self)
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/serve-people")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let text = try browser.run("people-browser-test.py", ["http://127.0.0.1:\(server.port)/", scene.url.path, artifacts.path,
                                                              String(decoding: labels, as: UTF8.self)], timeout: 300)
        XCTAssertTrue(text.contains("browser test: ok"), text)
    }

    private func editText(_ scene: TextScene, artifacts folder: String) throws {
        let browser = try BrowserScript.require()
        let scratch = try TestData.scratch(self)
        let photo = scratch.appendingPathComponent("text-scene.png")
        try ImageEncoder(format: .png).write(try ImageDecoder().decode(.url(scene.url)).image, to: photo)
        let labels = try JSONSerialization.data(withJSONObject: ["plate": ["box": scene.plate.box], "sign": ["box": scene.sign.box]])
        let server = try ServeProcess(self)
        let artifacts = TestData.repoRoot.appendingPathComponent("test-artifacts/\(folder)")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let text = try browser.run("text-browser-test.py", ["http://127.0.0.1:\(server.port)/", photo.path, artifacts.path,
                                                            String(decoding: labels, as: UTF8.self)], timeout: 300)
        XCTAssertTrue(text.contains("browser test: ok"), text)
    }
}
