import Foundation
import VeilKit
import XCTest


final class FacesCommandTests: XCTestCase {
    func testJSONShapeForSamplePhoto() throws {
        try TestData.requireFaceModel()
        let photo = try TestData.astronaut()
        let result = try Veil.run(["faces", "--json", photo.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let images = try XCTUnwrap(json["images"] as? [[String: Any]])
        XCTAssertEqual(images.count, 1)
        XCTAssertEqual(images[0]["file"] as? String, photo.path)
        XCTAssertEqual(images[0]["width"] as? Int, 512)
        XCTAssertEqual(images[0]["height"] as? Int, 512)
        let faces = try XCTUnwrap(images[0]["faces"] as? [[String: Any]])
        XCTAssertEqual(faces.count, 1)
        let face = faces[0]
        let x = try XCTUnwrap(face["x"] as? Double), y = try XCTUnwrap(face["y"] as? Double)
        let w = try XCTUnwrap(face["width"] as? Double), h = try XCTUnwrap(face["height"] as? Double)
        XCTAssertGreaterThan(ImageRect(x: x, y: y, width: w, height: h).iou(TestData.astronautFace), 0.6)
        let landmarks = try XCTUnwrap(face["landmarks"] as? [[Double]])
        XCTAssertEqual(landmarks.count, 5)
        for p in landmarks { XCTAssertTrue(p[0] >= x && p[0] <= x + w && p[1] >= y && p[1] <= y + h, "\(p)") }
        // The normalized box is the pixel box with the origin moved to the lower left.
        let box = try XCTUnwrap(face["boundingBox"] as? [String: Double])
        XCTAssertEqual(box["x"]!, x / 512, accuracy: 1e-3)
        XCTAssertEqual(box["y"]!, 1 - (y + h) / 512, accuracy: 1e-3)
        XCTAssertEqual(box["width"]!, w / 512, accuracy: 1e-3)
        XCTAssertNotNil(face["confidence"] as? Double)
    }

    func testBadFilesAreReportedAndTheOthersStillProcessed() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = try TestData.astronaut().path
        let empty = try TestImages.file("empty.jpg", [], in: dir).path
        let text = try TestImages.file("text.png", Array("not an image".utf8), in: dir).path
        let huge = try TestImages.file("huge.png", TestImages.pngHeader(width: 30000, height: 30000), in: dir).path
        let missing = dir.appendingPathComponent("missing.jpg").path
        let result = try Veil.run(["faces", "--json", empty, photo, text, huge, missing, dir.path])
        XCTAssertEqual(result.status, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let images = try XCTUnwrap(json["images"] as? [[String: Any]])
        XCTAssertEqual(images.map { $0["file"] as? String }, [empty, photo, text, huge, missing, dir.path])
        XCTAssertEqual((images[1]["faces"] as? [Any])?.count, 1)
        for i in [0, 2, 3, 4, 5] {
            let message = try XCTUnwrap(images[i]["error"] as? String, "entry \(i)")
            XCTAssertFalse(message.isEmpty)
        }
        // One line on stderr per bad file, nothing else.
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 5, result.stderr)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("veil: ") }, result.stderr)
    }

    func testTableOutputAndPreview() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let preview = dir.appendingPathComponent("preview.png")
        let result = try Veil.run(["faces", try TestData.astronaut().path, "--preview", preview.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("1 face"), result.stdout)
        let drawn = try ImageDecoder().decode(.url(preview)).image
        let original = try ImageDecoder().decode(.url(TestData.astronaut())).image
        XCTAssertEqual(drawn.size, original.size)
        XCTAssertGreaterThan(try TestImages.meanAbsoluteDifference(drawn, original), 0.05, "nothing drawn")
    }

    func testBadFlagsAreUsageErrors() throws {
        for args in [["faces"], ["faces", "--threshold", "2", "x.jpg"], ["faces", "--bogus", "x.jpg"], ["frobnicate"], ["faces", "--threshold"]] {
            let result = try Veil.run(args)
            XCTAssertEqual(result.status, 2, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(args): \(result.stderr)")
        }
    }

    func testModelsListsInstalledAssetsWithChecksums() throws {
        try TestData.requireFaceModel()
        let result = try Veil.run(["models"])
        XCTAssertTrue(result.stdout.contains("centerface"), result.stdout)
        XCTAssertTrue(result.stdout.contains("sha256 ok"), result.stdout)
    }
}
