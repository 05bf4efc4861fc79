import Foundation
@testable import VeilKit
import VeilTestSupport
import XCTest

/// The person requests with the real converted model, on the sample photos.
final class PeopleTests: XCTestCase {
    private func requireModels() throws {
        for asset in [Asset.onnxRuntime, .selfieSegmentation, .centerFace, .u2netp]
        where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    /// The TFLite model converted to ONNX gives what MediaPipe's own runtime gives
    /// on the same 256x256 crops (Tests/Fixtures/selfie-reference-*.png, made by
    /// bench/selfie_reference.py with the mediapipe wheel): to within rounding.
    func testConvertedModelGivesMediaPipesOwnOutputs() async throws {
        try requireModels()
        let network = try await PersonSegmentationNetwork.load(home: .default, device: .cpu)
        for (name, asset, x, y) in [("astronaut", Asset.astronaut, 128, 0), ("cameraman", .cameraman, 96, 64)] {
            let photo = try ImageDecoder().decode(.url(TestData.sample(asset))).image.srgb8()
            let crop = try photo.cropped(to: PixelRect(x: x, y: y, width: 256, height: 256)).materialized()
            let map = try await network.map(for: crop)
            let reference = try ImageDecoder().decode(.url(TestData.fixtures.appendingPathComponent("selfie-reference-\(name).png")))
                .image.band(0).pixelBytes()
            XCTAssertEqual(reference.count, map.count)
            let errors = zip(map, reference).map { abs(Double($0) * 255 - Double($1)) }
            XCTAssertLessThanOrEqual(errors.max() ?? 99, 1.5, "\(name): largest difference in 8-bit levels")
            XCTAssertLessThan(errors.reduce(0, +) / Double(errors.count), 0.6, name)
            let marked = Double(map.filter { $0 > 0.5 }.count) / Double(map.count)
            XCTAssertGreaterThan(marked, 0.3, "\(name): the person is most of the crop")
        }
    }

    /// Bytes that are not a TFLite model, or a damaged one, are refused with an error, never a crash.
    func testConverterRefusesWhatIsNotAModel() throws {
        XCTAssertThrowsError(try TFLiteToONNX.convert(Array("not a model".utf8)))
        var generator = SystemRandomNumberGenerator()
        for size in [8, 12, 16, 64, 256, 4096] {
            for _ in 0..<50 {
                var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes.replaceSubrange(4..<8, with: Array("TFL3".utf8))
                XCTAssertThrowsError(try TFLiteToONNX.convert(bytes))
            }
        }
    }

    func testAPersonIsMaskedAndTheBackgroundIsNot() async throws {
        try requireModels()
        let people = try await GeneratePersonSegmentationRequest().perform(on: TestData.astronaut())
        XCTAssertEqual(people.faces.count, 1)
        let mask = try people.generateScaledMask()
        XCTAssertEqual(mask.width, 512)
        let values = try mask.values()
        let face = TestData.astronautFace
        XCTAssertGreaterThan(values[Int(face.midY) * 512 + Int(face.midX)], 0.9, "the face is the person's")
        XCTAssertGreaterThan(values[400 * 512 + 200], 0.9, "the suit is the person's")
        XCTAssertLessThan(values[20 * 512 + 480], 0.1, "the sky top right is not")
        XCTAssertTrue((0.3...0.8).contains(people.coverage), "\(people.coverage)")
        let cutout = try people.generateMaskedImage()
        XCTAssertEqual(cutout.bands, 4)
    }

    /// A cat, a rocket, a cup of coffee: nobody, so nothing is marked.
    func testPhotosWithoutPeopleMarkNothing() async throws {
        try requireModels()
        for asset in [Asset.chelsea, .rocket, .coffee] {
            let url = try TestData.sample(asset)
            let people = try await GeneratePersonSegmentationRequest().perform(on: url)
            XCTAssertLessThanOrEqual(people.coverage, 0.02, asset.name)
            let instances = try await GeneratePersonInstanceMaskRequest().perform(on: url)
            XCTAssertNil(instances, asset.name)
        }
    }

    func testTwoPeopleStandingApartAreTwoInstances() async throws {
        try requireModels()
        let scene = try PeopleScene.twoApart(in: TestData.scratch(self))
        let observation = try await GeneratePersonInstanceMaskRequest().perform(on: scene.url)
        let people = try XCTUnwrap(observation)
        XCTAssertEqual(people.allInstances.count, 2)
        let labels = scene.faces.map { face in
            people.instance(at: NormalizedPoint(x: face.midX / Double(scene.size.width), y: face.midY / Double(scene.size.height)), origin: .upperLeft)
        }
        XCTAssertNotNil(labels[0]); XCTAssertNotNil(labels[1])
        XCTAssertNotEqual(labels[0], labels[1], "each person their own instance")
        for (label, face) in zip(labels, scene.faces) {
            let box = try XCTUnwrap(people.instances.first { $0.label == label }).boundingBox
            // Each person's instance stays on their side of the gap.
            if face.midX < Double(scene.gap.x) { XCTAssertLessThanOrEqual(box.x + box.width, scene.gap.x) } else { XCTAssertGreaterThanOrEqual(box.x, scene.gap.x + scene.gap.width) }
        }
        // Vision's limit: one instance when one is asked for, the larger person.
        var one = GeneratePersonInstanceMaskRequest()
        one.maximumInstances = 1
        let single = try await one.perform(on: scene.url)
        XCTAssertEqual(single?.allInstances.count, 1)
    }

    /// The image turned a quarter and its orientation given: the mask is of the upright picture.
    func testOrientationIsHonoured() async throws {
        try requireModels()
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let turned = try photo.applying(.left)
        for quality in GeneratePersonSegmentationRequest.QualityLevel.allCases {
            var request = GeneratePersonSegmentationRequest()
            request.qualityLevel = quality
            let people = try await request.perform(on: turned, orientation: .right)
            XCTAssertEqual(people.image.width, 512)
            let values = try people.generateScaledMask().values()
            let face = TestData.astronautFace
            XCTAssertGreaterThan(values[Int(face.midY) * 512 + Int(face.midX)], 0.9, "\(quality)")
            XCTAssertLessThan(values[20 * 512 + 480], 0.1, "\(quality)")
        }
    }
}
