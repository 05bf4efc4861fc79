/// Turns a model's 8-bit weights back into floats once, when the model is
/// prepared: every `DequantizeLinear` whose three inputs are weights (8-bit
/// values, float scales, 8-bit zero points; per tensor, per axis, or in blocks
/// along an axis, opset 21's `block_size`) becomes the float weight it computes.
/// ONNX Runtime does not fold these nodes (it keeps them for its 8-bit kernels),
/// so a model stored block-quantised (SFace from OpenCV Zoo) would dequantise
/// every weight on every run, and its batch normalisations, reading no constant
/// weight, would not be folded into the convolutions either.
/// Only the fields involved are decoded; every other byte is copied as is.
enum WeightDequantization {
    static func apply(_ model: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(model.count * 4)
        for field in try ProtoField.parse(model[...]) {
            if field.number == 7, field.wire == 2 {  // ModelProto.graph
                out.appendLengthDelimited(7, try graph(field.payload))
            } else {
                out.append(contentsOf: field.raw)
            }
        }
        return out
    }

    /// A weight: its dims, ONNX element type (FLOAT 1, UINT8 2, INT8 3) and raw bytes.
    struct Weight { var dims: [Int]; var type: Int; var raw: ArraySlice<UInt8> }

    private static func graph(_ graph: ArraySlice<UInt8>) throws -> [UInt8] {
        let fields = try ProtoField.parse(graph)
        var weights: [String: Weight] = [:]
        for f in fields where f.number == 5 && f.wire == 2 {  // GraphProto.initializer
            if let (name, weight) = try weight(f.payload) { weights[name] = weight }
        }
        // Every node's inputs, to know which weights only the folded nodes read.
        var readers: [String: Int] = [:]
        var nodes: [(field: ProtoField, op: String, inputs: [String], outputs: [String], attributes: [String: Int])] = []
        for f in fields where f.number == 1 && f.wire == 2 {
            var op = "", inputs: [String] = [], outputs: [String] = [], attributes: [String: Int] = [:]
            for n in try ProtoField.parse(f.payload) where n.wire == 2 {
                switch n.number {
                case 1: inputs.append(String(decoding: n.payload, as: UTF8.self))
                case 2: outputs.append(String(decoding: n.payload, as: UTF8.self))
                case 4: op = String(decoding: n.payload, as: UTF8.self)
                case 5:  // AttributeProto{name=1, i=3}
                    let a = try ProtoField.parse(n.payload)
                    if let name = try n.payload.stringField(1), let i = a.first(where: { $0.number == 3 && $0.wire == 0 }) {
                        attributes[name] = Int(truncatingIfNeeded: Int64(bitPattern: try varint(i.payload)))
                    }
                default: break
                }
            }
            for i in inputs { readers[i, default: 0] += 1 }
            nodes.append((f, op, inputs, outputs, attributes))
        }
        var folded: [String: [Float]] = [:], foldedDims: [String: [Int]] = [:], foldedNodes = Set<Int>()
        for (k, node) in nodes.enumerated() where node.op == "DequantizeLinear" && (2...3).contains(node.inputs.count) && node.outputs.count == 1 {
            guard let values = weights[node.inputs[0]], let scales = weights[node.inputs[1]], scales.type == 1,
                  [2, 3].contains(values.type) else { continue }
            let zeros = node.inputs.count == 3 ? weights[node.inputs[2]] : nil
            if node.inputs.count == 3, zeros?.type != values.type { continue }
            guard let floats = dequantize(values, scales: scales, zeros: zeros, axis: node.attributes["axis"] ?? 1,
                                          blockSize: node.attributes["block_size"] ?? 0) else { continue }
            folded[node.outputs[0]] = floats
            foldedDims[node.outputs[0]] = values.dims
            foldedNodes.insert(k)
            for i in node.inputs { readers[i, default: 0] -= 1 }
        }
        guard !foldedNodes.isEmpty else { return Array(graph) }
        let unread = Set(weights.keys.filter { name in (readers[name] ?? 0) <= 0 && foldedNodes.contains { nodes[$0].inputs.contains(name) } })
        var out: [UInt8] = []
        var nodeIndex = 0
        for f in fields {
            if f.number == 1, f.wire == 2 {
                nodeIndex += 1
                if foldedNodes.contains(nodeIndex - 1) { continue }
            }
            if f.number == 5, f.wire == 2, let name = try f.payload.stringField(8), unread.contains(name) { continue }
            out.append(contentsOf: f.raw)
        }
        for name in folded.keys.sorted() {
            let raw = folded[name]!.withUnsafeBytes { Array($0) }  // little-endian, as ONNX's raw_data
            out.appendTensor(name, dims: foldedDims[name]!, type: 1, raw: raw)
        }
        return out
    }

    /// A TensorProto{dims=1, data_type=2, name=8, raw_data=9} held as raw bytes, or nil for one held otherwise.
    private static func weight(_ tensor: ArraySlice<UInt8>) throws -> (String, Weight)? {
        var dims: [Int] = [], type = 0, name: String?, raw: ArraySlice<UInt8>?
        for f in try ProtoField.parse(tensor) {
            switch (f.number, f.wire) {
            case (1, 0): dims.append(Int(truncatingIfNeeded: try varint(f.payload)))
            case (1, 2):  // packed dims
                var i = f.payload.startIndex
                while i < f.payload.endIndex { dims.append(Int(truncatingIfNeeded: try ProtoField.readVarint(f.payload, &i))) }
            case (2, 0): type = Int(try varint(f.payload))
            case (8, 2): name = String(decoding: f.payload, as: UTF8.self)
            case (9, 2): raw = f.payload
            case (4, _), (5, _), (6, _), (7, _), (10, _), (11, _), (13, _), (14, _): return nil  // typed fields or external data
            default: break
            }
        }
        guard let name, let raw else { return nil }
        let size = [1: 4, 2: 1, 3: 1][type] ?? 0
        guard size > 0, dims.allSatisfy({ $0 >= 0 }), raw.count == dims.reduce(1, *) * size else { return nil }
        return (name, Weight(dims: dims, type: type, raw: raw))
    }

    /// A varint field's value (`ProtoField.payload` of a wire-0 field holds its key too).
    private static func varint(_ field: ArraySlice<UInt8>) throws -> UInt64 {
        var i = field.startIndex
        _ = try ProtoField.readVarint(field, &i)
        return try ProtoField.readVarint(field, &i)
    }

    /// `(values - zero) * scale`, the scale and zero of each value chosen per tensor
    /// (a scalar), per axis (one a slice along `axis`) or per block of `blockSize`
    /// along `axis` (the scale's shape the values' with that axis divided, rounded up);
    /// nil for shapes that do not fit.
    static func dequantize(_ values: Weight, scales: Weight, zeros: Weight?, axis: Int, blockSize: Int) -> [Float]? {
        let rank = values.dims.count, count = values.dims.reduce(1, *)
        let axis = axis < 0 ? axis + rank : axis
        let scaleCount = scales.dims.reduce(1, *)
        if let zeros, zeros.dims != scales.dims { return nil }
        // For each value, the index of its scale: a function of its index along each dimension.
        var scaleDims = [Int](repeating: 1, count: rank), divisor = [Int](repeating: 1, count: rank)
        if scaleCount == 1 {
            // per tensor
        } else if blockSize == 0 {
            guard (0..<rank).contains(axis), scales.dims == [values.dims[axis]] else { return nil }
            scaleDims[axis] = values.dims[axis]
        } else {
            guard (0..<rank).contains(axis), blockSize > 0, scales.dims.count == rank else { return nil }
            for d in 0..<rank where d != axis { guard scales.dims[d] == values.dims[d] else { return nil } }
            guard scales.dims[axis] == (values.dims[axis] + blockSize - 1) / blockSize else { return nil }
            scaleDims = scales.dims
            divisor[axis] = blockSize
        }
        var scaleStrides = [Int](repeating: 0, count: rank)
        var stride = 1
        for d in (0..<rank).reversed() { scaleStrides[d] = scaleDims[d] == 1 ? 0 : stride; stride *= scaleDims[d] }
        let scale: [Float] = scales.raw.withUnsafeBytes { bytes in
            (0..<bytes.count / 4).map { bytes.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) }
        }
        func signed(_ b: UInt8, _ type: Int) -> Float { type == 3 ? Float(Int8(bitPattern: b)) : Float(b) }
        let zero: [Float] = zeros.map { z in z.raw.map { signed($0, z.type) } } ?? [Float](repeating: 0, count: scale.count)
        guard scale.count == scaleCount, zero.count == scaleCount else { return nil }
        var out = [Float](repeating: 0, count: count)
        var index = [Int](repeating: 0, count: rank)
        let raw = Array(values.raw)
        for i in 0..<count {
            var s = 0
            for d in 0..<rank { s += index[d] / divisor[d] * scaleStrides[d] }
            out[i] = (signed(raw[i], values.type) - zero[s]) * scale[s]
            var d = rank - 1
            while d >= 0 {
                index[d] += 1
                if index[d] < values.dims[d] { break }
                index[d] = 0
                d -= 1
            }
        }
        return out
    }
}
