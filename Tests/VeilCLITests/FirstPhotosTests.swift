import Foundation
import XCTest

/// A batch's first photos run at once in a fresh process. There, libvips
/// parsing the numbers of two operations' options at the same moment failed
/// now and then with no message (lift's resize to the network's side: 4 of
/// 10 runs of 41 photos with glibc's AVX2 string functions, as on an AVX2
/// machine), and a good photo was reported as damaged data. The shim now
/// sets options as typed values.
final class FirstPhotosTests: XCTestCase {
    func testTheFirstPhotosLiftedAtOnceNeverFail() throws {
        try TestData.requireFaceModel([.u2netp])
        let photos = try [TestData.sample(.rocket), TestData.sample(.coffee), TestData.sample(.chelsea), TestData.astronaut()]
        let dir = try TestData.scratch(self)
        // glibc's AVX2 string functions: the timing of an AVX2 machine, where the race showed most.
        let avx2 = ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD"]
        for run in 0..<10 {
            let out = dir.appendingPathComponent("run\(run)")
            let result = try Veil.run(["lift", "--jobs", "2", "--out-dir", out.path] + photos.map(\.path), environment: avx2)
            XCTAssertEqual(result.status, 0, "run \(run): \(result.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.count, photos.count, "run \(run)")
        }
    }
}
