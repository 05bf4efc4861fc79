import Foundation
@testable import VeilKit
import XCTest

/// The prepared-model cache's entries: named by model, variant, build and
/// CPU kind; two builds keep theirs, a third replaces the older; what was not written
/// whole (damaged, a digest missing, a write left half-done) is not read.
final class PreparedModelCacheEntryTests: XCTestCase {
    func testEntriesAreReadBackOnlyWholeAndReplaceOtherBuilds() throws {
        let home = VeilHome(url: try TestData.scratch(self))
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let a = PreparedModelCache(home: home, stamp: "build-a/AVX2"), b = PreparedModelCache(home: home, stamp: "build-b/AVX2")
        XCTAssertNil(a.read(.centerFace, variant: "int8"))
        a.write(bytes, for: .centerFace, variant: "int8")
        XCTAssertEqual(a.read(.centerFace, variant: "int8"), bytes)
        XCTAssertNil(a.read(.centerFace, variant: nil), "another variant is another entry")
        XCTAssertNil(b.read(.centerFace, variant: "int8"), "another build's entry is not this one's")
        XCTAssertNotEqual(a.name(of: .centerFace, variant: "int8"), PreparedModelCache(home: home, stamp: "build-a/AVX-512 VNNI").name(of: .centerFace, variant: "int8"))

        // A half-done write of long ago goes; one being written now stays.
        let folder = a.folder
        let stale = folder.appendingPathComponent(".\(a.name(of: .centerFace, variant: "int8")).1.tmp")
        let fresh = folder.appendingPathComponent(".\(a.name(of: .centerFace, variant: "int8")).2.tmp")
        for url in [stale, fresh] { try Data([1, 2, 3]).write(to: url) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale.path)

        b.write(bytes.reversed(), for: .centerFace, variant: "int8")
        XCTAssertEqual(b.read(.centerFace, variant: "int8"), bytes.reversed())
        XCTAssertEqual(a.read(.centerFace, variant: "int8"), bytes, "two builds sharing a home keep theirs")
        // A third build's entry leaves the newest other one (b's), not a's.
        let c = PreparedModelCache(home: home, stamp: "build-c/AVX2")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)],
                                              ofItemAtPath: folder.appendingPathComponent(a.name(of: .centerFace, variant: "int8")).path)
        c.write(bytes, for: .centerFace, variant: "int8")
        XCTAssertNil(a.read(.centerFace, variant: "int8"))
        XCTAssertEqual(b.read(.centerFace, variant: "int8"), bytes.reversed())
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let kept = [b, c].flatMap { [$0.name(of: .centerFace, variant: "int8"), $0.name(of: .centerFace, variant: "int8") + ".sha256"] }
        XCTAssertEqual(left, ([fresh.lastPathComponent] + kept).sorted())

        // Damaged bytes, or no digest beside them: not read.
        let entry = folder.appendingPathComponent(b.name(of: .centerFace, variant: "int8"))
        var damaged = try Data(contentsOf: entry)
        damaged[10] ^= 1
        try damaged.write(to: entry)
        XCTAssertNil(b.read(.centerFace, variant: "int8"))
        b.write(bytes, for: .centerFace, variant: "int8")
        try FileManager.default.removeItem(at: entry.appendingPathExtension("sha256"))
        XCTAssertNil(b.read(.centerFace, variant: "int8"))
    }
}

extension PreparedModelCache {
    /// Keeps `bytes` as the entry, as a session's optimized file is kept (`reserve`, then `commit`).
    func write(_ bytes: [UInt8], for asset: Asset, variant: String?) {
        guard let temporary = reserve(asset, variant: variant), (try? Data(bytes).write(to: temporary)) != nil else { return }
        commit(temporary, for: asset, variant: variant)
    }
}
