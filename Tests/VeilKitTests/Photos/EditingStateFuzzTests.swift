import Foundation
@testable import VeilKit
import XCTest

/// Editing states come from disk, a web editor and an HTTP header: mutated
/// states must decode to a refusal or to a state that renders, never trap.
final class EditingStateFuzzTests: XCTestCase {
    /// A 96x64 photo's state with a detected face, a drawn box and a pen stroke.
    static func seedState(sha256: String) -> EditingState {
        EditingState(source: .init(file: "a.png", sha256: sha256, width: 96, height: 64), original: "a.png",
                     faces: .recognized(threshold: 0.5, faces: [.init(box: .init(x: 0.2, y: 0.2, width: 0.3, height: 0.4), confidence: 0.9)]),
                     regions: .confirmed([.init(box: .init(x: 0.2, y: 0.2, width: 0.3, height: 0.4), face: 0),
                                          .init(box: .init(x: 0.6, y: 0.5, width: 0.2, height: 0.2), face: nil)]),
                     strokes: [.init(points: [[0.1, 0.1], [0.9, 0.8], [0.5, 0.5]], width: 0.05)],
                     style: .pixelate(strength: 1), shape: .disc, maskScale: 1, exported: nil)
    }

    func testMutatedStatesAreRefusedOrRendered() throws {
        let dir = try TestData.scratch(self)
        let image = try VeilImage(pixels: (0..<(96 * 64 * 3)).map { UInt8($0 % 251) }, width: 96, height: 64, bands: 3)
        var seeds: [[UInt8]] = []
        for style in [CoverStyle.pixelate(strength: 1), .blur(strength: 2), .solid(RGB(1, 2, 3)), .image(path: "sticker.png")] {
            var state = Self.seedState(sha256: String(repeating: "0", count: 64))
            state.style = style
            seeds.append([UInt8](try state.sidecarData()))
        }
        try ImageEncoder(format: .png).write(image, to: dir.appendingPathComponent("sticker.png"))
        var mutator = FuzzMutator(seed: FuzzMutator.seed, dictionary: ["{", "}", "[", "]", "\"", ":", "null", "true", "\"notYet\"",
                                                                         "\"confirmed\"", "\"recognized\"", "\"image=/etc/passwd\"",
                                                                         "\"image=../x.png\"", "\"version\": 999", "[[1e300, 1e300]]"])
        let iterations = FuzzMutator.iterations(3000)
        var accepted = 0
        let rate = mutator.run(seeds: seeds, iterations: iterations) { bytes in
            guard let state = try? EditingState.decode(Data(bytes), folder: dir) else { return }
            accepted += 1
            let (regions, strokes) = state.coverInput()
            var style = state.style
            if case .image = style { style = .solid(RGB(0, 0, 0)) }  // the file itself is not what is fuzzed
            _ = try? FaceCover(style: style, profile: MaskProfile(scale: state.maskScale)).apply(to: image, regions: regions, strokes: strokes).pixelBytes()
        }
        FuzzMutator.report("editing-state", iterations: iterations, rate: rate)
        XCTAssertGreaterThan(accepted, 0, "no mutant was a valid state: the run tested only the JSON parser")
    }
}
