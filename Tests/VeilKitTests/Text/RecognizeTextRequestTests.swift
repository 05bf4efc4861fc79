import Foundation
@testable import VeilKit
import XCTest

final class RecognizeTextRequestTests: XCTestCase {
    private func letters(_ s: String) -> String { s.filter { !$0.isWhitespace } }

    /// The plate and the real shop sign are both found and read; the plate's
    /// quadrilateral holds its labelled box and its reading is exact.
    func testCarPlateAndShopSignAreRead() async throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let size = scene.size
        let lines = try await RecognizeTextRequest().perform(on: scene.url)
        let plate = try XCTUnwrap(lines.first { letters($0.topCandidates(1).first?.string ?? "") == letters(scene.plate.text) },
                                  "plate not read: \(lines.map { $0.topCandidates(1).first?.string ?? "" })")
        XCTAssertGreaterThan(plate.confidence, 0.9)
        XCTAssertFalse(plate.upsideDown)
        let box = plate.boundingBox.toImageCoordinates(size, origin: .upperLeft)
        let label = scene.plate.rect
        XCTAssertEqual(box.intersection(label)?.area ?? 0, label.area, accuracy: label.area * 0.02, "plate box \(box) against label \(label)")
        XCTAssertLessThan(box.area, label.area * 3, "plate box \(box) much larger than the plate \(label)")
        XCTAssertTrue(lines.contains { ($0.topCandidates(1).first?.string ?? "").hasPrefix("BIANCH") }, "\(lines.map(\.candidates))")
        // Vision's order: corners normalized with the origin lower-left, so the top edge has the larger y.
        XCTAssertGreaterThan(plate.region.topLeft.y, plate.region.bottomLeft.y)
        XCTAssertLessThan(plate.region.topLeft.x, plate.region.topRight.x)
        XCTAssertEqual(plate.topCandidates(0).count, 0)
        XCTAssertEqual(plate.topCandidates(5).count, 1)
    }

    /// The photo turned half a turn: the orientation model turns the plate back and it reads the same.
    func testUpsideDownPlateIsReadThroughTheOrientationModel() async throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let image = try ImageDecoder().decode(.url(scene.url)).image.applying(.down)
        let lines = try await RecognizeTextRequest().perform(on: image)
        let plate = try XCTUnwrap(lines.first { letters($0.topCandidates(1).first?.string ?? "") == letters(scene.plate.text) },
                                  "plate not read upside down: \(lines.map { $0.topCandidates(1).first?.string ?? "" })")
        XCTAssertTrue(plate.upsideDown)
    }

    /// A JPEG stored a quarter turn off with its EXIF orientation saying so:
    /// regions refer to the upright photo, where the plate is.
    func testExifOrientationIsHonoured() async throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let upright = try ImageDecoder().decode(.url(scene.url)).image
        let stored = try upright.applying(.left)  // turned so that orientation 6 (.right) makes it upright again
        let url = dir.appendingPathComponent("tagged.jpg")
        try TestImages.writeJPEG(stored, orientation: .right, to: url)
        let regions = try await DetectTextRectanglesRequest().perform(on: url)
        let boxes = regions.map { $0.boundingBox.toImageCoordinates(upright.size, origin: .upperLeft) }
        XCTAssertTrue(boxes.contains { $0.iou(scene.plate.rect) > 0.4 }, "no region on the plate \(scene.plate.rect): \(boxes)")
    }

    /// `.fast` still reads the plate of a small photo (one pass, no enlarging).
    func testFastLevelReadsThePlate() async throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        var request = RecognizeTextRequest()
        request.recognitionLevel = .fast
        let lines = try await request.perform(on: scene.url)
        XCTAssertTrue(lines.contains { letters($0.topCandidates(1).first?.string ?? "") == letters(scene.plate.text) },
                      "\(lines.map { $0.topCandidates(1).first?.string ?? "" })")
    }

    /// A cancelled task stops with CancellationError, not a result.
    func testCancellationStopsTheRequest() async throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let task = Task { try await RecognizeTextRequest().perform(on: scene.url) }
        task.cancel()
        do { _ = try await task.value; XCTFail("a cancelled request returned") } catch is CancellationError {}
    }

    /// The character list is the recogniser's own metadata: blank, 6,623 characters, space.
    func testCharacterListComesFromTheModel() throws {
        try TestData.requireFaceModel([.textRecognizer])
        let bytes = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .textRecognizer)))
        let list = try TextRecognitionNetwork.characterList(bytes)
        XCTAssertEqual(list.count, 6625)
        XCTAssertEqual(list.first, "blank")
        XCTAssertEqual(list.last, " ")
        XCTAssertTrue(list.contains("A") && list.contains("7") && list.contains("@"))
    }
}
