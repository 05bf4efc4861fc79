import Foundation
import VeilKit
@testable import VeilVocabulary
import VeilTestSupport
import XCTest

/// Query and command-line numbers: mutated option values must be refused
/// with an `InputError`, or parse to edits that render within the photo.
final class OptionsFuzzTests: XCTestCase {
    static let names = ["add", "drop", "stroke", "instances", "refine", "tap", "sides", "threshold", "effect", "mask-scale"]

    /// Mutants are option lists: `name=value` lines, as a query string or a command line gives them.
    static func source(_ bytes: [UInt8]) -> DictionarySource {
        var source = DictionarySource()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            source.given[kv[0], default: []].append(kv.count > 1 ? kv[1] : "")
        }
        return source
    }

    func testMutatedOptionsAreRefusedOrRendered() async throws {
        let png = try ImageEncoder(format: .png).encode(try VeilImage(pixels: (0..<(80 * 60 * 3)).map { UInt8($0 % 253) }, width: 80, height: 60, bands: 3))
        let state = """
            {"format":"veil-editing-state","version":1,"source":{"file":"a.png","sha256":"\(EditingState.digest(of: png))","width":80,"height":60},
             "original":"a.png","faces":{"status":"recognized","threshold":0.5,"faces":[{"box":{"x":0.1,"y":0.1,"width":0.3,"height":0.3},"confidence":0.9}]},
             "regions":{"status":"notYet"},"strokes":[],"style":"solid=#000000","shape":"disc","maskScale":1}
            """
        let previous = try EditingState.decode(Data(state.utf8))
        let seeds = ["add=10,10,20,20\ndrop=0", "add=-5,-5,30,30;40,40,10,10", "stroke=0,0 10,10 70,50@4", "stroke=5,5@1\nadd=0,0,1,1",
                     "instances=1,2,3\nrefine=3,0.01", "refine=colour:2,0.001\ntap=0.5,0.5", "sides=320,384\nthreshold=0.4",
                     "effect=highlight=-1.5", "effect=bokeh=20\nmask-scale=1.2", "drop=0,1"].map { Array($0.utf8) }
        var mutator = FuzzMutator(seed: FuzzMutator.seed, dictionary: Self.names.map { "\n\($0)=" } + ["colour:", "highlight=", "bokeh=", "@"])
        let blurrer = PhotoBlurrer()
        let none: (String?) throws -> VeilImage = { _ in throw InputError("no background in a fuzz run") }
        let iterations = FuzzMutator.iterations(2000)
        var rendered = 0, refused = 0
        var inputs: [[UInt8]] = []
        let rate = mutator.run(seeds: seeds, iterations: iterations) { inputs.append($0) }
        let start = Date()
        for bytes in inputs {
            let source = Self.source(bytes)
            for name in Self.names {
                for value in source.values(name) {
                    _ = try? TextNumber.double(value, in: -1e7...1e7, option: name)
                    _ = try? TextNumber.int(value, in: 0...Int.max, option: name)
                    _ = try? TextNumber.list(value, count: 4, in: -1e7...1e7, option: name, what: "x,y,w,h")
                }
            }
            do { _ = try SubjectLift(source, background: none) } catch { XCTAssertTrue(error is InputError, "\(error)") }
            let edits: RegionEdits
            do { edits = try RegionEdits(source) } catch { XCTAssertTrue(error is InputError, "\(error)"); refused += 1; continue }
            do { _ = try await blurrer.render(png, name: "a.png", previous: previous, edits: edits); rendered += 1 } catch {
                XCTAssertTrue(error is VeilError, "\(error)")
            }
        }
        let total = Double(inputs.count) / Date().timeIntervalSince(start)
        FuzzMutator.report("options", iterations: iterations, rate: min(rate, total))
        XCTAssertGreaterThan(rendered, 0)
        XCTAssertGreaterThan(refused, 0)
    }
}
