import CSystemShim

/// What the CPU offers ONNX Runtime's kernels, read from CPUID as ONNX
/// Runtime reads it (not from /proc/cpuinfo), so Veil's defaults follow the
/// kernels that will really run: AVX-512 VNNI or AVX-VNNI (8-bit products in
/// one instruction), AVX2 alone, or less.
public struct CPUKind: Sendable, Equatable, CustomStringConvertible {
    public var avx2: Bool
    public var avx512: Bool
    /// AVX512-VNNI or AVX-VNNI: ONNX Runtime's 8-bit kernels are fast and exact.
    public var hasVNNI: Bool

    public static let current = CPUKind()

    init() {
        func leaf(_ leaf: UInt32, _ sub: UInt32 = 0) -> [UInt32] {
            var r: [UInt32] = [0, 0, 0, 0]
            veil_cpuid(leaf, sub, &r)
            return r
        }
        let highest = leaf(0)[0]
        let seven = highest >= 7 ? leaf(7) : [0, 0, 0, 0]
        let sevenOne = highest >= 7 && seven[0] >= 1 ? leaf(7, 1) : [0, 0, 0, 0]
        avx2 = seven[1] & (1 << 5) != 0
        avx512 = seven[1] & (1 << 16) != 0
        hasVNNI = (avx512 && seven[2] & (1 << 11) != 0) || sevenOne[0] & (1 << 4) != 0
    }

    /// "AVX-512 VNNI", "AVX2" (no VNNI), or "no AVX2": the kinds the benchmarks name.
    public var description: String {
        if hasVNNI { return avx512 ? "AVX-512 VNNI" : "AVX-VNNI" }
        if avx512 { return "AVX-512 (no VNNI)" }
        return avx2 ? "AVX2 (no VNNI)" : "no AVX2"
    }
}
