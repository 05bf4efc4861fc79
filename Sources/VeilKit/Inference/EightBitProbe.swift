/// Which 8-bit weights ONNX Runtime's kernels multiply exactly in this process, found by
/// running them, not by reading the CPU's features.
///
/// Without VNNI, ONNX Runtime's x86 kernels add pairs of u8 x s8 products into saturating
/// 16-bit sums (`vpmaddubsw`), so full-range weights overflow where 7-bit ones cannot
/// (`WeightRange`). Which kernels run is ONNX Runtime's own choice, from CPUID as it reads
/// it when it loads; any second reading of the CPU can disagree with it (glibc's feature
/// set is fixed when the process starts, before an `LD_PRELOAD` that masks CPUID — issue 55's
/// white masks; a hypervisor or a future ONNX Runtime may differ too). So the range is the
/// one whose worst case — every activation 255, every weight at the peak — comes back exact
/// from a two-convolution model shaped like the networks' (a 3x3 over three channels, as
/// their first layer, and a 1x1 over 32, as their GEMM-like layers), and `nil` where neither
/// does: there the networks run in float.
enum EightBitProbe {
    /// The widest exact range, or nil. Each run costs a few milliseconds, once per runtime.
    static func exactRange(runtime: InferenceRuntime) -> WeightRange? {
        for range in [WeightRange.full, .reduced] where (try? isExact(range, runtime: runtime)) == true {
            return range
        }
        return nil
    }

    /// The two convolutions' outputs are the quantized sum's expected value everywhere.
    static func isExact(_ range: WeightRange, runtime: InferenceRuntime) throws -> Bool {
        let session = try InferenceSession(runtime: runtime, model: model(peak: range.peak), device: .cpu(threads: 1))
        let inputs = shapes.map { ByteTensor(shape: $0.input, values: [UInt8](repeating: 255, count: $0.input.reduce(1, *))) }
        let outputs = try session.runNow(inputs.map(InferenceSession.Input.bytes))
        return session.outputNames.allSatisfy { name in
            guard let values = outputs.bytes(name)?.values else { return false }
            return !values.isEmpty && values.allSatisfy { $0 == expected }
        }
    }

    /// What an exact sum maps to (the output scale is the exact sum / this).
    static let expected: UInt8 = 200

    /// Input and weight shapes (NCHW, MCKK) of the two convolutions; 16 output channels each.
    static let shapes: [(input: [Int], weights: [Int])] = [([1, 3, 5, 5], [16, 3, 3, 3]), ([1, 32, 4, 4], [16, 32, 1, 1])]

    /// QLinearConv (u8 activations, s8 symmetric per-channel weights, the networks' form after
    /// ONNX Runtime fuses their QDQ pairs), every weight `peak`.
    static func model(peak: Int) -> [UInt8] {
        var graph: [UInt8] = []
        for (i, shape) in shapes.enumerated() {
            let channels = shape.weights[0], taps = shape.weights.dropFirst().reduce(1, *)
            let exactSum = Float(taps * 255 * peak)
            func float(_ v: Float) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init) }
            graph.appendTensor("x_scale\(i)", dims: [], type: 1, raw: float(1))
            graph.appendTensor("x_zero\(i)", dims: [], type: 2, raw: [0])
            graph.appendTensor("w\(i)", dims: shape.weights, type: 3,
                               raw: [UInt8](repeating: UInt8(peak), count: shape.weights.reduce(1, *)))
            graph.appendTensor("w_scale\(i)", dims: [channels], type: 1, raw: (0..<channels).flatMap { _ in float(1) })
            graph.appendTensor("w_zero\(i)", dims: [channels], type: 3, raw: [UInt8](repeating: 0, count: channels))
            graph.appendTensor("y_scale\(i)", dims: [], type: 1, raw: float(exactSum / Float(expected)))
            graph.appendTensor("y_zero\(i)", dims: [], type: 2, raw: [0])
            graph.appendNode(op: "QLinearConv", name: "conv\(i)",
                             inputs: ["x\(i)", "x_scale\(i)", "x_zero\(i)", "w\(i)", "w_scale\(i)", "w_zero\(i)", "y_scale\(i)", "y_zero\(i)"],
                             outputs: ["y\(i)"], attributes: [ONNXAttribute.ints("kernel_shape", Array(shape.weights.suffix(2)))])
            graph.appendValueInfo(11, name: "x\(i)", elementType: 2, dims: shape.input.map(ONNXDimension.value))
            let side = shape.input[2] - shape.weights[2] + 1
            graph.appendValueInfo(12, name: "y\(i)", elementType: 2, dims: [1, channels, side, side].map(ONNXDimension.value))
        }
        graph.appendLengthDelimited(2, Array("veil-eight-bit-probe".utf8))
        var out: [UInt8] = []
        out.appendKey(1, wire: 0); out.appendVarint(8)  // ir_version 8
        out.appendLengthDelimited(7, graph)
        var opset: [UInt8] = []
        opset.appendKey(2, wire: 0); opset.appendVarint(13)
        out.appendLengthDelimited(8, opset)
        return out
    }
}
