/// Writing ONNX protobuf messages by hand (onnx/onnx.proto's field numbers):
/// what the graph rewrites (QDQRewriter) and the TFLite converter emit. No
/// protobuf library: the few messages they write are a handful of fields each.
extension Array<UInt8> {
    mutating func appendKey(_ number: Int, wire: Int) { appendVarint(UInt64(number << 3 | wire)) }

    /// A GraphProto.node (1): NodeProto{input=1, output=2, name=3, op_type=4, attribute=5, domain=7}.
    mutating func appendNode(op: String, name: String, inputs: [String], outputs: [String], attributes: [ArraySlice<UInt8>] = [],
                             domain: String = "") {
        var n: [UInt8] = []
        for i in inputs { n.appendLengthDelimited(1, Array(i.utf8)) }
        for o in outputs { n.appendLengthDelimited(2, Array(o.utf8)) }
        n.appendLengthDelimited(3, Array(name.utf8))
        n.appendLengthDelimited(4, Array(op.utf8))
        for a in attributes { n.appendLengthDelimited(5, Array(a)) }
        if !domain.isEmpty { n.appendLengthDelimited(7, Array(domain.utf8)) }
        appendLengthDelimited(1, n)
    }

    /// A GraphProto.initializer (5): TensorProto{dims=1, data_type=2, name=8, raw_data=9}.
    mutating func appendTensor(_ name: String, dims: [Int], type: Int, raw: [UInt8]) {
        var t: [UInt8] = []
        for d in dims { t.appendKey(1, wire: 0); t.appendVarint(UInt64(d)) }
        t.appendKey(2, wire: 0); t.appendVarint(UInt64(type))
        t.appendLengthDelimited(8, Array(name.utf8))
        t.appendLengthDelimited(9, raw)
        appendLengthDelimited(5, t)
    }

    /// A GraphProto input (11) or output (12): ValueInfoProto{name=1, type=2:
    /// TypeProto{tensor_type=1: {elem_type=1 (FLOAT=1), shape=2: {dim=1: {dim_value=1}}}}}.
    mutating func appendValueInfo(_ field: Int, name: String, dims: [Int]) {
        appendValueInfo(field, name: name, elementType: 1, dims: dims.map(ONNXDimension.value))
    }

    /// The same with any element type (FLOAT=1, UINT8=2) and dimensions that may be named
    /// (dim_param=2): a size that changes from run to run.
    mutating func appendValueInfo(_ field: Int, name: String, elementType: Int, dims: [ONNXDimension]) {
        var shape: [UInt8] = []
        for d in dims {
            var dim: [UInt8] = []
            switch d {
            case let .value(v): dim.appendKey(1, wire: 0); dim.appendVarint(UInt64(v))
            case let .named(p): dim.appendLengthDelimited(2, Array(p.utf8))
            }
            shape.appendLengthDelimited(1, dim)
        }
        var tensor: [UInt8] = []
        tensor.appendKey(1, wire: 0); tensor.appendVarint(UInt64(elementType))
        tensor.appendLengthDelimited(2, shape)
        var type: [UInt8] = []
        type.appendLengthDelimited(1, tensor)
        var info: [UInt8] = []
        info.appendLengthDelimited(1, Array(name.utf8))
        info.appendLengthDelimited(2, type)
        appendLengthDelimited(field, info)
    }
}

/// One dimension of a ValueInfoProto's shape: a size, or a name for a size that varies.
enum ONNXDimension: Equatable {
    case value(Int)
    case named(String)
}

/// AttributeProto payloads {name=1, f=2, i=3, s=4, ints=8, type=20}.
enum ONNXAttribute {
    static func int(_ name: String, _ value: Int) -> ArraySlice<UInt8> {
        var a = header(name)
        a.appendKey(3, wire: 0); a.appendVarint(UInt64(bitPattern: Int64(value)))
        a.appendKey(20, wire: 0); a.appendVarint(2)  // INT
        return a[...]
    }

    static func ints(_ name: String, _ values: [Int]) -> ArraySlice<UInt8> {
        var a = header(name)
        for v in values { a.appendKey(8, wire: 0); a.appendVarint(UInt64(bitPattern: Int64(v))) }
        a.appendKey(20, wire: 0); a.appendVarint(7)  // INTS
        return a[...]
    }

    static func float(_ name: String, _ value: Float) -> ArraySlice<UInt8> {
        var a = header(name)
        a.appendKey(2, wire: 5)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { a.append(contentsOf: $0) }
        a.appendKey(20, wire: 0); a.appendVarint(1)  // FLOAT
        return a[...]
    }

    static func string(_ name: String, _ value: String) -> ArraySlice<UInt8> {
        var a = header(name)
        a.appendLengthDelimited(4, Array(value.utf8))
        a.appendKey(20, wire: 0); a.appendVarint(3)  // STRING
        return a[...]
    }

    private static func header(_ name: String) -> [UInt8] {
        var a: [UInt8] = []
        a.appendLengthDelimited(1, Array(name.utf8))
        return a
    }
}
