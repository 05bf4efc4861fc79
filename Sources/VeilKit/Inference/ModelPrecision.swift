/// The arithmetic a network runs in.
///
/// 8 bits where a calibration exists (`Int8Calibration`: u2netp, CenterFace) and the CPU does
/// 8-bit products exactly and fast; elsewhere the file as published.
public enum ModelPrecision: String, Sendable, CaseIterable {
    /// 8-bit convolutions and sums (`QDQRewriter`, made at load time from the pinned file).
    case int8
    /// The file as published, in 32-bit float.
    case float

    /// `int8` where ONNX Runtime's 8-bit kernels are fast and exact: x86 with VNNI (AVX-512 or
    /// AVX), x86 with AVX2 given 7-bit weights (`WeightRange`: 8-bit ones saturate its 16-bit
    /// sums), and arm64 (docs/design/faces.md#centerface-in-8-bits,
    /// docs/design/lift.md#u2netp-in-8-bits). Below AVX2, not measured: `float`.
    public static let preferred: ModelPrecision = {
        #if arch(arm64)
        return .int8
        #elseif arch(x86_64)
        return CPUKind.current.hasVNNI || CPUKind.current.avx2 ? .int8 : .float
        #else
        return .float
        #endif
    }()
}

/// How wide an 8-bit network's weights may be where ONNX Runtime runs them.
///
/// Without VNNI, ONNX Runtime's x86 kernels multiply u8 activations by s8 weights with
/// `vpmaddubsw`, which adds each pair of products into a saturating 16-bit sum: two products
/// of 255 x 127 overflow it. With weights within ±63 no pair can (2 x 255 x 63 < 32,767), so
/// the kernels are exact again at one bit less of weight precision — onnxruntime.quantization's
/// `reduce_range`. VNNI (and arm64) sum in 32 bits and keep the full range. Which one holds is
/// found by running the kernels (`EightBitProbe`, `InferenceRuntime.eightBitWeights`).
enum WeightRange: Sendable {
    case full, reduced

    /// The largest weight magnitude.
    var peak: Int { self == .full ? 127 : 63 }
}
