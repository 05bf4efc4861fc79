import Foundation

/// A network with 8-bit convolutions and residual sums (and, where calibrated, max-pools and
/// upsamplings), made at load time from its pinned FP32 file and an `Int8Calibration`: no
/// second model is shipped.
///
/// The graph is rewritten into ONNX's QDQ form, the very graph that onnxruntime.quantization
/// makes from the same file and calibration (bench/quantize_u2netp.py and
/// bench/quantize_centerface.py write the tables): each calibrated tensor passes through
/// QuantizeLinear and DequantizeLinear with its scale and zero point; the weights of each
/// calibrated convolution become int8, symmetric per output channel, and its bias int32, each
/// behind a DequantizeLinear; a ReLU after such a convolution is dropped (its output's zero
/// point is 0: clamping there is the ReLU). ONNX Runtime then fuses the pairs into its integer
/// kernels (QLinearConv, QLinearAdd, uint8 MaxPool and Resize); what is not calibrated stays in
/// float. The file's opset is raised to 13 for per-channel DequantizeLinear, which only changes
/// how Unsqueeze takes its axes (an input instead of an attribute).
enum QDQRewriter {
    /// `model` (the FP32 protobuf `calibration` was made on) in QDQ form.
    /// `source` is the file as pinned when `model` is already a rewrite of it (CenterFace's repair).
    /// `weightPeak` is the largest weight magnitude: 127, or 63 where the CPU's 8-bit products
    /// pass through 16-bit sums (`InferenceRuntime.eightBitWeights`).
    static func quantize(_ model: [UInt8], with calibration: Int8Calibration, source: [UInt8]? = nil,
                         weightPeak: Int) throws -> [UInt8] {
        guard SHA256.hex(source ?? model) == calibration.sourceSHA256 else {
            throw VeilError.inference("\(calibration.model)'s 8-bit ranges were calibrated for another file")
        }
        var out: [UInt8] = []
        out.reserveCapacity(model.count)
        for field in try ProtoField.parse(model[...]) {
            switch (field.number, field.wire) {
            case (7, 2): out.appendLengthDelimited(7, try quantizeGraph(field.payload, calibration, weightPeak: weightPeak))  // ModelProto.graph
            case (8, 2):  // ModelProto.opset_import: OperatorSetIdProto{domain=1, version=2}
                let domain = try field.payload.stringField(1) ?? ""
                guard domain.isEmpty else { out.append(contentsOf: field.raw); continue }
                var opset: [UInt8] = []
                opset.appendKey(2, wire: 0); opset.appendVarint(13)
                out.appendLengthDelimited(8, opset)
            default: out.append(contentsOf: field.raw)
            }
        }
        return out
    }

    struct Node {
        var inputs: [String], outputs: [String], name: String, op: String, domain: String
        /// AttributeProto payloads, with their names.
        var attributes: [(name: String, payload: ArraySlice<UInt8>)]
    }

    struct Initializer {
        var dims: [Int], dataType: Int, raw: ArraySlice<UInt8>
    }

    private static func quantizeGraph(_ graph: ArraySlice<UInt8>, _ calibration: Int8Calibration, weightPeak: Int) throws -> [UInt8] {
        let activations = calibration.activations, model = calibration.model
        let fields = try ProtoField.parse(graph)
        var nodes = try fields.filter { $0.number == 1 && $0.wire == 2 }.map { try node($0.payload) }
        var initializers: [String: Initializer] = [:]
        for field in fields where field.number == 5 && field.wire == 2 {
            let (name, value) = try initializer(field.payload)
            initializers[name] = value
        }
        let graphInputs = try fields.filter { $0.number == 11 && $0.wire == 2 }.compactMap { try $0.payload.stringField(1) }
        var added: [UInt8] = []  // new initializers

        // Opset 13: Unsqueeze's axes become an int64 input.
        for i in nodes.indices where nodes[i].op == "Unsqueeze" {
            guard let axes = nodes[i].attributes.firstIndex(where: { $0.name == "axes" }) else { continue }
            let values = try ints(nodes[i].attributes[axes].payload)
            let name = "\(nodes[i].name)_axes"
            added.appendTensor(name, dims: [values.count], type: 7, raw: values.withUnsafeBytes { Array($0) })
            nodes[i].attributes.remove(at: axes)
            nodes[i].inputs.append(name)
        }

        // Each quantized convolution's ReLU is dropped: the convolution writes the ReLU's output.
        var consumers: [String: [Int]] = [:]
        for (i, n) in nodes.enumerated() { for t in n.inputs { consumers[t, default: []].append(i) } }
        var dropped = Set<Int>()
        var quantized: [Int: String] = [:]  // convolution -> the prefix of its new tensors
        for i in nodes.indices where nodes[i].op == "Conv" && calibration.quantizes(nodes[i].name, weight: nodes[i].inputs.dropFirst().first) {
            let n = nodes[i]
            guard n.inputs.count == 3, n.outputs.count == 1, let w = initializers[n.inputs[1]], let b = initializers[n.inputs[2]],
                  w.dataType == 1, b.dataType == 1, w.dims.count == 4, b.dims == [w.dims[0]],
                  let xRange = activations[n.inputs[0]] else {
                throw VeilError.inference("\(model)'s \(n.name.isEmpty ? n.inputs[1] : n.name) is not the convolution its 8-bit ranges were made for")
            }
            quantized[i] = prefix(n)
            if let next = consumers[n.outputs[0]], next.count == 1, nodes[next[0]].op == "Relu",
               let relu = activations[nodes[next[0]].outputs[0]], relu.zero == 0 {
                dropped.insert(next[0])
                nodes[i].outputs = nodes[next[0]].outputs
            }
            // Weights int8 per output channel and bias int32 at input scale x weight scale, each dequantized.
            let (qw, wScales) = quantizedWeights(floats(w.raw), channels: w.dims[0], peak: weightPeak)
            let bScales = wScales.map { xRange.scale * $0 }
            let bias = zip(floats(b.raw), bScales).map { value, s in
                Int32(max(Double(Int32.min), min(Double(Int32.max), (Double(value) / Double(s)).rounded(.toNearestOrEven))))
            }
            let c = [w.dims[0]], p = prefix(n)
            added.appendTensor("\(p)_w_int8", dims: w.dims, type: 3, raw: qw.map { UInt8(bitPattern: $0) })
            added.appendTensor("\(p)_w_scale", dims: c, type: 1, raw: bytes(wScales))
            added.appendTensor("\(p)_w_zero", dims: c, type: 3, raw: [UInt8](repeating: 0, count: c[0]))
            added.appendTensor("\(p)_b_int32", dims: c, type: 6, raw: bias.withUnsafeBytes { Array($0) })
            added.appendTensor("\(p)_b_scale", dims: c, type: 1, raw: bytes(bScales))
            added.appendTensor("\(p)_b_zero", dims: c, type: 6, raw: [UInt8](repeating: 0, count: 4 * c[0]))
            nodes[i].inputs[1] = "\(p)_w_dequantized"
            nodes[i].inputs[2] = "\(p)_b_dequantized"
        }
        guard quantized.count == calibration.convolutions.count else {
            throw VeilError.inference("\(model) has \(quantized.count) of the \(calibration.convolutions.count) convolutions its 8-bit ranges were made for")
        }

        // Every calibrated tensor through Q and DQ, right after it is made; its readers read the DQ.
        var pending = Set(activations.keys)
        var out: [UInt8] = []
        func emit(_ n: Node) {
            out.appendNode(op: n.op, name: n.name, inputs: n.inputs.map { activations[$0] == nil ? $0 : "\($0)_dequantized" },
                           outputs: n.outputs, attributes: n.attributes.map(\.payload), domain: n.domain)
        }
        func pair(_ t: String) {
            guard let r = activations[t], pending.remove(t) != nil else { return }
            added.appendTensor("\(t)_scale", dims: [], type: 1, raw: bytes([r.scale]))
            added.appendTensor("\(t)_zero", dims: [], type: 2, raw: [r.zero])
            out.appendNode(op: "QuantizeLinear", name: "\(t)_quantize", inputs: [t, "\(t)_scale", "\(t)_zero"], outputs: ["\(t)_uint8"])
            out.appendNode(op: "DequantizeLinear", name: "\(t)_dequantize", inputs: ["\(t)_uint8", "\(t)_scale", "\(t)_zero"],
                           outputs: ["\(t)_dequantized"])
        }
        for t in graphInputs { pair(t) }
        for (i, n) in nodes.enumerated() where !dropped.contains(i) {
            if let p = quantized[i] {
                out.appendNode(op: "DequantizeLinear", name: "\(p)_w_dequantize", inputs: ["\(p)_w_int8", "\(p)_w_scale", "\(p)_w_zero"],
                               outputs: ["\(p)_w_dequantized"], attributes: [axisZero])
                out.appendNode(op: "DequantizeLinear", name: "\(p)_b_dequantize", inputs: ["\(p)_b_int32", "\(p)_b_scale", "\(p)_b_zero"],
                               outputs: ["\(p)_b_dequantized"], attributes: [axisZero])
            }
            emit(n)
            n.outputs.forEach(pair)
        }
        guard pending.isEmpty else {
            throw VeilError.inference("\(model) makes no tensor \(pending.sorted().prefix(3).joined(separator: ", ")) to quantize")
        }

        var graphOut: [UInt8] = []
        var wroteNodes = false
        let stillRead = Set(nodes.enumerated().filter { !dropped.contains($0.offset) }.flatMap(\.element.inputs))
        for field in fields {
            switch (field.number, field.wire) {
            case (1, 2):
                if !wroteNodes { graphOut.append(contentsOf: out); wroteNodes = true }
            case (5, 2):
                // Float weights no node reads any more are dropped.
                if let name = try field.payload.stringField(8), !stillRead.contains(name) { continue }
                graphOut.append(contentsOf: field.raw)
            default:
                graphOut.append(contentsOf: field.raw)
            }
        }
        graphOut.append(contentsOf: added)
        return graphOut
    }

    /// What a quantized convolution's new tensors are named after: its node, or its weight where nodes have no names.
    private static func prefix(_ n: Node) -> String { n.name.isEmpty ? n.inputs[1] : n.name }

    /// Symmetric int8 per output channel, as onnxruntime.quantization does: scale = max |w| / `peak`
    /// (1 for an all-zero channel), values rounded half to even and held within ±`peak` (127, or
    /// 63 for `WeightRange.reduced`). The scale is computed as 2 max / 2 peak, the very
    /// arithmetic of the 127-only version (2 max / 254), so VNNI machines get the same bytes.
    static func quantizedWeights(_ w: [Float], channels: Int, peak: Int = 127) -> (values: [Int8], scales: [Float]) {
        let per = w.count / channels, top = Float(peak)
        var values = [Int8](repeating: 0, count: w.count), scales = [Float](repeating: 1, count: channels)
        for c in 0..<channels {
            let slice = w[(c * per)..<((c + 1) * per)]
            let largest = slice.reduce(Float(0)) { max($0, abs($1)) }
            let scale = Float(2 * Double(largest) / (2 * Double(peak)))
            scales[c] = scale < Float.leastNormalMagnitude ? 1 : scale
            for (k, v) in slice.enumerated() {
                values[c * per + k] = Int8(max(-top, min(top, (v / scales[c]).rounded(.toNearestOrEven))))
            }
        }
        return (values, scales)
    }

    // MARK: protobuf

    /// `axis = 0`.
    private static let axisZero = ONNXAttribute.int("axis", 0)

    /// NodeProto{input=1, output=2, name=3, op_type=4, attribute=5, domain=7}.
    static func node(_ payload: ArraySlice<UInt8>) throws -> Node {
        var n = Node(inputs: [], outputs: [], name: "", op: "", domain: "", attributes: [])
        for f in try ProtoField.parse(payload) where f.wire == 2 {
            let text = String(decoding: f.payload, as: UTF8.self)
            switch f.number {
            case 1: n.inputs.append(text)
            case 2: n.outputs.append(text)
            case 3: n.name = text
            case 4: n.op = text
            case 5: n.attributes.append((try f.payload.stringField(1) ?? "", f.payload))
            case 7: n.domain = text
            default: break
            }
        }
        return n
    }

    /// AttributeProto.ints (8), packed or not.
    private static func ints(_ attribute: ArraySlice<UInt8>) throws -> [Int64] {
        var values: [Int64] = []
        for f in try ProtoField.parse(attribute) where f.number == 8 {
            if f.wire == 0 {
                values.append(Int64(bitPattern: try varint(f.raw.dropFirst())))
            } else if f.wire == 2 {
                var rest = f.payload
                while !rest.isEmpty { values.append(Int64(bitPattern: try varint(rest, consumed: &rest))) }
            }
        }
        return values
    }

    /// TensorProto{dims=1, data_type=2, float_data=4, name=8, raw_data=9}.
    static func initializer(_ payload: ArraySlice<UInt8>) throws -> (String, Initializer) {
        var name = "", value = Initializer(dims: [], dataType: 0, raw: [])
        for f in try ProtoField.parse(payload) {
            switch (f.number, f.wire) {
            case (1, 0): value.dims.append(Int(try varint(f.raw.dropFirst())))
            case (1, 2):
                var rest = f.payload
                while !rest.isEmpty { value.dims.append(Int(try varint(rest, consumed: &rest))) }
            case (2, 0): value.dataType = Int(try varint(f.raw.dropFirst()))
            case (8, 2): name = String(decoding: f.payload, as: UTF8.self)
            case (9, 2): value.raw = f.payload
            case (4, 2): value.raw = f.payload  // float_data, packed: the same little-endian floats (CenterFace's biases)
            default: break
            }
        }
        return (name, value)
    }

    /// A varint at the start of `bytes` (a one-byte key already skipped by the caller).
    static func varint(_ bytes: ArraySlice<UInt8>) throws -> UInt64 {
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
