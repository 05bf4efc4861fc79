/// The parts of a TFLite model (schema v3) a converter needs: its one
/// subgraph's tensors, operators and constant data. Read from the flatbuffer
/// by field index, as tensorflow/lite/schema/schema.fbs numbers them.
struct TFLiteModel {
    enum ElementType: Int8 { case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4 }

    struct TensorInfo {
        var name: String
        var shape: [Int]
        var type: ElementType
        /// The constant's raw little-endian bytes; empty for an activation.
        var data: ArraySlice<UInt8>
        /// How a sparse constant's `data` is laid out; nil for a dense one.
        var sparsity: TFLiteSparsity? = nil
    }

    struct Operator {
        /// The builtin operator code (`BuiltinOperator`), or 32 (CUSTOM) with `customCode`.
        var code: Int
        var customCode: String?
        var inputs: [Int]
        var outputs: [Int]
        /// The builtin options table (its type follows from `code`).
        var options: FlatTable?
        var customOptions: ArraySlice<UInt8>
    }

    var tensors: [TensorInfo]
    var operators: [Operator]
    var inputs: [Int]
    var outputs: [Int]

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 8, bytes[4..<8].elementsEqual("TFL3".utf8) else {
            throw VeilError.inference("not a TFLite model (no TFL3 identifier)")
        }
        let model = try FlatTable.root(of: bytes)
        let version: UInt32 = try model.scalar(0)
        guard version == 3 else { throw VeilError.inference("TFLite schema version \(version) is not 3") }
        let codes = try model.tables(1).map { code -> (Int, String?) in
            let deprecated: Int8 = try code.scalar(0)
            let builtin: Int32 = try code.scalar(3)
            return (max(Int(deprecated), Int(builtin)), try code.string(1))
        }
        let buffers = try model.tables(4).map { try $0.bytesVector(0) }
        let graphs = try model.tables(2)
        guard graphs.count == 1 else { throw VeilError.inference("TFLite model has \(graphs.count) subgraphs, not one") }
        let graph = graphs[0]
        tensors = try graph.tables(0).enumerated().map { index, t in
            let rawType: Int8 = try t.scalar(1)
            guard let type = ElementType(rawValue: rawType) else {
                throw VeilError.inference("TFLite tensor \(index) has element type \(rawType), not converted")
            }
            let buffer = Int(try t.scalar(2) as UInt32)
            guard buffer < max(buffers.count, 1) else { throw VeilError.inference("TFLite tensor \(index) names a missing buffer") }
            let shape = try t.integers(0, as: Int32.self).map(Int.init)
            return TensorInfo(name: try t.string(3) ?? "t\(index)", shape: shape, type: type, data: buffers.isEmpty ? [] : buffers[buffer],
                              sparsity: try t.table(6).map { try TFLiteSparsity($0, rank: shape.count) })
        }
        inputs = try graph.integers(1, as: Int32.self).map(Int.init)
        outputs = try graph.integers(2, as: Int32.self).map(Int.init)
        let count = tensors.count
        operators = try graph.tables(3).map { op in
            let index = Int(try op.scalar(0) as UInt32)
            guard index < codes.count else { throw VeilError.inference("TFLite operator names a missing opcode") }
            let inputs = try op.integers(1, as: Int32.self).map(Int.init)
            let outputs = try op.integers(2, as: Int32.self).map(Int.init)
            // -1 is an optional input left out.
            guard (inputs + outputs).allSatisfy({ $0 >= -1 && $0 < count }) else {
                throw VeilError.inference("TFLite operator names a missing tensor")
            }
            return Operator(code: codes[index].0, customCode: codes[index].1, inputs: inputs, outputs: outputs,
                            options: try op.table(4), customOptions: try op.bytesVector(5))
        }
    }

    /// A constant tensor's values as floats (float32 or float16 data), a sparse one made dense.
    func floats(_ index: Int) throws -> [Float] {
        let t = tensors[index]
        guard let sparsity = t.sparsity else { return try stored(t, count: t.shape.reduce(1, *)) }
        return try sparsity.densify(try stored(t, count: t.data.count / (t.type == .float16 ? 2 : 4)), shape: t.shape)
    }

    /// The `count` values stored in a constant's data.
    private func stored(_ t: TensorInfo, count: Int) throws -> [Float] {
        switch t.type {
        case .float32 where t.data.count == 4 * count:
            return (0..<count).map { i in
                let base = t.data.startIndex + 4 * i
                return Float(bitPattern: UInt32(t.data[base]) | UInt32(t.data[base + 1]) << 8 | UInt32(t.data[base + 2]) << 16 | UInt32(t.data[base + 3]) << 24)
            }
        case .float16 where t.data.count == 2 * count:
            return (0..<count).map { i in
                let base = t.data.startIndex + 2 * i
                return Float(Float16(bitPattern: UInt16(t.data[base]) | UInt16(t.data[base + 1]) << 8))
            }
        default:
            throw VeilError.inference("TFLite tensor \(t.name) is not a float constant")
        }
    }

    /// A constant int32 tensor's values.
    func integers(_ index: Int) throws -> [Int] {
        let t = tensors[index]
        guard t.type == .int32, t.data.count == 4 * t.shape.reduce(1, *) else {
            throw VeilError.inference("TFLite tensor \(t.name) is not an int32 constant")
        }
        return stride(from: t.data.startIndex, to: t.data.endIndex, by: 4).map { b in
            Int(Int32(bitPattern: UInt32(t.data[b]) | UInt32(t.data[b + 1]) << 8 | UInt32(t.data[b + 2]) << 16 | UInt32(t.data[b + 3]) << 24))
        }
    }
}
