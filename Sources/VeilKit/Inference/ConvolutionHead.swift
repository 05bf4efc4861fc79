/// The 1x1 float convolutions an 8-bit network hands to its caller with its
/// last features (`ByteInterface`), computed at the cells the caller reads:
/// a detector reads its box maps at a few hundred heatmap peaks, where the
/// network would write them at every cell.
struct ConvolutionHead {
    /// The features, NHWC bytes: value = scale * (byte - zero).
    let features: ByteTensor
    let scale: Float, zero: Float
    /// Every output channel's weights over the features' channels, the
    /// convolutions' in the order they were named, and their biases.
    let weights: [Float], bias: [Float]
    let channels: Int

    /// The convolutions named `names` (their outputs' names in the original
    /// file) from a run's `outputs`, over `features` of the 8-bit `range`;
    /// nil if the run did not hand them all out, or not in these sizes.
    init?(_ outputs: InferenceSession.Outputs, names: [String], features: ByteTensor, range: Int8Calibration.Range) {
        guard features.shape.count == 4, let channels = features.shape.last, channels > 0 else { return nil }
        var weights: [Float] = [], bias: [Float] = []
        for name in names {
            guard let w = outputs["\(name)_weight"], let b = outputs["\(name)_bias"],
                  w.shape.count >= 2, w.shape[1] == channels, w.values.count == b.values.count * channels else { return nil }
            weights += w.values
            bias += b.values
        }
        self.features = features
        self.scale = range.scale
        self.zero = Float(range.zero)
        self.weights = weights
        self.bias = bias
        self.channels = channels
    }

    /// Output channels in all.
    var outputs: Int { bias.count }
    /// Cells of the feature map.
    var cells: Int { features.shape[1] * features.shape[2] }

    /// The outputs at cell `i` (row-major over the map) into `out[0..<outputs]`.
    /// The cell's features are dequantized into scratch on the stack: this
    /// runs for every heatmap cell above the hint score, thousands in a crowd.
    func values(at i: Int, into out: inout [Float]) {
        features.values.withUnsafeBufferPointer { f in
            weights.withUnsafeBufferPointer { w in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: channels) { x in
                    for c in 0..<channels { x[c] = (Float(f[i * channels + c]) - zero) * scale }
                    for k in 0..<bias.count {
                        var sum = bias[k]
                        for c in 0..<channels { sum += w[k * channels + c] * x[c] }
                        out[k] = sum
                    }
                }
            }
        }
    }
}
