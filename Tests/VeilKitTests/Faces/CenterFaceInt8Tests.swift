import Foundation
@testable import VeilKit
import XCTest

/// CenterFace in 8 bits, made at load time from the pinned file and its calibration.
final class CenterFaceInt8Tests: XCTestCase {
    func testTheRewrittenGraphQuantizesEveryCalibratedTensor() throws {
        try TestData.requireFaceModel()
        let bytes = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .centerFace)))
        let repaired = try ONNXGraphRepair.repair(bytes, symbolicAxes: [0, 2, 3])
        let quantized = try QDQRewriter.quantize(repaired, with: .centerFace, source: bytes)
        XCTAssertLessThan(quantized.count, repaired.count / 2, "int8 weights replace the float ones")
        let text = String(decoding: quantized, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "QuantizeLinear").count - 1, Int8Calibration.centerFace.activations.count)
        XCTAssertEqual(Int8Calibration.centerFace.convolutions.count, 57, "60 convolutions, the 3 that write outputs kept in float")
        XCTAssertEqual(try QDQRewriter.quantize(repaired, with: .centerFace, source: bytes), quantized, "deterministic")
        // Ranges made for one file are refused on another.
        var other = bytes
        other[other.count - 1] ^= 1
        XCTAssertThrowsError(try QDQRewriter.quantize(repaired, with: .centerFace, source: other))
        XCTAssertThrowsError(try QDQRewriter.quantize(repaired, with: .u2netp))
    }

    func testInt8FindsWhatFloatFindsInItsOwnSession() async throws {
        try TestData.requireFaceModel()
        let url = try TestData.astronaut()
        func faces(_ precision: ModelPrecision) async throws -> [FaceObservation] {
            var request = DetectFaceRectanglesRequest()
            request.precision = precision
            return try await request.perform(on: url)
        }
        let a = try await faces(.float), b = try await faces(.int8), c = try await faces(.float)
        XCTAssertEqual(a.map(\.boundingBox), c.map(\.boundingBox), "the float session is not replaced by the int8 one")
        XCTAssertEqual(a.count, 1); XCTAssertEqual(b.count, 1)
        let f = try XCTUnwrap(a.first).boundingBox, q = try XCTUnwrap(b.first).boundingBox
        XCTAssertNotEqual(f, q, "the int8 session is not the float one")
        let ix = max(0, min(f.maxX, q.maxX) - max(f.minX, q.minX)), iy = max(0, min(f.maxY, q.maxY) - max(f.minY, q.minY))
        let iou = ix * iy / (f.width * f.height + q.width * q.height - ix * iy)
        XCTAssertGreaterThan(iou, 0.9, "the same face, boxed alike")
    }
}
