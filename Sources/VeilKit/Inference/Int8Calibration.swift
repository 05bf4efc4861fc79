/// What `QDQRewriter` needs to put a network in 8 bits: the file it was calibrated on, the
/// convolutions whose weights become int8, and each quantized activation's range. Written by
/// the bench scripts that calibrate (bench/quantize-u2netp, bench/quantize-centerface) from
/// onnxruntime.quantization's own calibration, so Veil's graph is the one ONNX Runtime's tools
/// would make, without shipping a second file.
struct Int8Calibration: Sendable {
    /// One tensor's calibrated 8-bit range: value = scale * (byte - zero).
    struct Range: Sendable, Equatable {
        var scale: Float, zero: UInt8
        init(_ scale: Float, _ zero: UInt8) { self.scale = scale; self.zero = zero }
    }

    /// The network's name, for messages.
    var model: String
    /// The FP32 file's sha256: ranges calibrated on one file mean nothing on another.
    var sourceSHA256: String
    /// The quantized convolutions, by node name, or by weight where the file leaves its nodes unnamed.
    var convolutions: Set<String>
    /// Every quantized activation (named as in the FP32 file): its scale and zero point.
    var activations: [String: Range]

    /// Whether the convolution named `name` (weight `weight`) is quantized.
    func quantizes(_ name: String, weight: String?) -> Bool {
        name.isEmpty ? weight.map(convolutions.contains) ?? false : convolutions.contains(name)
    }
}
