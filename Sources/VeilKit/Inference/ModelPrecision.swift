/// The arithmetic a network runs in.
///
/// 8 bits where a calibration exists (`Int8Calibration`: u2netp, CenterFace) and the CPU does
/// 8-bit products exactly; elsewhere the file as published.
public enum ModelPrecision: String, Sendable, CaseIterable {
    /// 8-bit convolutions and sums (`QDQRewriter`, made at load time from the pinned file).
    case int8
    /// The file as published, in 32-bit float.
    case float

    /// `int8` where ONNX Runtime's 8-bit kernels are exact: x86 with VNNI (AVX-512 or AVX)
    /// and arm64. Elsewhere its u8 x s8 products go through 16-bit sums that can saturate
    /// (its documented caveat), a loss not measured here, so `float`.
    public static let preferred: ModelPrecision = {
        #if arch(arm64)
        return .int8
        #elseif arch(x86_64)
        return CPUKind.current.hasVNNI ? .int8 : .float
        #else
        return .float
        #endif
    }()
}
