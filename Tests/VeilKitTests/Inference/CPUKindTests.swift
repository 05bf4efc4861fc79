import Foundation
@testable import VeilKit
import XCTest

/// The CPU kind is read from CPUID, as ONNX Runtime reads it; unmasked, it
/// must agree with the kernel's own reading (/proc/cpuinfo's flags).
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
}
