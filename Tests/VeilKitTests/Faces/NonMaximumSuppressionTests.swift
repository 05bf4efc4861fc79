@testable import VeilKit
import XCTest

/// The grid-filed suppression keeps exactly what comparing every pair keeps.
final class NonMaximumSuppressionTests: XCTestCase {
    /// The definition: each face, best first, kept unless it overlaps a kept one by more than `iou`.
    private func everyPair(_ faces: [DetectedFace], iou: Double) -> [DetectedFace] {
        var kept: [DetectedFace] = []
        for f in faces.sorted(by: { $0.score > $1.score }) where !kept.contains(where: { $0.box.iou(f.box) > iou }) { kept.append(f) }
        return kept
    }

    func testTheGridKeepsWhatEveryPairKeeps() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<12 {
            // A crowd of small faces, each seen at a few neighbouring cells, a few large faces, and outliers.
            var faces: [DetectedFace] = []
            for _ in 0..<(50 + round * 20) {
                let side = Double.random(in: 4...40, using: &rng)
                let x = Double.random(in: -20...2000, using: &rng), y = Double.random(in: -20...1200, using: &rng)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let box = ImageRect(x: x + .random(in: -3...3, using: &rng), y: y + .random(in: -3...3, using: &rng),
                                        width: side * .random(in: 0.8...1.2, using: &rng), height: side * .random(in: 0.8...1.3, using: &rng))
                    faces.append(DetectedFace(box: box, score: .random(in: 0.05...1, using: &rng), landmarks: []))
                }
            }
            for _ in 0..<5 {
                let side = Double.random(in: 200...1500, using: &rng)
                faces.append(DetectedFace(box: ImageRect(x: .random(in: 0...800, using: &rng), y: .random(in: 0...400, using: &rng), width: side, height: side),
                                          score: .random(in: 0.05...1, using: &rng), landmarks: []))
            }
            faces.append(DetectedFace(box: ImageRect(x: 10, y: 10, width: .infinity, height: 30), score: 0.5, landmarks: []))
            faces.append(DetectedFace(box: ImageRect(x: 1e300, y: 5, width: 10, height: 10), score: 0.6, landmarks: []))
            faces.append(DetectedFace(box: ImageRect(x: 50, y: 50, width: 0, height: 0), score: 0.7, landmarks: []))
            for iou in [0.3, 0.4] {
                let expected = everyPair(faces, iou: iou), got = nonMaximumSuppression(faces, iou: iou)
                XCTAssertEqual(got.map(\.box), expected.map(\.box), "round \(round), iou \(iou)")
                XCTAssertLessThan(got.count, faces.count, "some faces were suppressed")
            }
        }
    }
}
