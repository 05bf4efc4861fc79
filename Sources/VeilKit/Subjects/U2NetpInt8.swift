import Foundation

/// u2netp with its convolutions in 8 bits, made at load time from the pinned FP32 file.
///
/// Each calibrated `Conv` (with the `Relu` after it) becomes ONNX's `QLinearConv`: weights
/// symmetric int8 per output channel, bias int32, input and output uint8 with the scales and
/// zero points in `ranges` (U2NetpInt8Ranges.swift, made by bench/quantize-u2netp on photos
/// outside the dev set). A quantized convolution feeding another passes its bytes on; every
/// other consumer gets the tensor back in float (`DequantizeLinear`), so Resize, Concat, the
/// residual Adds and the sigmoids run in float as before. The result is the model
/// bench/quantize_u2netp.py writes with onnxruntime.quantization (QOperator format), without
/// shipping a second file: 0.55x the CPU time of FP32 per inference at 384x384 on AVX-512 VNNI.
enum U2NetpInt8 {
    /// One convolution's calibrated activation ranges: value = scale * (byte - zero).
    struct Ranges: Sendable {
        var inputScale: Float, inputZero: UInt8, outputScale: Float, outputZero: UInt8
        init(input: Float, _ inputZero: UInt8, output: Float, _ outputZero: UInt8) {
            inputScale = input; self.inputZero = inputZero; outputScale = output; self.outputZero = outputZero
        }
    }

    /// `model` (the FP32 u2netp protobuf) with the convolutions in `ranges` quantized.
    static func quantize(_ model: [UInt8]) throws -> [UInt8] {
        guard SHA256.hex(model) == sourceSHA256 else {
            throw VeilError.inference("u2netp's 8-bit ranges were calibrated for another file")
        }
        var out: [UInt8] = []
        out.reserveCapacity(model.count)
        for field in try ProtoField.parse(model[...]) {
            if field.number == 7, field.wire == 2 {  // ModelProto.graph
                out.appendLengthDelimited(7, try quantizeGraph(field.payload))
            } else {
                out.append(contentsOf: field.raw)
            }
        }
        return out
    }

    private struct Node {
        var inputs: [String], outputs: [String], name: String, op: String
        var attributes: [ArraySlice<UInt8>]
        var raw: ArraySlice<UInt8>
    }

    private struct Initializer {
        var dims: [Int], dataType: Int, raw: ArraySlice<UInt8>
    }

    private static func quantizeGraph(_ graph: ArraySlice<UInt8>) throws -> [UInt8] {
        let fields = try ProtoField.parse(graph)
        let nodes = try fields.filter { $0.number == 1 && $0.wire == 2 }.map { try node($0.payload) }
        var initializers: [String: Initializer] = [:]
        for field in fields where field.number == 5 && field.wire == 2 {
            let (name, value) = try initializer(field.payload)
            initializers[name] = value
        }
        let graphOutputs = Set(try fields.filter { $0.number == 12 && $0.wire == 2 }.compactMap { try $0.payload.stringField(1) })
        var consumers: [String: [Int]] = [:]
        for (i, n) in nodes.enumerated() { for t in n.inputs { consumers[t, default: []].append(i) } }

        // The convolutions to quantize, and the tensor each one's bytes stand for (its ReLU's output when folded).
        var quantized: [Int: (ranges: Ranges, output: String)] = [:]
        var folded = Set<Int>()
        for (i, n) in nodes.enumerated() where n.op == "Conv" {
            guard let r = ranges[n.name], n.inputs.count == 3, n.outputs.count == 1,
                  let w = initializers[n.inputs[1]], let b = initializers[n.inputs[2]],
                  w.dataType == 1, b.dataType == 1, w.dims.count == 4, b.dims == [w.dims[0]] else { continue }
            var output = n.outputs[0]
            let next = consumers[output] ?? []
            // A ReLU is folded when the output's range starts at zero: clamping at the zero point is the ReLU.
            if next.count == 1, nodes[next[0]].op == "Relu", r.outputZero == 0, !graphOutputs.contains(output) {
                folded.insert(next[0])
                output = nodes[next[0]].outputs[0]
            }
            quantized[i] = (r, output)
        }
        guard quantized.count == ranges.count else {
            throw VeilError.inference("u2netp has \(quantized.count) of the \(ranges.count) calibrated convolutions")
        }
        let bytesOf = Dictionary(quantized.values.map { ($0.output, $0.ranges) }, uniquingKeysWith: { a, _ in a })
        let isQuantized = { (i: Int) in quantized[i] != nil }

        var newNodes: [UInt8] = [], newInitializers: [UInt8] = []
        var usedFloat = Set<String>()
        for (i, n) in nodes.enumerated() {
            if folded.contains(i) { continue }
            guard let (r, output) = quantized[i] else {
                newNodes.appendLengthDelimited(1, Array(n.raw))
                usedFloat.formUnion(n.inputs)
                continue
            }
            let x = n.inputs[0], p = n.name
            newInitializers.appendTensor("\(p)_x_scale", dims: [], type: 1, raw: bytes([r.inputScale]))
            newInitializers.appendTensor("\(p)_x_zero", dims: [], type: 2, raw: [r.inputZero])
            // The input's bytes: those of a quantized producer with this very range, else quantized here.
            let xBytes: String
            if let producer = bytesOf[x], producer.outputScale == r.inputScale, producer.outputZero == r.inputZero {
                xBytes = "\(x)_u8"
            } else {
                xBytes = "\(x)_u8_for_\(p)"
                usedFloat.insert(x)
                newNodes.appendNode(op: "QuantizeLinear", name: "\(p)_quantize_input",
                                    inputs: [x, "\(p)_x_scale", "\(p)_x_zero"], outputs: [xBytes])
            }
            let w = initializers[n.inputs[1]]!, b = initializers[n.inputs[2]]!
            let (qw, wScales) = quantizedWeights(floats(w.raw), channels: w.dims[0])
            // Bias in int32 at scale input scale x weight scale (the product in float, the division in double).
            let bias = zip(floats(b.raw), wScales).map { value, s in
                Int32(max(Double(Int32.min), min(Double(Int32.max), (Double(value) / Double(r.inputScale * s)).rounded(.toNearestOrEven))))
            }
            newInitializers.appendTensor("\(p)_w", dims: w.dims, type: 3, raw: qw.map { UInt8(bitPattern: $0) })
            newInitializers.appendTensor("\(p)_w_scale", dims: [w.dims[0]], type: 1, raw: bytes(wScales))
            newInitializers.appendTensor("\(p)_w_zero", dims: [w.dims[0]], type: 3, raw: [UInt8](repeating: 0, count: w.dims[0]))
            newInitializers.appendTensor("\(p)_y_scale", dims: [], type: 1, raw: bytes([r.outputScale]))
            newInitializers.appendTensor("\(p)_y_zero", dims: [], type: 2, raw: [r.outputZero])
            newInitializers.appendTensor("\(p)_b", dims: [w.dims[0]], type: 6, raw: bias.withUnsafeBytes { Array($0) })
            let yBytes = "\(output)_u8"
            newNodes.appendNode(op: "QLinearConv", name: "\(p)_int8",
                                inputs: [xBytes, "\(p)_x_scale", "\(p)_x_zero", "\(p)_w", "\(p)_w_scale", "\(p)_w_zero",
                                         "\(p)_y_scale", "\(p)_y_zero", "\(p)_b"],
                                outputs: [yBytes], attributes: n.attributes)
            // Back to float for every consumer that is not a quantized convolution taking these very bytes.
            let needsFloat = graphOutputs.contains(output) || (consumers[output] ?? []).contains { c in
                guard isQuantized(c), nodes[c].inputs[0] == output, nodes[c].inputs.dropFirst().allSatisfy({ $0 != output }),
                      let cr = quantized[c]?.ranges else { return true }
                return cr.inputScale != r.outputScale || cr.inputZero != r.outputZero
            }
            if needsFloat {
                newNodes.appendNode(op: "DequantizeLinear", name: "\(p)_dequantize_output",
                                    inputs: [yBytes, "\(p)_y_scale", "\(p)_y_zero"], outputs: [output])
            }
        }

        var out: [UInt8] = []
        var wroteNodes = false
        for field in fields {
            switch field.number {
            case 1 where field.wire == 2:
                if !wroteNodes { out.append(contentsOf: newNodes); wroteNodes = true }
            case 5 where field.wire == 2:
                // Float weights no node reads any more are dropped.
                if let name = try field.payload.stringField(8), !usedFloat.contains(name) { continue }
                out.append(contentsOf: field.raw)
            default:
                out.append(contentsOf: field.raw)
            }
        }
        out.append(contentsOf: newInitializers)
        return out
    }

    /// Symmetric int8 per output channel, as onnxruntime.quantization does: scale = max |w| / 127.
    static func quantizedWeights(_ w: [Float], channels: Int) -> (values: [Int8], scales: [Float]) {
        let per = w.count / channels
        var values = [Int8](repeating: 0, count: w.count), scales = [Float](repeating: 1, count: channels)
        for c in 0..<channels {
            let slice = w[(c * per)..<((c + 1) * per)]
            let peak = slice.reduce(Float(0)) { max($0, abs($1)) }
            let scale = Float(2 * Double(peak) / 254)
            scales[c] = scale < Float.leastNormalMagnitude ? 1 : scale
            for (k, v) in slice.enumerated() {
                values[c * per + k] = Int8(max(-127, min(127, (v / scales[c]).rounded(.toNearestOrEven))))
            }
        }
        return (values, scales)
    }

    // MARK: protobuf

    /// NodeProto{input=1, output=2, name=3, op_type=4, attribute=5}.
    private static func node(_ payload: ArraySlice<UInt8>) throws -> Node {
        var n = Node(inputs: [], outputs: [], name: "", op: "", attributes: [], raw: payload)
        for f in try ProtoField.parse(payload) where f.wire == 2 {
            let text = String(decoding: f.payload, as: UTF8.self)
            switch f.number {
            case 1: n.inputs.append(text)
            case 2: n.outputs.append(text)
            case 3: n.name = text
            case 4: n.op = text
            case 5: n.attributes.append(f.payload)
            default: break
            }
        }
        return n
    }

    /// TensorProto{dims=1, data_type=2, name=8, raw_data=9}.
    private static func initializer(_ payload: ArraySlice<UInt8>) throws -> (String, Initializer) {
        var name = "", value = Initializer(dims: [], dataType: 0, raw: [])
        for f in try ProtoField.parse(payload) {
            switch (f.number, f.wire) {
            case (1, 0): value.dims.append(Int(try varint(f.raw.dropFirst())))
            case (1, 2):  // packed
                var rest = f.payload
                while !rest.isEmpty { value.dims.append(Int(try varint(rest, consumed: &rest))) }
            case (2, 0): value.dataType = Int(try varint(f.raw.dropFirst()))
            case (8, 2): name = String(decoding: f.payload, as: UTF8.self)
            case (9, 2): value.raw = f.payload
            default: break
            }
        }
        return (name, value)
    }

    private static func varint(_ bytes: ArraySlice<UInt8>) throws -> UInt64 {
        var rest = bytes
        return try varint(bytes, consumed: &rest)
    }

    private static func varint(_ bytes: ArraySlice<UInt8>, consumed rest: inout ArraySlice<UInt8>) throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0, i = bytes.startIndex
        while i < bytes.endIndex, shift < 64 {
            let byte = bytes[i]; i += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { rest = bytes[i...]; return value }
            shift += 7
        }
        throw VeilError.inference("model file is truncated (varint)")
    }

    private static func floats(_ raw: ArraySlice<UInt8>) -> [Float] {
        var out = [Float](repeating: 0, count: raw.count / 4)
        out.withUnsafeMutableBytes { dst in raw.withUnsafeBytes { dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<dst.count])) } }
        return out
    }

    private static func bytes(_ values: [Float]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }
}

private extension Array<UInt8> {
    mutating func appendKey(_ number: Int, wire: Int) { appendVarint(UInt64(number << 3 | wire)) }

    mutating func appendNode(op: String, name: String, inputs: [String], outputs: [String], attributes: [ArraySlice<UInt8>] = []) {
        var n: [UInt8] = []
        for i in inputs { n.appendLengthDelimited(1, Array(i.utf8)) }
        for o in outputs { n.appendLengthDelimited(2, Array(o.utf8)) }
        n.appendLengthDelimited(3, Array(name.utf8))
        n.appendLengthDelimited(4, Array(op.utf8))
        for a in attributes { n.appendLengthDelimited(5, Array(a)) }
        appendLengthDelimited(1, n)  // GraphProto.node
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
}
