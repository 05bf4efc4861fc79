import Foundation
@testable import VeilKit
import VeilTestSupport
import XCTest

/// BlazePose's two TFLite models, converted at install (sparse weights made
/// dense, depth-to-space, reshapes, pads), give what MediaPipe's own runtime
/// gives on the same inputs: Tests/Fixtures/pose-reference-*, made by
/// bench/pose_reference.py with the mediapipe wheel's calculator graph.
final class PoseModelTests: XCTestCase {
    private func requireModels() throws {
        for asset in [Asset.onnxRuntime, .poseDetection, .poseLandmarks, .astronaut, .cameraman]
        where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    /// A square of a sample photo halved by 2x2 means rounded half up (as the
    /// reference script makes its inputs), as NCHW floats value * scale + offset.
    private func halved(_ asset: Asset, x: Int, y: Int, side: Int, scale: Float, offset: Float) throws -> Tensor {
        let photo = try ImageDecoder().decode(.url(TestData.sample(asset))).image.srgb8()
        let bytes = try photo.cropped(to: PixelRect(x: x, y: y, width: side, height: side)).materialized().pixelBytes()
        let half = side / 2
        var values = [Float](repeating: 0, count: 3 * half * half)
        for c in 0..<3 { for r in 0..<half { for q in 0..<half {
            let at = { (dy: Int, dx: Int) in Int(bytes[((2 * r + dy) * side + 2 * q + dx) * 3 + c]) }
            let mean = (at(0, 0) + at(0, 1) + at(1, 0) + at(1, 1) + 2) / 4
            values[(c * half + r) * half + q] = Float(mean) * scale + offset
        } } }
        return Tensor(shape: [1, 3, half, half], values: values)
    }

    private func fixture(_ name: String) -> URL { TestData.fixtures.appendingPathComponent(name) }

    func testConvertedDetectorGivesMediaPipesOwnOutputs() async throws {
        try requireModels()
        let network = try await PoseDetectionNetwork.load(home: .default, device: .cpu)
        for (name, asset, x, y) in [("astronaut", Asset.astronaut, 32, 0), ("cameraman", .cameraman, 32, 64)] {
            let (boxes, scores) = try await network.run(try halved(asset, x: x, y: y, side: 448, scale: 2 / 255, offset: -1))
            let data = try Data(contentsOf: fixture("pose-reference-detector-\(name).f16"))
            let reference = stride(from: 0, to: data.count, by: 2).map { Float(Float16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)) }
            XCTAssertEqual(reference.count, boxes.count + scores.count)
            // The fixture is float16: a quarter of a unit at 256..512, where the largest logits and offsets lie.
            let tolerance = { (v: Float) in max(0.02, abs(v) / 1024) + 0.12 }
            let refScores = reference[boxes.count...]
            for (a, b) in zip(scores, refScores) { XCTAssertEqual(a, b, accuracy: tolerance(b), "\(name) score") }
            for (a, b) in zip(boxes, reference) { XCTAssertEqual(a, b, accuracy: tolerance(b) + 0.12, "\(name) box") }
            // The same anchor is the best, and it says a person is there.
            let best = scores.indices.max { scores[$0] < scores[$1] }!
            XCTAssertEqual(best, refScores.indices.max { refScores[$0] < refScores[$1] }! - boxes.count, name)
            XCTAssertGreaterThan(scores[best], 0, "\(name): a person, at above even odds")
        }
    }

    func testConvertedLandmarkModelGivesMediaPipesOwnOutputs() async throws {
        try requireModels()
        let network = try await PoseLandmarkNetwork.load(home: .default, device: .cpu)
        for (name, asset) in [("astronaut", Asset.astronaut), ("cameraman", .cameraman)] {
            let out = try await network.run(try halved(asset, x: 0, y: 0, side: 512, scale: 1 / 255, offset: 0))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture("pose-reference-landmarks-\(name).json"))) as! [String: Any]
            let landmarks = (json["landmarks"] as! [Double]).map(Float.init), presence = Float(json["presence"] as! Double)
            XCTAssertEqual(out.presence, presence, accuracy: 0.002, name)
            XCTAssertGreaterThan(out.presence, 0.5, "\(name): a person")
            XCTAssertEqual(out.landmarks.count, landmarks.count)
            // x and y in crop pixels; z, visibility and presence logits: all within a hundredth of a pixel's scale.
            for (i, (a, b)) in zip(out.landmarks, landmarks).enumerated() { XCTAssertEqual(a, b, accuracy: 0.02 + abs(b) / 500, "\(name) landmark value \(i)") }
            let reference = try ImageDecoder().decode(.url(fixture("pose-reference-mask-\(name).png"))).image.band(0).pixelBytes()
            XCTAssertEqual(reference.count, out.mask.count)
            let errors = zip(out.mask, reference).map { abs(Double(1 / (1 + exp(-$0))) * 255 - Double($1)) }
            XCTAssertLessThanOrEqual(errors.max() ?? 99, 1.5, "\(name): largest difference in 8-bit levels")
            XCTAssertLessThan(errors.reduce(0, +) / Double(errors.count), 0.1, name)
        }
    }
}
