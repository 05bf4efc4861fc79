import Foundation
@testable import VeilKit
import XCTest

/// u2netp's 8-bit convolutions, made at load time from the pinned FP32 file.
final class U2NetpInt8Tests: XCTestCase {
    private func requireModel() throws {
        for asset in [Asset.onnxRuntime, .u2netp] where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    func testEightBitsAreTheDefaultWithVNNIOrAVX2() throws {
        #if arch(x86_64) && os(Linux)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let vnni = info.contains(" avx512_vnni") || info.contains(" avx_vnni"), avx2 = info.contains(" avx2")
        XCTAssertEqual(GenerateForegroundInstanceMaskRequest().precision, vnni || avx2 ? .int8 : .float)
        #endif
    }

    func testSevenBitWeightsStayWithin63() {
        let (values, scales) = QDQRewriter.quantizedWeights([1.27, -2.54, 0.01, 2.54], channels: 1, peak: 63)
        XCTAssertEqual(scales[0], 2.54 / 63, accuracy: 1e-7)
        XCTAssertEqual(values, [32, -63, 0, 63])
    }

    /// Without VNNI, ONNX Runtime adds each pair of u8 x s8 products in a saturating 16-bit sum:
    /// with 8-bit weights u2netp's map leaves float's, with 7-bit weights it keeps to it. (With
    /// VNNI both are exact, and only the first assertion can fail there.)
    func testSevenBitWeightsKeepTheMapWhereEightBitSumsSaturate() async throws {
        try requireModel()
        let runtime = try InferenceRuntime.shared()
        let bytes = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .u2netp)))
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        func map(_ peak: Int?) async throws -> [Float] {
            let session = try InferenceSession(runtime: runtime, model: try SaliencyNetwork.prepared(bytes, weightPeak: peak), device: .cpu)
            return try await SaliencyNetwork(session: session).map(for: image).floatValues()
        }
        let float = try await map(nil), seven = try await map(63), eight = try await map(127)
        func flipped(_ m: [Float]) -> Double { Double(zip(float, m).filter { ($0 > 0.5) != ($1 > 0.5) }.count) / Double(float.count) }
        func error(_ m: [Float]) -> Double { zip(float, m).map { Double(abs($0 - $1)) }.reduce(0, +) / Double(float.count) }
        print("u2netp against float, astronaut: 7-bit weights \(flipped(seven)) flipped, mean error \(error(seven)); 8-bit \(flipped(eight)), \(error(eight))")
        XCTAssertLessThan(flipped(seven), 0.01, "under 1% of the pixels change side with 7-bit weights")
        if runtime.eightBitWeights == .reduced {
            XCTAssertGreaterThan(error(eight), 2 * error(seven), "8-bit weights saturate this CPU's 16-bit sums")
        }
    }

    func testWeightsAreSymmetricPerChannelAsOnnxRuntimeQuantizesThem() {
        // Channel 0 peaks at 2.54: scale 0.02, 1.27 -> 63.5 -> 64 (half to even), -2.54 -> -127.
        // Channel 1 is all zero: scale 1, as onnxruntime.quantization does for an empty range.
        let (values, scales) = QDQRewriter.quantizedWeights([1.27, -2.54, 0.01, 2.54, 0, 0, 0, 0], channels: 2)
        XCTAssertEqual(scales[0], 0.02, accuracy: 1e-7)
        XCTAssertEqual(scales[1], 1)
        XCTAssertEqual(values, [64, -127, 0, 127, 0, 0, 0, 0])
    }

    func testTheRewrittenGraphQuantizesEveryCalibratedTensor() throws {
        try requireModel()
        let bytes = [UInt8](try Data(contentsOf: VeilHome.default.path(of: .u2netp)))
        let quantized = try QDQRewriter.quantize(bytes, with: .u2netp, weightPeak: 127)
        XCTAssertLessThan(quantized.count, bytes.count / 2, "int8 weights replace the float ones")
        let text = String(decoding: quantized, as: UTF8.self)
        // "QuantizeLinear" (capital Q) is not part of "DequantizeLinear": one per calibrated tensor.
        XCTAssertEqual(text.components(separatedBy: "QuantizeLinear").count - 1, Int8Calibration.u2netp.activations.count)
        XCTAssertEqual(Int8Calibration.u2netp.activations.count, 249)
        XCTAssertEqual(Int8Calibration.u2netp.convolutions.count, 117, "119 convolutions, Conv_765 and Conv_787 kept in float")
        XCTAssertFalse(Int8Calibration.u2netp.convolutions.contains("Conv_787"))
        XCTAssertEqual(try QDQRewriter.quantize(bytes, with: .u2netp, weightPeak: 127), quantized, "deterministic")
        // Any other file is refused rather than quantized with ranges that are not its own.
        var other = bytes
        other[other.count - 1] ^= 1
        XCTAssertThrowsError(try QDQRewriter.quantize(other, with: .u2netp, weightPeak: 127))
    }

    func testInt8AndFloatMapsAgreeAndKeepTheirOwnSessions() async throws {
        try requireModel()
        let url = try TestData.astronaut()
        var float = GenerateForegroundInstanceMaskRequest()
        float.precision = .float
        var int8 = GenerateForegroundInstanceMaskRequest()
        int8.precision = .int8
        // Alternated in one process: each precision has its own session.
        func map(_ request: GenerateForegroundInstanceMaskRequest) async throws -> [Float] {
            let observation = try await request.perform(on: url)
            return try XCTUnwrap(observation).generateScaledMask(for: [1]).values()
        }
        let a = try await map(float), b = try await map(int8), c = try await map(float)
        XCTAssertEqual(a, c, "the float session is not replaced by the int8 one")
        XCTAssertNotEqual(a, b, "the int8 session is not the float one")
        let inside = zip(a, b).filter { ($0 > 0.5) != ($1 > 0.5) }.count
        XCTAssertLessThan(Double(inside) / Double(a.count), 0.01, "under 1% of the pixels change side")
    }
}
