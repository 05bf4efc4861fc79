/// Rewrites an ONNX model's protobuf so ONNX Runtime runs it at any input size
/// and at full speed. Some exported models (CenterFace among them):
/// 1. declare fixed input/output shapes, which ORT enforces; the chosen axes
///    are made symbolic (`dim_param`) instead;
/// 2. list their weights as graph inputs (an ONNX IR v3 habit), which stops ORT
///    folding them as constants; those inputs are dropped.
/// Only the fields involved are decoded; every other byte is copied as is.
enum ONNXGraphRepair {
    static func repair(_ model: [UInt8], symbolicAxes: Set<Int>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(model.count)
        for field in try ProtoField.parse(model[...]) {
            if field.number == 7, field.wire == 2 {  // ModelProto.graph
                out.appendLengthDelimited(7, try repairGraph(field.payload, symbolicAxes: symbolicAxes))
            } else {
                out.append(contentsOf: field.raw)
            }
        }
        return out
    }

    private static func repairGraph(_ graph: ArraySlice<UInt8>, symbolicAxes: Set<Int>) throws -> [UInt8] {
        let fields = try ProtoField.parse(graph)
        // GraphProto.initializer (5) is a TensorProto whose name is field 8.
        let weights = Set(try fields.filter { $0.number == 5 }.compactMap { try $0.payload.stringField(8) })
        var out: [UInt8] = []
        for field in fields {
            switch field.number {
            case 11:  // GraphProto.input
                let name = try field.payload.stringField(1) ?? ""
                if weights.contains(name) { continue }
                out.appendLengthDelimited(11, try symbolic(field.payload, axes: symbolicAxes, prefix: "in"))
            case 12:  // GraphProto.output
                out.appendLengthDelimited(12, try symbolic(field.payload, axes: symbolicAxes, prefix: "out"))
            default:
                out.append(contentsOf: field.raw)
            }
        }
        return out
    }

    /// The model with every graph input that no node reads and no output is dropped: a
    /// file that lists the float weights it was quantised from as inputs, beside the
    /// block-quantised ones its nodes read (SFace from OpenCV Zoo, 29 of them), makes
    /// ONNX Runtime demand a tensor for each. Done once, at install (`Asset.Conversion`);
    /// returns the names dropped with the model.
    static func droppingUnusedInputs(_ model: [UInt8]) throws -> (model: [UInt8], dropped: [String]) {
        var out: [UInt8] = [], dropped: [String] = []
        out.reserveCapacity(model.count)
        for field in try ProtoField.parse(model[...]) {
            guard field.number == 7, field.wire == 2 else { out.append(contentsOf: field.raw); continue }  // ModelProto.graph
            let fields = try ProtoField.parse(field.payload)
            // NodeProto.input (1), of every node (1) and of every subgraph a node's attribute holds.
            var read = Set<String>()
            for node in fields where node.number == 1 && node.wire == 2 { try collectInputs(of: node.payload, into: &read) }
            for output in fields where output.number == 12 && output.wire == 2 { read.insert(try output.payload.stringField(1) ?? "") }
            var graph: [UInt8] = []
            for f in fields {
                if f.number == 11, f.wire == 2 {  // GraphProto.input
                    let name = try f.payload.stringField(1) ?? ""
                    if !read.contains(name) { dropped.append(name); continue }
                }
                graph.append(contentsOf: f.raw)
            }
            out.appendLengthDelimited(7, graph)
        }
        return (out, dropped)
    }

    /// A node's inputs, and those of the nodes of the graphs its attributes hold
    /// (AttributeProto.g = 6, graphs = 11; a subgraph may read an outer graph's input).
    private static func collectInputs(of node: ArraySlice<UInt8>, into read: inout Set<String>) throws {
        for f in try ProtoField.parse(node) where f.wire == 2 {
            if f.number == 1 { read.insert(String(decoding: f.payload, as: UTF8.self)) }
            guard f.number == 5 else { continue }  // NodeProto.attribute
            for a in try ProtoField.parse(f.payload) where a.wire == 2 && (a.number == 6 || a.number == 11) {
                for g in try ProtoField.parse(a.payload) where g.number == 1 && g.wire == 2 { try collectInputs(of: g.payload, into: &read) }
            }
        }
    }

    /// ValueInfoProto{name=1, type=2: TypeProto{tensor_type=1: {elem_type=1, shape=2: {dim=1...}}}}
    private static func symbolic(_ valueInfo: ArraySlice<UInt8>, axes: Set<Int>, prefix: String) throws -> [UInt8] {
        try valueInfo.rewriting(2) { type in
            try type.rewriting(1) { tensor in
                try tensor.rewriting(2) { shape in
                    var out: [UInt8] = [], axis = 0
                    for dim in try ProtoField.parse(shape) {
                        guard dim.number == 1 else { out.append(contentsOf: dim.raw); continue }
                        if axes.contains(axis) {
                            var param: [UInt8] = []
                            param.appendLengthDelimited(2, Array("\(prefix)_\(axis)".utf8))
                            out.appendLengthDelimited(1, param)
                        } else {
                            out.append(contentsOf: dim.raw)
                        }
                        axis += 1
                    }
                    return out
                }
            }
        }
    }
}

/// One field of a protobuf message: its number, wire type, payload, and raw bytes.
struct ProtoField {
    var number: Int
    var wire: Int
    var payload: ArraySlice<UInt8>
    var raw: ArraySlice<UInt8>

    static func parse(_ bytes: ArraySlice<UInt8>) throws -> [ProtoField] {
        var fields: [ProtoField] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let start = i
            let key = try readVarint(bytes, &i)
            let wire = Int(key & 7), number = Int(key >> 3)
            let payloadStart: Int, payloadEnd: Int
            switch wire {
            case 0: _ = try readVarint(bytes, &i); payloadStart = start; payloadEnd = i
            case 1, 5: payloadStart = i; payloadEnd = i + (wire == 1 ? 8 : 4)
            case 2:
                // A length is 64 bits on the wire: compared before it becomes an
                // Int, so a damaged file cannot overflow the index (found by fuzzing).
                let length = try readVarint(bytes, &i)
                guard length <= UInt64(bytes.endIndex - i) else { throw VeilError.inference("model file is truncated") }
                payloadStart = i; payloadEnd = i + Int(length)
            default: throw VeilError.inference("model file is not a valid ONNX protobuf (wire type \(wire))")
            }
            guard payloadEnd <= bytes.endIndex else { throw VeilError.inference("model file is truncated") }
            i = payloadEnd
            fields.append(ProtoField(number: number, wire: wire, payload: bytes[payloadStart..<payloadEnd], raw: bytes[start..<payloadEnd]))
        }
        return fields
    }

    static func readVarint(_ bytes: ArraySlice<UInt8>, _ i: inout Int) throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while i < bytes.endIndex, shift < 64 {
            let byte = bytes[i]; i += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw VeilError.inference("model file is truncated (varint)")
    }
}

extension ArraySlice<UInt8> {
    /// The first length-delimited field `number` read as UTF-8, if present.
    func stringField(_ number: Int) throws -> String? {
        try ProtoField.parse(self).first { $0.number == number && $0.wire == 2 }.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    /// This message with each length-delimited field `number` replaced by `transform` of it.
    func rewriting(_ number: Int, _ transform: (ArraySlice<UInt8>) throws -> [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        for field in try ProtoField.parse(self) {
            if field.number == number, field.wire == 2 {
                out.appendLengthDelimited(number, try transform(field.payload))
            } else {
                out.append(contentsOf: field.raw)
            }
        }
        return out
    }
}

extension Array<UInt8> {
    mutating func appendVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        append(UInt8(v))
    }

    mutating func appendLengthDelimited(_ number: Int, _ payload: [UInt8]) {
        appendVarint(UInt64(number << 3 | 2))
        appendVarint(UInt64(payload.count))
        append(contentsOf: payload)
    }
}
