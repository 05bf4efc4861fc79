import Foundation
@testable import VeilKit
import XCTest

final class VideoCommandTests: XCTestCase {
    func testCoversAClipAndWritesPerFrameJSON() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let clip = try TestClip(path: input.path, width: 512, height: 512, fps: 25, audio: .aac)
        for _ in 0..<10 { try clip.add(photo) }
        try clip.close()
        let json = dir.appendingPathComponent("frames.json")
        let result = try Veil.run(["video", input.path, "-o", output.path, "--json", json.path, "--detect-every", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("10 frames"), result.stdout)
        let (mask, frames) = try Self.frameLog(json)
        XCTAssertEqual(mask["shape"] as? String, "disc")
        XCTAssertEqual(frames.map { $0["frame"] as? Int }, Array(0..<10))
        for frame in frames {
            let faces = try XCTUnwrap(frame["faces"] as? [[String: Any]])
            XCTAssertEqual(faces.count, 1, "\(frame)")
            XCTAssertEqual(faces[0]["id"] as? Int, 1)
            XCTAssertEqual(faces[0]["detected"] as? Bool, (frame["frame"] as! Int) % 3 == 0)
        }
    }

    /// `--json` is JSON Lines: a mask line, then one object per frame.
    static func frameLog(_ url: URL) throws -> (mask: [String: Any], frames: [[String: Any]]) {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0)) }
        let mask = try XCTUnwrap(objects.first?["mask"] as? [String: Any])
        return (mask, Array(objects.dropFirst()))
    }

    func testBadInputsAndFlags() throws {
        let dir = try TestData.scratch(self)
        let text = dir.appendingPathComponent("t.mp4")
        try Data("hello".utf8).write(to: text)
        let broken = try Veil.run(["video", text.path, "-o", dir.appendingPathComponent("o.mp4").path])
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stderr.split(separator: "\n").count, 1, broken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.mp4").path))
        for args in [["video"], ["video", text.path], ["video", text.path, "-o", "x.mp4", "--crf", "99"], ["video", text.path, "-o", text.path]] {
            let r = try Veil.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
    }
}
