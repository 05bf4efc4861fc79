import Foundation
@testable import VeilKit
import XCTest

/// The rewrites SFace's file goes through: its unused inputs dropped at
/// install, its 8-bit weights made floats when it is prepared.
final class SFaceModelTests: XCTestCase {
    typealias P = ONNXGraphRepairFuzzTests

    /// A tensor of raw bytes: TensorProto{dims=1, data_type=2, name=8, raw_data=9}.
    static func tensor(_ name: String, dims: [Int], type: UInt64, raw: [UInt8]) -> [UInt8] {
        dims.flatMap { P.field(1, int: UInt64($0)) } + P.field(2, int: type) + P.field(8, name) + P.field(9, raw)
    }

    static func valueInfo(_ name: String, dims: [Int]) -> [UInt8] {
        let shape = dims.flatMap { P.field(1, P.field(1, int: UInt64($0))) }
        return P.field(1, name) + P.field(2, P.field(1, P.field(1, int: 1) + P.field(2, shape)))
    }

    /// y = x · DequantizeLinear(q, scale, zero) with q 4x6 int8 in blocks of 4 along axis 1
    /// (scales and zeros 4x2), as opset 21 writes SFace's weights; `unused` an input no node reads.
    static func blockModel() -> (model: [UInt8], weights: [Float]) {
        let q: [Int8] = (0..<24).map { Int8($0 * 5 - 60) }
        let scales: [Float] = [0.5, 0.25, 1, 2, 0.125, 4, 3, 0.75]
        let zeros: [Int8] = [1, -2, 0, 3, -1, 2, 5, -5]
        var weights = [Float](repeating: 0, count: 24)
        for r in 0..<4 { for c in 0..<6 { let s = r * 2 + c / 4; weights[r * 6 + c] = Float(Int(q[r * 6 + c]) - Int(zeros[s])) * scales[s] } }
        let attributes = P.field(5, P.field(1, "axis") + P.field(3, int: 1) + P.field(20, int: 2))
            + P.field(5, P.field(1, "block_size") + P.field(3, int: 4) + P.field(20, int: 2))
        let graph = P.field(1, P.field(1, "q") + P.field(1, "s") + P.field(1, "z") + P.field(2, "w") + P.field(3, "dq") + P.field(4, "DequantizeLinear") + attributes)
            + P.field(1, P.field(1, "x") + P.field(1, "w") + P.field(2, "y") + P.field(3, "mm") + P.field(4, "MatMul"))
            + P.field(2, "g")
            + P.field(5, tensor("q", dims: [4, 6], type: 3, raw: q.map { UInt8(bitPattern: $0) }))
            + P.field(5, tensor("s", dims: [4, 2], type: 1, raw: scales.withUnsafeBytes { Array($0) }))
            + P.field(5, tensor("z", dims: [4, 2], type: 3, raw: zeros.map { UInt8(bitPattern: $0) }))
            + P.field(11, valueInfo("x", dims: [1, 4])) + P.field(11, valueInfo("unused", dims: [6, 4]))
            + P.field(12, valueInfo("y", dims: [1, 6]))
        return (P.field(1, int: 10) + P.field(2, "veil") + P.field(7, graph) + P.field(8, P.field(2, int: 21)), weights)
    }

    func testAnInputNoNodeReadsIsDroppedAndTheRestKept() throws {
        let (model, _) = Self.blockModel()
        let (stripped, dropped) = try ONNXGraphRepair.droppingUnusedInputs(model)
        XCTAssertEqual(dropped, ["unused"])
        XCTAssertEqual(stripped.count, model.count - (P.field(11, Self.valueInfo("unused", dims: [6, 4])).count), "only that input's bytes go")
        XCTAssertEqual(try ONNXGraphRepair.droppingUnusedInputs(stripped).dropped, [], "nothing more to drop")
    }

    /// The blocks' arithmetic, and a per-axis and a per-tensor scale.
    func testDequantizationByBlockAxisAndTensor() throws {
        typealias W = WeightDequantization.Weight
        let (_, expected) = Self.blockModel()
        let q: [Int8] = (0..<24).map { Int8($0 * 5 - 60) }
        let values = W(dims: [4, 6], type: 3, raw: q.map { UInt8(bitPattern: $0) }[...])
        let scales: [Float] = [0.5, 0.25, 1, 2, 0.125, 4, 3, 0.75]
        let zeros: [Int8] = [1, -2, 0, 3, -1, 2, 5, -5]
        let blocks = WeightDequantization.dequantize(values, scales: W(dims: [4, 2], type: 1, raw: scales.withUnsafeBytes { Array($0) }[...]),
                                                     zeros: W(dims: [4, 2], type: 3, raw: zeros.map { UInt8(bitPattern: $0) }[...]), axis: 1, blockSize: 4)
        XCTAssertEqual(blocks, expected)
        let perRow = WeightDequantization.dequantize(values, scales: W(dims: [4], type: 1, raw: Array(scales.prefix(4)).withUnsafeBytes { Array($0) }[...]),
                                                     zeros: nil, axis: 0, blockSize: 0)
        XCTAssertEqual(perRow, (0..<24).map { Float(q[$0]) * scales[$0 / 6] })
        let whole = WeightDequantization.dequantize(values, scales: W(dims: [], type: 1, raw: [Float(0.5)].withUnsafeBytes { Array($0) }[...]),
                                                    zeros: nil, axis: 1, blockSize: 0)
        XCTAssertEqual(whole, q.map { Float($0) * 0.5 })
        XCTAssertNil(WeightDequantization.dequantize(values, scales: W(dims: [4, 3], type: 1, raw: [UInt8](repeating: 0, count: 48)[...]),
                                                     zeros: nil, axis: 1, blockSize: 4), "scales that do not fit the blocks")
    }

    /// ONNX Runtime gives the same answer with the 8-bit weights and with them made floats,
    /// and the made-float graph has no DequantizeLinear left.
    func testTheDequantizedGraphComputesWhatTheQuantizedOneDid() async throws {
        try TestData.requireFaceModel([])
        let (model, weights) = Self.blockModel()
        let stripped = try ONNXGraphRepair.droppingUnusedInputs(model).model
        let folded = try WeightDequantization.apply(stripped)
        XCTAssertFalse(String(decoding: folded, as: UTF8.self).contains("DequantizeLinear"))
        let runtime = try InferenceRuntime.shared()
        let x = Tensor(shape: [1, 4], values: [1, -2, 0.5, 3])
        var expected = [Float](repeating: 0, count: 6)
        for c in 0..<6 { for r in 0..<4 { expected[c] += x.values[r] * weights[r * 6 + c] } }
        for bytes in [stripped, folded] {
            let session = try InferenceSession(runtime: runtime, model: bytes, device: .cpu(threads: 1))
            XCTAssertEqual(session.inputNames, ["x"])
            let y = try await session.run([x])["y"]
            for (a, b) in zip(try XCTUnwrap(y).values, expected) { XCTAssertEqual(a, b, accuracy: 1e-4) }
        }
    }

    /// The installed file: its one input is the face, its one output the embedding.
    func testTheInstalledModelTakesAFaceAndGivesAnEmbedding() async throws {
        try TestData.requireFaceModel([.sface])
        let embedder = try await FaceEmbedder.load(device: .cpu)
        XCTAssertEqual(embedder.session.inputNames, ["data"])
        XCTAssertEqual(embedder.session.outputNames, ["fc1"])
        let grey = [UInt8](repeating: 128, count: 200 * 200 * 3)
        let points = FaceEmbedder.template.map { (x: $0.x + 40, y: $0.y + 40) }
        let two = try await embedder.embeddings(of: [points, points], in: grey, width: 200, height: 200)
        XCTAssertEqual(two.count, 2, "a batch of two")
        XCTAssertEqual(two[0].values.count, 128)
        XCTAssertEqual(two[0].similarity(to: two[1]), 1, accuracy: 1e-4)
    }
}
