import Foundation
import VeilKit
import XCTest

/// Where the tests find their inputs: the sample photo installed by
/// scripts/setup, the shared dev data beside the checkout, and scratch space.
public enum TestData {
    public static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let shared = repoRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The sample photo (one face); skips the test if setup has not run.
    public static func astronaut() throws -> URL {
        let url = VeilHome.default.path(of: .astronaut)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("sample photo not installed: run scripts/setup")
        }
        return url
    }

    /// One of the sample photos (`Asset.kind == .sample`); skips if setup has not run.
    public static func sample(_ asset: Asset) throws -> URL {
        let url = VeilHome.default.path(of: asset)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("\(asset.name) not installed: run scripts/setup") }
        return url
    }

    /// Skips the test unless the runtime and the face models are installed (video detects with RetinaFace, photos with CenterFace).
    public static func requireFaceModel(_ models: [Asset] = [.centerFace, .retinaFace]) throws {
        for asset in [Asset.onnxRuntime] + models where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    /// The fixtures' scripts (Tests/Fixtures): clips made from the sample photo and their judge.
    public static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")

    /// The tests' panning clip over a crowd made from the sample photo
    /// (Tests/Fixtures/pan_clip.py: 960x540, 100 frames, faces labelled in
    /// every frame), written into `dir`; skips without Python's numpy and Pillow.
    public static func panClip(in dir: URL) throws -> (video: URL, labels: URL) {
        let video = dir.appendingPathComponent("pan.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", fixtures.appendingPathComponent("pan_clip.py").path, try astronaut().path, video.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if failure.contains("No module named") { throw XCTSkip("Python's numpy and Pillow make the test clip: run scripts/test (\(failure.suffix(80)))") }
        guard process.terminationStatus == 0 else { throw XCTSkip("Tests/Fixtures/pan_clip.py failed: \(failure)") }
        return (video, dir.appendingPathComponent("pan.json"))
    }

    /// A folder under ../shared/data, or a skip saying it is absent.
    public static func sharedData(_ relative: String) throws -> URL {
        let url = shared.appendingPathComponent("data").appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("needs dev data: \(url.path) is absent (../shared)")
        }
        return url
    }

    /// A fresh empty folder, removed when the test ends.
    public static func scratch(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("veil-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The face of the astronaut photo, labelled by eye (pixels, top-left origin).
    public static let astronautFace = ImageRect(x: 180, y: 62, width: 92, height: 116)
}
