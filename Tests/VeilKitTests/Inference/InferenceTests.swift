import Foundation
@testable import VeilKit
import XCTest

final class InferenceTests: XCTestCase {
    /// The shipped CenterFace declares 10x3x32x32 and lists its weights as
    /// inputs; after the repair only `input.1` is left, with free H and W.
    func testGraphRepairDropsWeightInputsAndFreesTheShape() throws {
        try TestData.requireFaceModel()
        let bytes = try [UInt8](Data(contentsOf: VeilHome.default.path(of: .centerFace)))
        func graphInputs(_ model: [UInt8]) throws -> [ArraySlice<UInt8>] {
            let graph = try XCTUnwrap(try ProtoField.parse(model[...]).first { $0.number == 7 })
            return try ProtoField.parse(graph.payload).filter { $0.number == 11 }.map(\.payload)
        }
        XCTAssertGreaterThan(try graphInputs(bytes).count, 100)
        let repaired = try ONNXGraphRepair.repair(bytes, symbolicAxes: [0, 2, 3])
        let inputs = try graphInputs(repaired)
        XCTAssertEqual(try inputs.map { try $0.stringField(1) }, ["input.1"])
        XCTAssertLessThan(abs(repaired.count - bytes.count), bytes.count / 100, "weights must be kept")
    }

    /// The repaired model runs at sizes the shipped one refuses, with outputs
    /// at a quarter of the input size, and ORT's own errors come back as VeilErrors.
    func testSessionRunsAtAnySizeAndReportsORTErrors() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        XCTAssertEqual(runtime.version, "1.32.0")
        for precision in ModelPrecision.allCases {
        let model = try await CenterFace.load(runtime: runtime, device: .cpu(threads: 1), precision: precision)
        for (h, w) in [(64, 96), (160, 128)] {
            // In 8 bits the network takes the image's bytes, NHWC, RGB and a band of zeros, and hands out its features and heads.
            let input: InferenceSession.Input = model.takesBytes
                ? .bytes(ByteTensor(shape: [1, h, w, 4], values: [UInt8](repeating: 0, count: 4 * h * w)))
                : .float(Tensor(shape: [1, 3, h, w], values: [Float](repeating: 0, count: 3 * h * w)))
            let outputs = try await model.session.run([input])
            XCTAssertEqual(outputs[CenterFace.heatName]?.shape, [1, 1, h / 4, w / 4])
            if model.takesBytes {
                XCTAssertEqual(outputs.bytes("\(CenterFace.featuresName)_nhwc")?.shape, [1, h / 4, w / 4, 24])
                XCTAssertEqual(outputs["\(CenterFace.landmarksName)_weight"]?.values.count, 10 * 24)
            } else {
                XCTAssertEqual(outputs.floats.count, 4)
                XCTAssertEqual(outputs[CenterFace.landmarksName]?.shape, [1, 10, h / 4, w / 4])
            }
        }
        do {
            let input: InferenceSession.Input = model.takesBytes
                ? .bytes(ByteTensor(shape: [1, 32, 32, 2], values: [UInt8](repeating: 0, count: 2 * 32 * 32)))
                : .float(Tensor(shape: [1, 2, 32, 32], values: [Float](repeating: 0, count: 2 * 32 * 32)))
            _ = try await model.session.run([input])
            XCTFail("a 2-channel input was accepted")
        } catch let error as VeilError {
            guard case let .inference(message) = error else { return XCTFail("\(error)") }
            XCTAssertFalse(message.isEmpty)
        }
        }
    }

    func testAssetStoreChecksInstalledFiles() throws {
        try TestData.requireFaceModel()
        let store = AssetStore()
        guard case .installed = store.state(of: .centerFace) else { return XCTFail("centerface not intact") }
        let dir = try TestData.scratch(self)
        try Data("not the model".utf8).write(to: dir.appendingPathComponent(Asset.centerFace.fileName))
        guard case .corrupt = AssetStore(home: VeilHome(url: dir)).state(of: .centerFace) else { return XCTFail("corruption not seen") }
        XCTAssertEqual(AssetStore(home: VeilHome(url: dir)).state(of: .u2netp), .missing)
    }
}
