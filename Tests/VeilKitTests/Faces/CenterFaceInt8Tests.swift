import Foundation
@testable import VeilKit
import XCTest

/// CenterFace in 8 bits, made at load time from the pinned file and its calibration.
final class CenterFaceInt8Tests: XCTestCase {
    func testTheRewrittenGraphQuantizesEveryCalibratedTensor() throws {
        try TestData.requireFaceModel()
        let bytes = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .centerFace)))
        let repaired = try ONNXGraphRepair.repair(bytes, symbolicAxes: [0, 2, 3])
        let quantized = try QDQRewriter.quantize(repaired, with: .centerFace, source: bytes, weightPeak: 127)
        XCTAssertLessThan(quantized.count, repaired.count / 2, "int8 weights replace the float ones")
        let text = String(decoding: quantized, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "QuantizeLinear").count - 1, Int8Calibration.centerFace.activations.count)
        XCTAssertEqual(Int8Calibration.centerFace.convolutions.count, 57, "60 convolutions, the 3 that write outputs kept in float")
        XCTAssertEqual(try QDQRewriter.quantize(repaired, with: .centerFace, source: bytes, weightPeak: 127), quantized, "deterministic")
        // Ranges made for one file are refused on another.
        var other = bytes
        other[other.count - 1] ^= 1
        XCTAssertThrowsError(try QDQRewriter.quantize(repaired, with: .centerFace, source: other, weightPeak: 127))
        XCTAssertThrowsError(try QDQRewriter.quantize(repaired, with: .u2netp, weightPeak: 127))
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

/// The 8-bit network's ends in bytes (`ByteInterface`) against the same network with float ends.
final class CenterFaceByteInterfaceTests: XCTestCase {
    func testBytesInAndHeadsAtThePeaksGiveWhatTheFloatEndsGive() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        let pinned = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .centerFace)))
        let quantized = try QDQRewriter.quantize(try ONNXGraphRepair.repair(pinned, symbolicAxes: [0, 2, 3]), with: .centerFace, source: pinned, weightPeak: 127)
        let bytesModel = try ByteInterface.apply(quantized, input: "input.1", features: CenterFace.featuresName, calibration: .centerFace)
        let floatEnds = try InferenceSession(runtime: runtime, model: quantized, device: .cpu(threads: 1))
        let byteEnds = try InferenceSession(runtime: runtime, model: bytesModel, device: .cpu(threads: 1))
        XCTAssertEqual(floatEnds.outputNames, ["537", "538", "539", "540"])

        // The sample photo, 1.5x: a face of 300-odd pixels and the texture round it.
        let image = try ImageDecoder().decode(.url(try TestData.astronaut())).image
        let (w, h) = (image.width * 3 / 2 / 32 * 32, image.height * 3 / 2 / 32 * 32)
        let pixels = try image.resized(width: w, height: h, kernel: .linear).pixelBytes()
        let a = try await floatEnds.run([Tensor(planarRGB: pixels, width: w, height: h)])
        let b = try await byteEnds.run([.bytes(ByteTensor(shape: [1, h, w, 3], values: pixels))])

        // The same integer network in between: the heatmaps are the same floats.
        let heat = try XCTUnwrap(a["537"]), heatB = try XCTUnwrap(b["537"])
        XCTAssertEqual(heat.shape, heatB.shape)
        XCTAssertEqual(heat.values, heatB.values)
        let features = try XCTUnwrap(b.bytes("535_nhwc"))
        let head = try XCTUnwrap(ConvolutionHead(b, names: ["538", "539", "540"], features: features,
                                                 range: try XCTUnwrap(Int8Calibration.centerFace.activations["535"])))
        XCTAssertEqual(head.outputs, 14)
        XCTAssertEqual(head.cells, heat.values.count)
        let maps = CenterFaceHeads.maps(scale: try XCTUnwrap(a["538"]), offset: try XCTUnwrap(a["539"]), landmarks: try XCTUnwrap(a["540"]))
        // Every cell the decoder would read at the hint threshold, and more: the 500 highest.
        let peaks = heat.values.indices.sorted { heat.values[$0] > heat.values[$1] }.prefix(500)
        var x = [Float](repeating: 0, count: 14), y = x
        var largest: Float = 0
        for i in peaks {
            maps.values(at: i, cells: heat.values.count, into: &x)
            CenterFaceHeads.features(head).values(at: i, cells: heat.values.count, into: &y)
            for k in 0..<14 { largest = max(largest, abs(x[k] - y[k])) }
        }
        XCTAssertLessThan(largest, 1e-4, "the convolutions computed at the peaks are the network's own, to float rounding")
        XCTAssertGreaterThan(heat.values.max() ?? 0, 0.5, "a face was seen")

        // Decoded, the same faces.
        let fa = CenterFace.decode(heat: heat, heads: maps, threshold: 0.05, width: Double(w), height: Double(h))
        let fb = CenterFace.decode(heat: heatB, heads: .features(head), threshold: 0.05, width: Double(w), height: Double(h))
        XCTAssertEqual(fa.count, fb.count)
        XCTAssertFalse(fa.isEmpty)
        for (p, q) in zip(fa, fb) {
            XCTAssertEqual(p.score, q.score)
            XCTAssertEqual(p.box.x, q.box.x, accuracy: 1e-3); XCTAssertEqual(p.box.width, q.box.width, accuracy: 1e-3)
        }

        // Four bands, the fourth zeros, against weights padded with zeros (what Veil runs): the same heatmap.
        let fourBands = try ByteInterface.apply(quantized, input: "input.1", inputChannels: 4, features: "535", calibration: .centerFace)
        let c = try await InferenceSession(runtime: runtime, model: fourBands, device: .cpu(threads: 1))
            .run([.bytes(ByteTensor(shape: [1, h, w, 4], values: try image.networkBytes(width: w, height: h, paddedWidth: w, paddedHeight: h)))])
        XCTAssertEqual(c["537"]?.values, heat.values)
        XCTAssertEqual(c.bytes("535_nhwc")?.values, features.values)

        // An input calibrated as anything but bytes is refused.
        var other = Int8Calibration.centerFace
        other.activations["input.1"] = .init(0.5, 0)
        XCTAssertThrowsError(try ByteInterface.apply(quantized, input: "input.1", features: "535", calibration: other))
        XCTAssertThrowsError(try ByteInterface.apply(quantized, input: "input.1", features: "no-such", calibration: .centerFace))
    }
}
