import Foundation
@testable import VeilKit
import XCTest

/// A model as ONNX Runtime runs it (CenterFace rewritten to 8 bits, its
/// graph repaired, then optimized) is made by the first process of a build
/// and read back by the next: the same faces, the entry not written again; a
/// damaged entry is noticed by its digest and made again, never loaded.
final class PreparedModelCacheTests: XCTestCase {
    func testTheRewrittenModelIsKeptReadBackAndRemadeWhenDamaged() throws {
        try TestData.requireFaceModel([.centerFace])
        let dir = try TestData.scratch(self)
        // A home of its own, holding the installed runtime and model (linked): its cache starts empty.
        let home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for asset in [Asset.onnxRuntime, .centerFace] {
            try FileManager.default.createSymbolicLink(at: home.appendingPathComponent(asset.fileName), withDestinationURL: VeilHome.default.path(of: asset))
        }
        let photo = try TestData.astronaut()
        let environment = ["VEIL_HOME": home.path]
        func faces() throws -> String {
            let result = try Veil.run(["faces", "--json", photo.path], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        let prepared = home.appendingPathComponent("prepared")
        func entry() throws -> URL {
            let names = try FileManager.default.contentsOfDirectory(atPath: prepared.path).filter { $0.hasPrefix("centerface") && $0.hasSuffix(".onnx") }
            XCTAssertEqual(names.count, 1, "\(names)")
            return prepared.appendingPathComponent(try XCTUnwrap(names.first))
        }

        let first = try faces()
        XCTAssertTrue(first.contains("\"confidence\""), first)
        let url = try entry()
        let written = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        let bytes = try Data(contentsOf: url)
        XCTAssertEqual(try String(contentsOf: url.appendingPathExtension("sha256"), encoding: .utf8), SHA256.hex([UInt8](bytes)))

        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(try faces(), first, "read back: the same faces")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date, written, "read, not written again")

        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: url)
        XCTAssertEqual(try faces(), first, "a damaged entry is not loaded")
        // Made again, whole: ONNX Runtime's file is not byte for byte the same each time, its digest is.
        let remade = try Data(contentsOf: try entry())
        XCTAssertNotEqual(remade, damaged)
        XCTAssertEqual(try String(contentsOf: try entry().appendingPathExtension("sha256"), encoding: .utf8), SHA256.hex([UInt8](remade)))
    }
}
