import Foundation
@testable import VeilKit
import VeilTestSupport
import XCTest

/// People found by their bodies (BlazePose's detector and landmark model, run
/// as MediaPipe runs them) on the sample photos, with no face to go by.
final class BodyFinderTests: XCTestCase {
    private func requireModels() throws {
        for asset in [Asset.onnxRuntime, .poseDetection, .poseLandmarks, .selfieSegmentation, .centerFace, .u2netp, .cameraman, .astronaut]
        where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    /// The people's face detector made blind (a threshold no face reaches):
    /// the cameraman is still found whole by his body, the face in his head
    /// found at the privacy threshold; and not at all without bodies.
    func testAPersonIsFoundByHisBody() async throws {
        try requireModels()
        var request = GeneratePersonSegmentationRequest()
        request.faceDetector.confidenceThreshold = 1.01
        request.joinsSubjects = false
        let url = try TestData.sample(.cameraman)
        let people = try await request.perform(on: url)
        XCTAssertEqual(people.faces.count, 1, "one person, his head taken as the face")
        XCTAssertTrue((0.15...0.6).contains(people.coverage), "\(people.coverage)")
        let values = try people.generateScaledMask().values()
        let head = try XCTUnwrap(people.faces.first)
        // The head's box (normalized, origin lower-left) holds person pixels, the sky top left does not.
        let hx = Int((head.x + head.width / 2) * 512), hy = Int((1 - head.y - head.height / 2) * 512)
        XCTAssertGreaterThan(values[hy * 512 + hx], 0.5, "the head is the person's")
        XCTAssertLessThan(values[20 * 512 + 20], 0.1, "the sky top left is not")
        request.findsBodies = false
        let nobody = try await request.perform(on: url)
        XCTAssertEqual(nobody.coverage, 0, "no face, no body: nobody")
    }

    /// A body is kept only with a face in its head (`PersonSegmenter.hasAFace`):
    /// the cameraman's body with the face the privacy preset finds on him, not
    /// with none, nor with a face elsewhere. BlazePose takes a swan or a car
    /// for a body too, and no face sits in their heads
    /// (docs/design/people.md#people-found-by-their-bodies).
    func testABodyIsKeptOnlyWithAFaceInItsHead() async throws {
        try requireModels()
        let photo = try ImageDecoder().decode(.url(TestData.sample(.cameraman))).image.srgb8().materialized()
        let finder = try await BodyFinder.load(home: .default, device: .cpu)
        let bodies = try await finder.find(try photo.pixelBytes(), width: photo.width, height: photo.height)
        let body = try XCTUnwrap(bodies.first)
        let faces = try await DetectFaceRectanglesRequest.privacy.detect(in: photo)
        let face = try XCTUnwrap(faces.max { $0.score < $1.score })
        XCTAssertTrue(PersonSegmenter.hasAFace(body, among: [ImageRect.Point(x: face.box.midX, y: face.box.midY)]))
        XCTAssertFalse(PersonSegmenter.hasAFace(body, among: []))
        XCTAssertFalse(PersonSegmenter.hasAFace(body, among: [ImageRect.Point(x: 20, y: 20)]), "a face in the sky is not his")
    }

    /// MediaPipe's own pipeline on a 448x512 crop of the astronaut (bench/pose_reference.py:
    /// its first detection, the crop it places, the mask laid back): the same here within a
    /// pixel or so. Sampling at pixel centres instead moved the hips 19 px and the score to 0.81.
    func testTheDetectionCropAndMaskAreMediaPipes() async throws {
        try requireModels()
        let (w, h) = (448, 512)
        let photo = try ImageDecoder().decode(.url(TestData.sample(.astronaut))).image.srgb8()
        let rgb = try photo.cropped(to: PixelRect(x: 64, y: 0, width: w, height: h)).materialized().pixelBytes()
        let url = TestData.fixtures.appendingPathComponent("pose-reference-pipeline-astronaut.json")
        let reference = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let finder = try await BodyFinder.load(home: .default, device: .cpu)
        let detections = PoseDetector.suppressed(try await finder.detector.detect(rgb, width: w, height: h, view: (0, 0, w, h)))
        let best = try XCTUnwrap(detections.first, "MediaPipe finds the astronaut")
        XCTAssertEqual(Double(best.score), reference["score"] as! Double, accuracy: 0.01)
        for (k, point) in (reference["keypoints"] as! [[Double]]).enumerated() {
            XCTAssertEqual(best.keypoints[k].x, point[0], accuracy: 3, "keypoint \(k)")
            XCTAssertEqual(best.keypoints[k].y, point[1], accuracy: 3, "keypoint \(k)")
        }
        let region = best.region, centre = reference["centre"] as! [Double]
        XCTAssertEqual(region.centre.x, centre[0], accuracy: 3); XCTAssertEqual(region.centre.y, centre[1], accuracy: 3)
        XCTAssertEqual(region.side, reference["side"] as! Double, accuracy: 10)
        XCTAssertEqual(region.angle, reference["rotation"] as! Double, accuracy: 0.01)
        let side = PoseLandmarkNetwork.side
        let out = try await finder.landmarks.run(region.sample(rgb, width: w, height: h, size: side, scale: 1 / 255, offset: 0, border: .edge))
        XCTAssertGreaterThanOrEqual(out.presence, 0.5, "a person, as MediaPipe says")
        var mask = [Bool](repeating: false, count: w * h)
        region.layBack(out.mask.map { 1 / (1 + exp(-max(-80, min(80, $0)))) }, size: side, width: w, height: h) { mask[$0] = $1 >= 0.5 }
        let png = try ImageDecoder().decode(.url(TestData.fixtures.appendingPathComponent("pose-reference-pipeline-mask-astronaut.png"))).image
        XCTAssertEqual(png.width * png.height, w * h)
        let bytes = try png.pixelBytes(), bands = bytes.count / (w * h)
        let theirs = stride(from: 0, to: bytes.count, by: bands).map { bytes[$0] >= 128 }
        let both = zip(mask, theirs).filter { $0 && $1 }.count, either = zip(mask, theirs).filter { $0 || $1 }.count
        XCTAssertGreaterThan(Double(both) / Double(max(either, 1)), 0.95, "the mask's IoU with MediaPipe's")
    }

    /// The detector's anchors are MediaPipe's: 2,254, the first cell's centre at 1/56, the last at 13/14.
    func testAnchorsAreMediaPipes() {
        let anchors = PoseDetector.anchors
        XCTAssertEqual(anchors.count, PoseDetectionNetwork.anchors)
        XCTAssertEqual(anchors[0].x, 0.5 / 28, accuracy: 1e-9)
        XCTAssertEqual(anchors[anchors.count - 1].x, 6.5 / 7, accuracy: 1e-9)
        XCTAssertEqual(anchors[1568].x, 0.5 / 14, accuracy: 1e-9)
    }

    /// A rotated crop's corners map back where they were taken from, and the hips'
    /// centre with a scale keypoint straight above gives an upright crop.
    func testRegionGeometry() {
        let upright = PoseRegion(hips: (100, 200), scale: (100, 120))
        XCTAssertEqual(upright.angle, 0, accuracy: 1e-9)
        XCTAssertEqual(upright.side, 200, accuracy: 1e-9)
        let turned = PoseRegion(hips: (100, 200), scale: (180, 200))
        XCTAssertEqual(turned.angle, Double.pi / 2, accuracy: 1e-9, "the body lies to the right: turned a quarter")
        let top = turned.imagePoint(128, 0, size: 256)
        XCTAssertEqual(top.x, 200, accuracy: 1e-9); XCTAssertEqual(top.y, 200, accuracy: 1e-9)
        // Laid back as MediaPipe's WarpAffineCalculator lays its mask back: map cell i at crop
        // coordinate i, blended with zero beyond the last cell (here 12.5 px a cell).
        var hits = 0
        let map = [Float](repeating: 1, count: 16 * 16)
        PoseRegion(hips: (200, 200), scale: (200, 120)).layBack(map, size: 16, width: 400, height: 400) { i, value in
            let x = i % 400, y = i / 400
            XCTAssertTrue((87...300).contains(x) && (87...300).contains(y), "\(x),\(y) beyond a cell of the crop")
            if value >= 0.5 { hits += 1 }
        }
        XCTAssertEqual(Double(hits), 200 * 200, accuracy: 800)
    }
}
