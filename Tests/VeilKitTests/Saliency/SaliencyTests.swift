import Foundation
@testable import VeilKit
import VeilTestSupport
import XCTest

/// Vision's two saliency requests on the sample photos, their subjects labelled by eye.
final class SaliencyTests: XCTestCase {
    private func requireModels() throws {
        for asset in [Asset.onnxRuntime, .u2netp, .centerFace] where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    private func contains(_ box: ImageRect, _ points: [(Double, Double)]) -> Bool {
        points.allSatisfy { box.x <= $0.0 && $0.0 <= box.x + box.width && box.y <= $0.1 && $0.1 <= box.y + box.height }
    }

    /// The rocket on its pad (its body x 312...338, y 135...405) and the cat's
    /// head (eyes at 170,115 and 318,137, nose at 262,240): one box each, round them.
    func testObjectnessBoxesHoldTheSubject() async throws {
        try requireModels()
        let rocket = try await GenerateObjectnessBasedSaliencyImageRequest().perform(on: TestData.sample(.rocket))
        XCTAssertEqual(rocket.salientObjects.count, 1)
        let r = try XCTUnwrap(rocket.salientObjects.first).boundingBox.toImageCoordinates(rocket.imageSize, origin: .upperLeft)
        XCTAssertTrue(contains(r, [(325, 150), (325, 270), (325, 390)]), "\(r)")
        XCTAssertLessThan(r.width, 80, "the box is the rocket's, not the towers'")

        let cat = try await GenerateObjectnessBasedSaliencyImageRequest().perform(on: TestData.sample(.chelsea))
        let c = try XCTUnwrap(cat.salientObjects.max { $0.boundingBox.width * $0.boundingBox.height < $1.boundingBox.width * $1.boundingBox.height })
            .boundingBox.toImageCoordinates(cat.imageSize, origin: .upperLeft)
        XCTAssertTrue(contains(c, [(170, 115), (318, 137), (262, 240)]), "\(c)")
        XCTAssertEqual(cat.heatMap.count, 68 * 68)
        XCTAssertTrue(cat.heatMap.allSatisfy { (0...1).contains($0) })
    }

    /// Attention peaks on the face and gives one box holding it; the sky away from the astronaut stays cold.
    func testAttentionPeaksOnTheFace() async throws {
        try requireModels()
        let observation = try await GenerateAttentionBasedSaliencyImageRequest().perform(on: TestData.astronaut())
        XCTAssertEqual(observation.salientObjects.count, 1)
        let face = TestData.astronautFace
        let box = observation.salientObjects[0].boundingBox.toImageCoordinates(observation.imageSize, origin: .upperLeft)
        XCTAssertTrue(contains(box, [(face.midX, face.midY)]))
        let s = Double(SaliencyImageObservation.side) / 512
        let peak = observation.heatMap[Int(face.midY * s) * 68 + Int(face.midX * s)]
        XCTAssertGreaterThan(peak, 0.9, "the face draws the eye")
        XCTAssertLessThan(observation.heatMap[3 * 68 + 64], 0.2, "the sky top right")
        let picture = try observation.heatMapImage()
        XCTAssertEqual(picture.size, PixelSize(width: 512, height: 512))
    }

    /// A region is kept when it reaches half the peak and taken down to 0.4 of it: an object
    /// whose map dips to 0.45 between its halves is one box, not the upper half alone; a blob
    /// that never reaches half the peak gives none.
    func testARegionThatDipsBelowHalfThePeakStaysOneBox() throws {
        var map = [Float](repeating: 0, count: 68 * 68)
        for y in 10..<50 { for x in 30..<36 { map[y * 68 + x] = y < 28 ? 1 : (y < 32 ? 0.45 : 0.8) } }  // the dip: rows 28...31
        for y in 55..<62 { for x in 5..<15 { map[y * 68 + x] = 0.45 } }  // never half the peak
        let observation = try SaliencyImageObservation(map: VeilImage(floats: map, width: 68, height: 68),
                                                       imageSize: PixelSize(width: 680, height: 680))
        XCTAssertEqual(observation.salientObjects.count, 1)
        let box = try XCTUnwrap(observation.salientObjects.first).boundingBox.toImageCoordinates(observation.imageSize, origin: .upperLeft)
        XCTAssertEqual(box.y, 100, accuracy: 10)
        XCTAssertEqual(box.y + box.height, 500, accuracy: 10, "the box reaches past the dip to the object's foot")
    }
}
