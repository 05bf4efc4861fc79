import Foundation
import VeilKit
import XCTest

/// A file given as a live source is shown at its own frame rate, as a camera
/// would send it: a viewer watching for 3 s sees about 3 s of it, not the
/// whole file again and again with most frames dropped.
final class LiveFilePacingTests: XCTestCase {
    func testAFileLiveSourceIsReadAtItsFrameRate() throws {
        let dir = try TestData.scratch(self)
        let clip = dir.appendingPathComponent("clip.mp4")
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 160, height: 160)
        let maker = try TestClip(path: clip.path, width: 160, height: 160, fps: 10, audio: .none)
        for _ in 0..<60 { try maker.add(face) }  // 6 s
        try maker.close()
        let server = try ServeProcess(self, ["--live", "clip=\(clip.path)"])
        let viewer = Process()
        viewer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        viewer.arguments = ["curl", "-s", "--max-time", "4", "-o", "/dev/null", "http://127.0.0.1:\(server.port)/v1/live/clip"]
        try viewer.run()
        viewer.waitUntilExit()
        let live = try XCTUnwrap((try server.request("GET", "/v1/live").json?["live"] as? [[String: Any]])?.first)
        let covered = try XCTUnwrap(live["covered"] as? Int), dropped = try XCTUnwrap(live["dropped"] as? Int)
        // At most 4 s of a 10 fps file (its first frame waits for the model), and next to nothing dropped.
        XCTAssertGreaterThan(covered, 5, "\(live)")
        XCTAssertLessThanOrEqual(covered, 42, "read faster than its frame rate: \(live)")
        XCTAssertLessThanOrEqual(dropped, 4, "\(live)")
    }
}
