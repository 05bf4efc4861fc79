import CSystemShim
import Foundation
@testable import VeilKit
import XCTest

/// The CPU kind is read from CPUID and XCR0, as ONNX Runtime reads them; unmasked,
/// it must agree with the kernel's own reading (/proc/cpuinfo's flags).
final class CPUKindTests: XCTestCase {
    func testCPUIDAgreesWithTheKernelsFlags() throws {
        #if arch(x86_64) && os(Linux)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        let kind = CPUKind.current
        XCTAssertEqual(kind.avx2, flags.contains("avx2"))
        XCTAssertEqual(kind.avx512, flags.contains("avx512f"))
        XCTAssertEqual(kind.hasVNNI, flags.contains("avx512_vnni") && flags.contains("avx512f") || flags.contains("avx_vnni"))
        XCTAssertEqual(ModelPrecision.preferred, kind.hasVNNI || kind.avx2 ? .int8 : .float)
        #else
        throw XCTSkip("x86-64 Linux only")
        #endif
    }

    /// VNNI counts only with the registers it runs in: AVX-512 VNNI where AVX-512's
    /// state is off (CPUID says VNNI, XCR0 leaves ZMM off) is an AVX2 machine to
    /// ONNX Runtime, and 8-bit weights must be narrowed there.
    func testVNNIWithoutAVX512StateIsAVX2() {
        let vnniOnly = CPUKind(features: UInt32(VEIL_CPU_AVX2 | VEIL_CPU_AVX512_VNNI))
        XCTAssertFalse(vnniOnly.hasVNNI)
        XCTAssertEqual(vnniOnly.description, "AVX2 (no VNNI)")
        XCTAssertTrue(CPUKind(features: UInt32(VEIL_CPU_AVX2 | VEIL_CPU_AVX512F | VEIL_CPU_AVX512_VNNI)).hasVNNI)
        XCTAssertEqual(CPUKind(features: UInt32(VEIL_CPU_AVX2 | VEIL_CPU_AVX_VNNI)).description, "AVX-VNNI")
        XCTAssertEqual(CPUKind(features: 0).description, "no AVX2")
    }
}
