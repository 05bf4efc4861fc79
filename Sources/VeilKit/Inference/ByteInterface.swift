/// An 8-bit network's two ends in bytes, rewritten after `QDQRewriter`.
///
/// In QDQ form CenterFace took floats in NCHW, quantized them, and ONNX Runtime
/// turned them back to NHWC for its integer kernels; at the other end three
/// float convolutions (box sizes, offsets, landmarks) read the last 8-bit
/// features through three dequantizations, layout changes and float maps,
/// which the decoder then reads at a few hundred cells of some hundred
/// thousand: a tenth of the network's time, none of it the network's own
/// (docs/design/faces.md#centerface-in-8-bits). So, where the input's range
/// is exactly the bytes (scale 1, zero 0):
///
/// - the input is taken as the decoder's own bytes, NHWC `[N, H, W, C]`
///   (a Transpose to NCHW stands where the QuantizeLinear stood, and ONNX
///   Runtime cancels it against its own), with `inputChannels` bands: a
///   fourth band of zeros (the first convolution's weights padded with zeros
///   to match, the same sums) makes the network faster, its outputs equal;
/// - each float convolution reading `features` whose output leaves the graph
///   is removed, and `features` leaves instead, as bytes in NHWC
///   (`"<features>_nhwc"`), with each removed convolution's weight and bias
///   (`"<output>_weight"`, `"<output>_bias"`) so the caller computes those
///   outputs at the cells it reads (`ConvolutionHead`).
enum ByteInterface {
    static func apply(_ model: [UInt8], input: String, inputChannels: Int? = nil, features: String,
                      calibration: Int8Calibration) throws -> [UInt8] {
        guard let range = calibration.activations[input], range.scale == 1, range.zero == 0 else {
            throw VeilError.inference("\(calibration.model)'s input \(input) is not calibrated as bytes (scale 1, zero 0)")
        }
        guard calibration.activations[features] != nil else {
            throw VeilError.inference("\(calibration.model) has no 8-bit tensor \(features) to hand out")
        }
        return try model[...].rewriting(7) {
            try graph($0, input: input, inputChannels: inputChannels, features: features, model: calibration.model)
        }
    }

    private static func graph(_ graph: ArraySlice<UInt8>, input: String, inputChannels: Int?, features: String, model: String) throws -> [UInt8] {
        let fields = try ProtoField.parse(graph)
        var initializers: [String: QDQRewriter.Initializer] = [:]
        for field in fields where field.number == 5 && field.wire == 2 {
            let (name, value) = try QDQRewriter.initializer(field.payload)
            initializers[name] = value
        }
        let parsed = try fields.filter { $0.number == 1 && $0.wire == 2 }.map { (node: try QDQRewriter.node($0.payload), raw: $0.raw) }
        let padded = try inputChannels.map {
            try paddedWeights(parsed.map(\.node), initializers, input: input, channels: $0, model: model)
        } ?? [:]
        let outputs = Set(try fields.filter { $0.number == 12 && $0.wire == 2 }.compactMap { try $0.payload.stringField(1) })
        var nodes: [UInt8] = [], added: [UInt8] = [], addedOutputs: [UInt8] = []
        var removed = Set<String>(), replacedInput = false, channels: Int?
        for (n, raw) in parsed {
            if n.op == "QuantizeLinear", n.inputs.first == input {
                nodes.appendNode(op: "Transpose", name: "\(input)_nchw", inputs: [input], outputs: n.outputs,
                                 attributes: [ONNXAttribute.ints("perm", [0, 3, 1, 2])])
                replacedInput = true
            } else if n.op == "Conv", n.inputs.first == "\(features)_dequantized", n.inputs.count == 3, n.outputs.count == 1,
                      outputs.contains(n.outputs[0]), let w = initializers[n.inputs[1]], let b = initializers[n.inputs[2]],
                      w.dims.count == 4, w.dims[2] == 1, w.dims[3] == 1, b.dims == [w.dims[0]] {
                let out = n.outputs[0]
                removed.insert(out)
                channels = w.dims[1]
                added.appendNode(op: "Identity", name: "\(out)_weight", inputs: [n.inputs[1]], outputs: ["\(out)_weight"])
                added.appendNode(op: "Identity", name: "\(out)_bias", inputs: [n.inputs[2]], outputs: ["\(out)_bias"])
                addedOutputs.appendValueInfo(12, name: "\(out)_weight", elementType: 1, dims: w.dims.map(ONNXDimension.value))
                addedOutputs.appendValueInfo(12, name: "\(out)_bias", elementType: 1, dims: [.value(w.dims[0])])
            } else {
                nodes.append(contentsOf: raw)
            }
        }
        guard replacedInput else { throw VeilError.inference("\(model) does not quantize its input \(input)") }
        guard let channels else { throw VeilError.inference("\(model) has no 1x1 float convolution reading \(features) at its end") }
        added.appendNode(op: "Transpose", name: "\(features)_nhwc", inputs: ["\(features)_uint8"], outputs: ["\(features)_nhwc"],
                         attributes: [ONNXAttribute.ints("perm", [0, 2, 3, 1])])
        addedOutputs.appendValueInfo(12, name: "\(features)_nhwc", elementType: 2,
                                     dims: [.named("features_n"), .named("features_h"), .named("features_w"), .value(channels)])

        var out: [UInt8] = [], wroteNodes = false
        for field in fields {
            switch (field.number, field.wire) {
            case (1, 2):
                if !wroteNodes { out.append(contentsOf: nodes); out.append(contentsOf: added); wroteNodes = true }
            case (11, 2) where try field.payload.stringField(1) == input:
                var dims = try nhwc(field.payload)
                if let inputChannels { dims[3] = .value(inputChannels) }
                out.appendValueInfo(11, name: input, elementType: 2, dims: dims)
            case (5, 2):
                if let name = try field.payload.stringField(8), let weights = padded[name] {
                    out.append(contentsOf: weights)
                } else {
                    out.append(contentsOf: field.raw)
                }
            case (12, 2) where removed.contains(try field.payload.stringField(1) ?? ""):
                continue
            default:
                out.append(contentsOf: field.raw)
            }
        }
        out.append(contentsOf: addedOutputs)
        return out
    }

    /// The int8 weights of every convolution reading the input, each output
    /// channel's kernel given zeros for the bands beyond the image's own, as
    /// initializer fields by name.
    private static func paddedWeights(_ nodes: [QDQRewriter.Node], _ initializers: [String: QDQRewriter.Initializer],
                                      input: String, channels: Int, model: String) throws -> [String: [UInt8]] {
        var made: [String: QDQRewriter.Node] = [:]
        for n in nodes { for o in n.outputs { made[o] = n } }
        var out: [String: [UInt8]] = [:]
        for n in nodes where n.inputs.contains("\(input)_dequantized") {
            guard n.op == "Conv", n.inputs.first == "\(input)_dequantized", n.inputs.count >= 2,
                  let dq = made[n.inputs[1]], dq.op == "DequantizeLinear", let name = dq.inputs.first,
                  let w = initializers[name], w.dataType == 3, w.dims.count == 4, w.dims[1] <= channels else {
                throw VeilError.inference("\(model)'s input is read by other than 8-bit convolutions of at most \(channels) bands")
            }
            let (o, c, kernel) = (w.dims[0], w.dims[1], w.dims[2] * w.dims[3])
            var bytes = [UInt8](repeating: 0, count: o * channels * kernel)
            for k in 0..<o { for ch in 0..<c { for i in 0..<kernel {
                bytes[(k * channels + ch) * kernel + i] = w.raw[w.raw.startIndex + (k * c + ch) * kernel + i]
            } } }
            var field: [UInt8] = []
            field.appendTensor(name, dims: [o, channels, w.dims[2], w.dims[3]], type: 3, raw: bytes)
            out[name] = field
        }
        return out
    }

    /// An NCHW ValueInfoProto's dimensions in NHWC order.
    private static func nhwc(_ valueInfo: ArraySlice<UInt8>) throws -> [ONNXDimension] {
        var dims: [ONNXDimension] = []
        for type in try ProtoField.parse(valueInfo) where type.number == 2 {
            for tensor in try ProtoField.parse(type.payload) where tensor.number == 1 {
                for shape in try ProtoField.parse(tensor.payload) where shape.number == 2 {
                    for dim in try ProtoField.parse(shape.payload) where dim.number == 1 {
                        guard let f = try ProtoField.parse(dim.payload).first else { dims.append(.named("in_\(dims.count)")); continue }
                        if f.number == 1, f.wire == 0 {
                            dims.append(.value(Int(try QDQRewriter.varint(f.raw.dropFirst()))))
                        } else {
                            dims.append(.named(String(decoding: f.payload, as: UTF8.self)))
                        }
                    }
                }
            }
        }
        guard dims.count == 4 else { throw VeilError.inference("input is not an image tensor (\(dims.count) dimensions)") }
        return [dims[0], dims[2], dims[3], dims[1]]
    }
}
