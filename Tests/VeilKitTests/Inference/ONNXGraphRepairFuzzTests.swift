import Foundation
@testable import VeilKit
import XCTest

/// The ONNX graph repair decodes protobuf from a downloaded file: mutated
/// models must be refused with an error or rewritten, never trap.
final class ONNXGraphRepairFuzzTests: XCTestCase {
    /// Protobuf's varint and length-delimited fields, enough to build a model.
    static func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        repeat { out.append(UInt8(v & 0x7f) | (v > 0x7f ? 0x80 : 0)); v >>= 7 } while v != 0
        return out
    }
    static func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload }
    static func field(_ number: UInt64, int value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }
    static func field(_ number: UInt64, _ text: String) -> [UInt8] { field(number, Array(text.utf8)) }

    /// A ModelProto whose graph has a weight listed as an input and a fixed 1x3x32x32 input and output.
    static func smallModel() -> [UInt8] {
        let dims = [1, 3, 32, 32].flatMap { field(1, field(1, int: UInt64($0))) }
        let tensorType = field(1, field(1, int: 1) + field(2, dims))
        func valueInfo(_ name: String) -> [UInt8] { field(1, name) + field(2, tensorType) }
        let graph = field(1, field(1, "x") + field(2, "y") + field(4, "Conv")) + field(2, "g")
            + field(5, field(1, int: 3) + field(8, "w") + field(9, [0, 0, 0, 0]))
            + field(11, valueInfo("x")) + field(11, valueInfo("w")) + field(12, valueInfo("y"))
        return field(1, int: 7) + field(2, "veil") + field(7, graph) + field(8, field(2, int: 13))
    }

    func testMutatedModelsAreRefusedOrRepaired() throws {
        let seed = Self.smallModel()
        let repaired = try ONNXGraphRepair.repair(seed, symbolicAxes: [0, 2, 3])
        XCTAssertLessThan(repaired.count, seed.count, "the weight listed as an input was not dropped")
        var mutator = FuzzMutator(seed: FuzzMutator.seed, dictionary: [])
        mutator.dictionary += [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], [0x3a, 0x7f], [0x5a, 0x00], [0x62, 0x80, 0x80, 0x80, 0x80, 0x10]]
        let iterations = FuzzMutator.iterations(20000)
        var ok = 0
        let rate = mutator.run(seeds: [seed, repaired], iterations: iterations) { bytes in
            if (try? ONNXGraphRepair.repair(bytes, symbolicAxes: [0, 2, 3])) != nil { ok += 1 }
        }
        FuzzMutator.report("onnx-graph-repair", iterations: iterations, rate: rate)
        XCTAssertGreaterThan(ok, 0)
    }

    /// The real model, mutated in its first and last kilobytes (where the graph's structure is).
    func testMutatedRealModelIsRefusedOrRepaired() throws {
        let url = VeilHome.default.path(of: .u2netp)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("u2netp not installed: run scripts/setup") }
        let model = [UInt8](try Data(contentsOf: url))
        var mutator = FuzzMutator(seed: FuzzMutator.seed)
        for _ in 0..<FuzzMutator.iterations(30) {
            let head = mutator.below(2) == 0
            let cut = head ? 1024 : model.count - 1024
            let part = mutator.mutate(Array(head ? model[..<cut] : model[cut...]))
            let mutant = head ? part + model[cut...] : Array(model[..<cut]) + part
            _ = try? ONNXGraphRepair.repair(mutant, symbolicAxes: [0, 2, 3])
        }
    }
}
