import Foundation
@testable import VeilKit
import XCTest

/// Nothing is written outside the outputs and $VEIL_HOME (issue 28): each
/// command run with a fresh, empty HOME leaves it empty. ONNX Runtime's
/// telemetry wrote a device id and an event database under
/// ~/.cache/Microsoft on every run until Veil turned it off.
final class NothingOutsideTheOutputsTests: XCTestCase {
    func testEachCommandLeavesAFreshHomeEmpty() throws {
        try TestData.requireFaceModel([.centerFace, .retinaFace, .u2netp, .textDetector, .textRecognizer, .textOrientation])
        let dir = try TestData.scratch(self)
        let home = dir.appendingPathComponent("home"), out = dir.appendingPathComponent("out")
        for folder in [home, out] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let photo = try TestData.astronaut()
        let clip = out.appendingPathComponent("clip.mp4")
        let frames = try TestClip(path: clip.path, width: 256, height: 256, fps: 25, audio: .none)
        let face = try ImageDecoder().decode(.url(photo)).image.resized(width: 256, height: 256)
        for _ in 0..<5 { try frames.add(face) }
        try frames.close()
        let environment = ["HOME": home.path, "VEIL_HOME": VeilHome.default.url.path, "XDG_CACHE_HOME": "", "ORT_DISABLE_TELEMETRY": ""]
        for command in [["faces", photo.path], ["blur", photo.path, "-o", out.appendingPathComponent("a.png").path, "--no-ledger"],
                        ["lift", photo.path, "-o", out.appendingPathComponent("b.png").path, "--no-ledger"],
                        ["video", clip.path, "-o", out.appendingPathComponent("c.mp4").path, "--no-ledger"],
                        ["text", photo.path], ["video", "tracks", out.appendingPathComponent("c.mp4.veil.json").path],
                        ["models", "list"]] {
            let result = try Veil.run(command, environment: environment)
            XCTAssertEqual(result.status, 0, "veil \(command[0]): \(result.stderr)")
            let left = FileManager.default.enumerator(atPath: home.path).map { $0.compactMap { $0 as? String } } ?? []
            XCTAssertEqual(left, [], "veil \(command[0]) wrote into HOME")
        }
    }
}
