import CSystemShim

/// What the CPU offers ONNX Runtime's kernels: CPUID's features where the OS
/// also enables the registers they use (XCR0), as ONNX Runtime reads them (not
/// /proc/cpuinfo's flags), so Veil's defaults follow the kernels that will
/// really run: AVX-512 VNNI or AVX-VNNI (8-bit products in one instruction),
/// AVX2 alone, or less. A CPU whose AVX-512 state is off (a VM, a kernel
/// booted without it) runs ONNX Runtime's AVX2 kernels, whose 8-bit sums
/// saturate with full-range weights: it must be taken for AVX2 here too.
public struct CPUKind: Sendable, Equatable, CustomStringConvertible {
    public var avx2: Bool
    public var avx512: Bool
    /// AVX512-VNNI or AVX-VNNI: ONNX Runtime's 8-bit kernels are fast and exact.
    public var hasVNNI: Bool

    public static let current = CPUKind(features: veil_cpu_features())

    /// From `veil_cpu_features`' bits (`VEIL_CPU_*`).
    init(features: UInt32) {
        func has(_ bit: Int) -> Bool { features & UInt32(bit) != 0 }
        avx2 = has(VEIL_CPU_AVX2)
        avx512 = has(VEIL_CPU_AVX512F)
        hasVNNI = (avx512 && has(VEIL_CPU_AVX512_VNNI)) || has(VEIL_CPU_AVX_VNNI)
    }

    /// "AVX-512 VNNI", "AVX2" (no VNNI), or "no AVX2": the kinds the benchmarks name.
    public var description: String {
        if hasVNNI { return avx512 ? "AVX-512 VNNI" : "AVX-VNNI" }
        if avx512 { return "AVX-512 (no VNNI)" }
        return avx2 ? "AVX2 (no VNNI)" : "no AVX2"
    }
}
