import Foundation
@testable import VeilKit
import XCTest

/// Lifting works on a bounded copy of a large image (issue 12, item 7: a
/// 9999x9999 PNG took minutes and 2 GB): the labels are at the working size,
/// the instances and the scaled mask in the photo's own pixels, and the mask
/// agrees with the one worked out at full size.
final class WorkingSizeTests: XCTestCase {
    func testLargeImagesAreAnalysedShrunkAndMasksScaledBack() async throws {
        for asset in [Asset.onnxRuntime, .u2netp] where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
        let small = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let large = try small.resized(width: 2048, height: 1536).materialized()
        var full = GenerateForegroundInstanceMaskRequest()
        full.workingSide = 4096
        var bounded = GenerateForegroundInstanceMaskRequest()
        bounded.workingSide = 512

        let observed = try await full.perform(on: large), observedShrunk = try await bounded.perform(on: large)
        let reference = try XCTUnwrap(observed), shrunk = try XCTUnwrap(observedShrunk)
        XCTAssertEqual(reference.instanceMask.width, 2048)
        XCTAssertEqual(shrunk.instanceMask.width, 512)
        XCTAssertEqual(shrunk.instanceMask.height, 384)
        XCTAssertEqual(shrunk.instances.count, reference.instances.count)

        // Instances reported in the photo's pixels, close to the full-size ones.
        let a = reference.instances[0], b = shrunk.instances[0]
        XCTAssertEqual(Double(b.area) / Double(a.area), 1, accuracy: 0.03)
        for (p, q) in [(a.boundingBox.x, b.boundingBox.x), (a.boundingBox.y, b.boundingBox.y),
                       (a.boundingBox.width, b.boundingBox.width), (a.boundingBox.height, b.boundingBox.height)] {
            XCTAssertEqual(Double(p), Double(q), accuracy: 12, "\(a.boundingBox) vs \(b.boundingBox)")
        }

        // The mask comes back at the photo's size and agrees with the full-size one.
        let m1 = try reference.generateScaledMask(for: reference.allInstances), m2 = try shrunk.generateScaledMask(for: shrunk.allInstances)
        XCTAssertEqual(m2.width, 2048)
        XCTAssertEqual(m2.height, 1536)
        let v1 = try m1.values(), v2 = try m2.values()
        var differing = 0
        for i in v1.indices where abs(v1[i] - v2[i]) > 0.5 { differing += 1 }
        XCTAssertLessThan(Double(differing) / Double(v1.count), 0.01, "pixels whose side of the edge changed")
        let cropped = try shrunk.generateScaledMask(for: shrunk.allInstances, croppedToInstancesExtent: true)
        XCTAssertEqual(cropped.extent, b.boundingBox)
        let cutout = try shrunk.generateMaskedImage(for: shrunk.allInstances)
        XCTAssertEqual(cutout.size, large.size)
    }
}
