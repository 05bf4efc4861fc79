import Foundation
@testable import VeilServe
import XCTest

/// multipart/form-data is parsed by our own code: mutated bodies must be
/// refused or split into parts that lie inside the body, never trap.
final class MultipartFuzzTests: XCTestCase {
    static func body(_ parts: [(String, String?, String)], boundary: String = "XyZ") -> [UInt8] {
        var text = ""
        for (name, file, value) in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"" + (file.map { "; filename=\"\($0)\"" } ?? "")
            text += "\r\nContent-Type: application/octet-stream\r\n\r\n\(value)\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    func testMutatedBodiesAreRefusedOrSplit() {
        let seeds = [
            Self.body([("image", "a.jpg", "\u{ff}\u{d8}\u{ff}data"), ("add", nil, "10,10,20,20")]),
            Self.body([("state", "s.json", "{\"version\":1}")]),
            Self.body([]),
            Self.body([("a", nil, ""), ("b", nil, "--XyZ"), ("c", nil, "\r\n\r\n")]),
        ]
        var mutator = FuzzMutator(seed: FuzzMutator.seed, dictionary: ["--XyZ", "--XyZ--", "\r\n", "\r\n\r\n", "Content-Disposition: form-data; name=\"",
                                                                         "; filename=\"", "\"", ";", "Content-Type: "])
        let iterations = FuzzMutator.iterations(5000)
        var split = 0
        let rate = mutator.run(seeds: seeds, iterations: iterations) { bytes in
            let data = Data(bytes)
            _ = Multipart.boundary(of: "multipart/form-data; boundary=" + String(decoding: bytes.prefix(80), as: UTF8.self))
            guard let parts = try? Multipart.parse(data, boundary: "XyZ") else { return }
            split += 1
            XCTAssertLessThanOrEqual(parts.reduce(0) { $0 + $1.data.count }, data.count)
        }
        FuzzMutator.report("multipart", iterations: iterations, rate: rate)
        XCTAssertGreaterThan(split, 0)
    }
}
