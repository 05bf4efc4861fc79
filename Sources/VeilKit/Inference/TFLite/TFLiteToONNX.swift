/// Converts a TFLite model of image-to-image convolutions into an ONNX model
/// that ONNX Runtime runs, so that models shipped only as TFLite (MediaPipe's
/// selfie segmentation) need no second inference engine.
///
/// The ONNX graph is NCHW throughout: TFLite's NHWC constants are transposed
/// once here, activations never are, and the graph's input and output are NCHW
/// ([1, 3, H, W] in, [1, C, H, W] out). Padding is written out explicitly with
/// TensorFlow's SAME rule (the extra row at the end), so no `auto_pad` reading
/// can differ. Covered: the builtin operators of MediaPipe's segmentation and
/// BlazePose models (sparse weights made dense here, `TFLiteSparsity`) and its
/// `Convolution2DTransposeBias`; any other operator is refused by name.
enum TFLiteToONNX {
    static func convert(_ tflite: [UInt8], producer: String = "veil tflite-to-onnx") throws -> [UInt8] {
        var converter = try Converter(TFLiteModel(tflite))
        return try converter.model(producer: producer)
    }

    /// TFLite's BuiltinOperator codes that are converted.
    enum Code {
        static let add = 0, averagePool = 1, concatenation = 2, conv = 3, depthwiseConv = 4, depthToSpace = 5, dequantize = 6
        static let logistic = 14, maxPool = 17, mul = 18, relu = 19, relu6 = 21, reshape = 22, resizeBilinear = 23
        static let custom = 32, pad = 34, mean = 40, hardSwish = 117, densify = 124
    }

    private struct Converter {
        let model: TFLiteModel
        var nodes: [UInt8] = []
        var initializers: [UInt8] = []
        /// TFLite tensors whose value is a constant (after DEQUANTIZE of float16 weights): their float values.
        var constants: [Int: [Float]] = [:]
        var names: [String] = []
        var counter = 0

        init(_ model: TFLiteModel) throws {
            self.model = model
            var seen: [String: Int] = [:]
            // ONNX names must be unique; TFLite's usually are, made so where not.
            names = model.tensors.enumerated().map { i, t in
                let n = t.name.isEmpty ? "t\(i)" : t.name
                seen[n, default: 0] += 1
                return seen[n]! > 1 ? "\(n)_\(i)" : n
            }
            for (i, t) in model.tensors.enumerated() where !t.data.isEmpty && (t.type == .float32 || t.type == .float16) {
                constants[i] = try model.floats(i)
            }
        }

        mutating func model(producer: String) throws -> [UInt8] {
            for op in model.operators { try convert(op) }
            var graph = nodes
            graph.appendLengthDelimited(2, Array("converted".utf8))
            graph.append(contentsOf: initializers)
            for i in model.inputs { graph.appendValueInfo(11, name: names[i], dims: nchw(model.tensors[i].shape)) }
            for o in model.outputs { graph.appendValueInfo(12, name: names[o], dims: nchw(model.tensors[o].shape)) }
            var out: [UInt8] = []
            out.appendKey(1, wire: 0); out.appendVarint(8)  // ir_version 8
            out.appendLengthDelimited(2, Array(producer.utf8))
            out.appendLengthDelimited(7, graph)
            var opset: [UInt8] = []
            opset.appendKey(2, wire: 0); opset.appendVarint(17)
            out.appendLengthDelimited(8, opset)
            return out
        }

        // MARK: operators

        mutating func convert(_ op: TFLiteModel.Operator) throws {
            let x = op.inputs.first ?? -1, y = op.outputs.first ?? -1
            switch op.code {
            case Code.dequantize, Code.densify:
                // float16 -> float32, and sparse -> dense: both already done as the constants were read.
                guard let values = constants[x] else { throw VeilError.inference("TFLite DEQUANTIZE or DENSIFY of an activation is not converted") }
                constants[y] = values
            case Code.conv, Code.depthwiseConv:
                try convolution(op, depthwise: op.code == Code.depthwiseConv)
            case Code.custom where op.customCode == "Convolution2DTransposeBias":
                try transposedConvolution(op)
            case Code.averagePool, Code.maxPool:
                let o = try options(op)
                let kernel = [Int(try o.scalar(4) as Int32), Int(try o.scalar(3) as Int32)]
                let strides = [Int(try o.scalar(2) as Int32), Int(try o.scalar(1) as Int32)]
                var attributes = [ONNXAttribute.ints("kernel_shape", kernel), ONNXAttribute.ints("strides", strides),
                                  ONNXAttribute.ints("pads", pads(op, kernel: kernel, strides: strides, same: try o.scalar(0) as Int8 == 0))]
                if op.code == Code.averagePool { attributes.append(ONNXAttribute.int("count_include_pad", 0)) }
                try emit(op.code == Code.averagePool ? "AveragePool" : "MaxPool", [try activation(x)], y, attributes,
                         activation: try o.scalar(5) as Int8)
            case Code.mean:
                let axes = try model.integers(op.inputs[1]).map { TFLiteToONNX.nchwAxis($0, rank: model.tensors[x].shape.count) }
                let keep: Int8 = try op.options?.scalar(0) ?? 0
                try emit("ReduceMean", [try activation(x)], y, [ONNXAttribute.ints("axes", axes), ONNXAttribute.int("keepdims", keep != 0 ? 1 : 0)])
            case Code.add, Code.mul:
                let inputs = try op.inputs.prefix(2).map { try operand($0, like: y) }
                try emit(op.code == Code.add ? "Add" : "Mul", inputs, y, activation: try op.options?.scalar(0) ?? 0)
            case Code.relu: try emit("Relu", [try activation(x)], y)
            case Code.relu6: try emit("Clip", [try activation(x), try scalar(0), try scalar(6)], y)
            case Code.logistic: try emit("Sigmoid", [try activation(x)], y)
            case Code.hardSwish: try emit("HardSwish", [try activation(x)], y)
            case Code.concatenation:
                let axis = TFLiteToONNX.nchwAxis(Int(try options(op).scalar(0) as Int32), rank: model.tensors[y].shape.count)
                try emit("Concat", try op.inputs.map { try operand($0, like: y) }, y, [ONNXAttribute.int("axis", axis)],
                         activation: try options(op).scalar(1) as Int8)
            case Code.resizeBilinear:
                let o = try options(op)
                let alignCorners: Bool = try o.scalar(2) as UInt8 != 0, halfPixel: Bool = try o.scalar(3) as UInt8 != 0
                let sizes = name("sizes")
                initializers.appendTensor(sizes, dims: [4], type: 7, raw: int64Bytes(nchw(model.tensors[y].shape)))
                let mode = alignCorners ? "align_corners" : halfPixel ? "half_pixel" : "asymmetric"
                try emit("Resize", [try activation(x), "", "", sizes], y,
                         [ONNXAttribute.string("mode", "linear"), ONNXAttribute.string("coordinate_transformation_mode", mode)])
            case Code.pad:
                try pad(op)
            case Code.reshape:
                try reshape(op)
            case Code.depthToSpace:
                // TensorFlow's depth-to-space reads channel (i * block + j) * C + c: ONNX's DCR order.
                let block = Int(try options(op).scalar(0) as Int32)
                try emit("DepthToSpace", [try activation(x)], y, [ONNXAttribute.int("blocksize", block), ONNXAttribute.string("mode", "DCR")])
            default:
                let what = op.code == Code.custom ? "custom operator \(op.customCode ?? "?")" : "operator \(op.code)"
                throw VeilError.inference("TFLite \(what) is not converted")
            }
        }

        /// CONV_2D ([O, kH, kW, I] weights) and DEPTHWISE_CONV_2D ([1, kH, kW, C*m]).
        mutating func convolution(_ op: TFLiteModel.Operator, depthwise: Bool) throws {
            let o = try options(op)
            let (x, w, y) = (op.inputs[0], op.inputs[1], op.outputs[0])
            let shape = model.tensors[w].shape
            guard shape.count == 4, let weights = constants[w] else { throw VeilError.inference("TFLite convolution without constant 4-D weights") }
            let channels = model.tensors[x].shape[3]
            let onnxWeights: (dims: [Int], values: [Float])
            let group: Int
            if depthwise {
                // [1, kH, kW, C*m] -> [C*m, 1, kH, kW]
                onnxWeights = TFLiteToONNX.transpose(weights, shape, [3, 0, 1, 2])
                group = channels
            } else {
                // [O, kH, kW, I] -> [O, I, kH, kW]
                onnxWeights = TFLiteToONNX.transpose(weights, shape, [0, 3, 1, 2])
                group = 1
            }
            let kernel = [shape[1], shape[2]]
            let strides = [Int(try o.scalar(2) as Int32), Int(try o.scalar(1) as Int32)]
            let dilationField = depthwise ? (5, 6) : (4, 5)
            let dilations = [Int(try o.scalar(dilationField.1, default: 1) as Int32), Int(try o.scalar(dilationField.0, default: 1) as Int32)]
            let inputs = [try activation(x), constant(onnxWeights.values, dims: onnxWeights.dims)] +
                (op.inputs.count > 2 && op.inputs[2] >= 0 ? [constant(try constantValues(op.inputs[2]), dims: [onnxWeights.dims[0]])] : [])
            try emit("Conv", inputs, y, [ONNXAttribute.ints("kernel_shape", kernel), ONNXAttribute.ints("strides", strides),
                                         ONNXAttribute.ints("dilations", dilations), ONNXAttribute.int("group", group),
                                         ONNXAttribute.ints("pads", pads(op, kernel: kernel, strides: strides, dilations: dilations,
                                                                         same: try o.scalar(0) as Int8 == 0))],
                     activation: try o.scalar(depthwise ? 4 : 3) as Int8)
        }

        /// MediaPipe's Convolution2DTransposeBias: [O, kH, kW, I] weights, a bias, and
        /// TfLiteTransposeConvParams {padding (1 same, 2 valid), stride_w, stride_h} as raw int32s.
        mutating func transposedConvolution(_ op: TFLiteModel.Operator) throws {
            let (x, w, y) = (op.inputs[0], op.inputs[1], op.outputs[0])
            let shape = model.tensors[w].shape
            let params = Array(op.customOptions)
            guard shape.count == 4, let weights = constants[w], params.count >= 12 else {
                throw VeilError.inference("TFLite Convolution2DTransposeBias without constant weights or parameters")
            }
            let word = { (i: Int) -> Int in Int(Int32(bitPattern: UInt32(params[4 * i]) | UInt32(params[4 * i + 1]) << 8 | UInt32(params[4 * i + 2]) << 16 | UInt32(params[4 * i + 3]) << 24)) }
            let strides = [word(2), word(1)], kernel = [shape[1], shape[2]]
            let input = model.tensors[x].shape, output = model.tensors[y].shape
            // The forward convolution's padding (output -> input), TensorFlow's rule.
            var padsBegin: [Int] = [], padsEnd: [Int] = []
            for axis in 0..<2 {
                let total = word(0) == 1 ? max((input[1 + axis] - 1) * strides[axis] + kernel[axis] - output[1 + axis], 0) : 0
                padsBegin.append(total / 2); padsEnd.append(total - total / 2)
            }
            let onnxWeights = TFLiteToONNX.transpose(weights, shape, [3, 0, 1, 2])  // -> [I, O, kH, kW]
            try emit("ConvTranspose", [try activation(x), constant(onnxWeights.values, dims: onnxWeights.dims),
                                       constant(try constantValues(op.inputs[2]), dims: [shape[0]])], y,
                     [ONNXAttribute.ints("kernel_shape", kernel), ONNXAttribute.ints("strides", strides),
                      ONNXAttribute.ints("pads", padsBegin + padsEnd)])
        }

        /// PAD with constant [rank, 2] int32 paddings (NHWC), zeros outside.
        mutating func pad(_ op: TFLiteModel.Operator) throws {
            let (x, y) = (op.inputs[0], op.outputs[0])
            let paddings = try model.integers(op.inputs[1])
            let rank = model.tensors[x].shape.count
            guard paddings.count == 2 * rank else { throw VeilError.inference("TFLite PAD paddings are not [\(rank), 2]") }
            // ONNX: every axis's start, then every axis's end, in NCHW order.
            let order = rank == 4 ? [0, 3, 1, 2] : Array(0..<rank)
            let pads = order.map { paddings[2 * $0] } + order.map { paddings[2 * $0 + 1] }
            let padsName = name("pads")
            initializers.appendTensor(padsName, dims: [pads.count], type: 7, raw: int64Bytes(pads))
            try emit("Pad", [try activation(x), padsName], y)
        }

        /// RESHAPE reads its input in NHWC order: a 4-D activation is made NHWC
        /// first, and a 4-D result made NCHW again (the graph's 4-D tensors are NCHW).
        mutating func reshape(_ op: TFLiteModel.Operator) throws {
            let (x, y) = (op.inputs[0], op.outputs[0])
            let from = model.tensors[x].shape, to = model.tensors[y].shape
            var input = try activation(x)
            if from.count == 4 {
                let nhwc = name("\(names[x])_nhwc")
                nodes.appendNode(op: "Transpose", name: name("Transpose"), inputs: [input], outputs: [nhwc],
                                 attributes: [ONNXAttribute.ints("perm", [0, 2, 3, 1])])
                input = nhwc
            }
            let shape = name("shape")
            initializers.appendTensor(shape, dims: [to.count], type: 7, raw: int64Bytes(to))
            guard to.count == 4 else { return try emit("Reshape", [input, shape], y) }
            let reshaped = name("\(names[y])_nhwc")
            nodes.appendNode(op: "Reshape", name: name("Reshape"), inputs: [input, shape], outputs: [reshaped])
            try emit("Transpose", [reshaped], y, [ONNXAttribute.ints("perm", [0, 3, 1, 2])])
        }

        // MARK: helpers

        func options(_ op: TFLiteModel.Operator) throws -> FlatTable {
            guard let o = op.options else { throw VeilError.inference("TFLite operator \(op.code) has no options") }
            return o
        }

        /// Explicit [top, left, bottom, right] pads: TensorFlow's SAME puts the odd row at the end.
        func pads(_ op: TFLiteModel.Operator, kernel: [Int], strides: [Int], dilations: [Int] = [1, 1], same: Bool) -> [Int] {
            guard same else { return [0, 0, 0, 0] }
            let input = model.tensors[op.inputs[0]].shape
            var begin: [Int] = [], end: [Int] = []
            for axis in 0..<2 {
                let size = input[1 + axis], out = (size + strides[axis] - 1) / strides[axis]
                let effective = (kernel[axis] - 1) * dilations[axis] + 1
                let total = max((out - 1) * strides[axis] + effective - size, 0)
                begin.append(total / 2); end.append(total - total / 2)
            }
            return begin + end
        }

        /// An activation's ONNX name; a constant here would need a layout the converter cannot know.
        func activation(_ index: Int) throws -> String {
            guard constants[index] == nil, model.tensors[index].data.isEmpty else {
                throw VeilError.inference("TFLite operator reads constant \(model.tensors[index].name) where an activation was expected")
            }
            return names[index]
        }

        func constantValues(_ index: Int) throws -> [Float] {
            guard let values = constants[index] else { throw VeilError.inference("TFLite tensor \(model.tensors[index].name) is not constant") }
            return values
        }

        /// An elementwise operand: an activation, or a constant laid out to broadcast in NCHW
        /// (a 4-D NHWC constant transposed, a per-channel vector reshaped to [1, C, 1, 1]).
        mutating func operand(_ index: Int, like output: Int) throws -> String {
            guard let values = constants[index] else { return try activation(index) }
            let shape = model.tensors[index].shape
            switch shape.count {
            case 4: let t = TFLiteToONNX.transpose(values, shape, [0, 3, 1, 2]); return constant(t.values, dims: t.dims)
            case 1 where model.tensors[output].shape.count == 4: return constant(values, dims: [1, shape[0], 1, 1])
            default: return constant(values, dims: shape)
            }
        }

        mutating func scalar(_ value: Float) throws -> String { constant([value], dims: []) }

        mutating func constant(_ values: [Float], dims: [Int]) -> String {
            let n = name("const")
            initializers.appendTensor(n, dims: dims, type: 1, raw: values.withUnsafeBytes { Array($0) })
            return n
        }

        mutating func name(_ stem: String) -> String {
            counter += 1
            return "\(stem)_\(counter)"
        }

        /// One node writing TFLite tensor `output`, then its fused activation
        /// (TFLite's ActivationFunctionType: 0 none, 1 relu, 2 relu_n1_to_1, 3 relu6).
        mutating func emit(_ op: String, _ inputs: [String], _ output: Int, _ attributes: [ArraySlice<UInt8>] = [],
                           activation fused: Int8 = 0) throws {
            let target = names[output]
            let direct = fused == 0 ? target : name("\(target)_linear")
            nodes.appendNode(op: op, name: name(op), inputs: inputs, outputs: [direct], attributes: attributes)
            switch fused {
            case 0: break
            case 1: nodes.appendNode(op: "Relu", name: name("Relu"), inputs: [direct], outputs: [target])
            case 2: nodes.appendNode(op: "Clip", name: name("Clip"), inputs: [direct, try scalar(-1), try scalar(1)], outputs: [target])
            case 3: nodes.appendNode(op: "Clip", name: name("Clip"), inputs: [direct, try scalar(0), try scalar(6)], outputs: [target])
            default: throw VeilError.inference("TFLite fused activation \(fused) is not converted")
            }
        }

        func nchw(_ shape: [Int]) -> [Int] { shape.count == 4 ? [shape[0], shape[3], shape[1], shape[2]] : shape }

        func int64Bytes(_ values: [Int]) -> [UInt8] { values.map(Int64.init).withUnsafeBytes { Array($0) } }
    }

    /// An NHWC axis (negative from the end) as the NCHW one.
    static func nchwAxis(_ axis: Int, rank: Int) -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard rank == 4 else { return a }
        return [0, 2, 3, 1][a]
    }

    /// A 4-D row-major array permuted: output axis i is input axis `order[i]`.
    static func transpose(_ values: [Float], _ shape: [Int], _ order: [Int]) -> (dims: [Int], values: [Float]) {
        let dims = order.map { shape[$0] }
        let strides = [shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3], 1]
        var out = [Float](repeating: 0, count: values.count), i = 0
        for a in 0..<dims[0] { for b in 0..<dims[1] { for c in 0..<dims[2] { for d in 0..<dims[3] {
            let index = [a, b, c, d]
            var source = 0
            for k in 0..<4 { source += index[k] * strides[order[k]] }
            out[i] = values[source]; i += 1
        } } } }
        return (dims, out)
    }
}
