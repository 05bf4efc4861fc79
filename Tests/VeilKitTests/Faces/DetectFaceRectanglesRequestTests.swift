import Foundation
@testable import VeilKit
import XCTest

final class DetectFaceRectanglesRequestTests: XCTestCase {
    func testSamplePhotoHasExactlyOneFaceRoundTheFace() async throws {
        try TestData.requireFaceModel()
        let url = try TestData.astronaut()
        let faces = try await DetectFaceRectanglesRequest().perform(on: url)
        XCTAssertEqual(faces.count, 1)
        let box = faces[0].boundingBox.toImageCoordinates(PixelSize(width: 512, height: 512), origin: .upperLeft)
        XCTAssertGreaterThan(box.iou(TestData.astronautFace), 0.6, "box \(box)")
        XCTAssertGreaterThan(faces[0].confidence, 0.5)
    }

    func testLandmarksLieInsideTheirBoxesInOrder() async throws {
        try TestData.requireFaceModel()
        let faces = try await DetectFaceRectanglesRequest().perform(on: TestData.astronaut())
        let face = try XCTUnwrap(faces.first)
        let marks = try XCTUnwrap(face.landmarks)
        XCTAssertEqual(marks.points.count, 5)
        for p in marks.points { XCTAssertTrue(face.boundingBox.contains(p), "\(p) outside \(face.boundingBox)") }
        // Lower-left origin: eyes are above (greater y than) the mouth, left eye left of right eye.
        XCTAssertGreaterThan(marks.leftEye.y, marks.mouthLeft.y)
        XCTAssertLessThan(marks.leftEye.x, marks.rightEye.x)
        XCTAssertGreaterThan(marks.nose.y, marks.mouthRight.y)
    }

    /// Every labelled face found at IoU >= 0.5, precision >= 0.9, at the default threshold.
    func testLabelledDevSetRecallAndPrecision() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.sharedData("faces-dev")
        let truth = try GroundTruth.load(dir.appendingPathComponent("ground-truth.json"))
        var matched = 0, labelled = 0, falsePositives = 0
        for (name, image, boxes) in try await truth.detections(by: DetectFaceRectanglesRequest(), in: dir) {
            var used = Set<Int>()
            for face in image.faces {
                let label = ImageRect(x: face.x, y: face.y, width: face.w, height: face.h)
                let best = boxes.indices.filter { !used.contains($0) }.max { boxes[$0].iou(label) < boxes[$1].iou(label) }
                let hit = best.map { boxes[$0].iou(label) >= 0.5 } ?? false
                if hit, let best { used.insert(best) }
                if face.ignore { continue }
                labelled += 1
                if hit { matched += 1 } else { XCTFail("missed face \(label) in \(name)") }
            }
            falsePositives += boxes.count - used.count
        }
        XCTAssertEqual(labelled, 43 - truth.ignoredCount)
        XCTAssertEqual(matched, labelled)
        let precision = Double(matched) / Double(matched + falsePositives)
        XCTAssertGreaterThanOrEqual(precision, 0.9)
    }

    /// A face much smaller than the image, placed across the seams of the tiles
    /// a large image is cut into, is found once, in the right place.
    func testSmallFaceInLargeImageAcrossTileSeams() async throws {
        try TestData.requireFaceModel()
        let astronaut = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let face = try astronaut.cropped(to: PixelRect(x: 150, y: 30, width: 150, height: 180))
        let pixels = try face.pixelBytes()
        // 4000x3000 grey canvas; tiles are 1280 wide with 256 overlap, so x = 1000...1150 spans a seam.
        var canvas = [UInt8](repeating: 128, count: 4000 * 3000 * 3)
        let origin = (x: 980, y: 1000)
        for row in 0..<180 {
            let src = row * 150 * 3, dst = ((origin.y + row) * 4000 + origin.x) * 3
            canvas.replaceSubrange(dst..<(dst + 450), with: pixels[src..<(src + 450)])
        }
        let big = try VeilImage(pixels: canvas, width: 4000, height: 3000, bands: 3)
        let faces = try await DetectFaceRectanglesRequest().perform(on: big)
        XCTAssertEqual(faces.count, 1)
        let expected = ImageRect(x: Double(origin.x) + TestData.astronautFace.x - 150, y: Double(origin.y) + TestData.astronautFace.y - 30,
                                 width: TestData.astronautFace.width, height: TestData.astronautFace.height)
        let box = try XCTUnwrap(faces.first).boundingBox.toImageCoordinates(big.size, origin: .upperLeft)
        XCTAssertGreaterThan(box.iou(expected), 0.6, "box \(box), expected \(expected)")
    }

    /// The progress handler hears once per pass, the share done rising to 1,
    /// and watching changes nothing found.
    func testProgressHandlerCountsEveryPassUpToOne() async throws {
        try TestData.requireFaceModel()
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 1600, height: 1200)
        var request = DetectFaceRectanglesRequest.privacy(.retinaFace)
        let first = request.tiling.passes(for: image.size).count
        XCTAssertGreaterThan(first, 2, "a 1600x1200 photo is tiled")
        let unwatched = try await request.perform(on: image)
        let heard = Heard()
        request.progressHandler = { heard.append($0) }
        let watched = try await request.perform(on: image)
        let fractions = heard.values
        XCTAssertGreaterThanOrEqual(fractions.count, first)
        XCTAssertEqual(fractions, fractions.sorted())
        XCTAssertTrue(fractions.allSatisfy { $0 > 0 })
        XCTAssertEqual(try XCTUnwrap(fractions.last), 1, accuracy: 1e-9)
        XCTAssertEqual(watched.map(\.boundingBox), unwatched.map(\.boundingBox))
    }

    /// Detection goes where small faces can be: a portrait costs one pass at
    /// the privacy preset; a crowd gets finer passes where its small faces are.
    func testAPortraitRunsOnePassAndACrowdItsFinerOnes() async throws {
        try TestData.requireFaceModel()
        var request = DetectFaceRectanglesRequest.privacy
        let heard = Heard()
        request.progressHandler = { heard.append($0) }
        let faces = try await request.perform(on: TestData.astronaut())
        XCTAssertEqual(faces.filter { $0.confidence > 0.5 }.count, 1)
        XCTAssertEqual(heard.values.count, 1, "one pass: \(heard.values)")
        let crowd = try TestData.sharedData("faces-small").appendingPathComponent("images")
        let canvas = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: crowd.path).sorted().first { $0.hasSuffix(".jpg") })
        let image = try ImageDecoder().decode(.url(crowd.appendingPathComponent(canvas))).image
        let first = request.tiling.passes(for: image.size).count
        let counted = Heard()
        request.progressHandler = { counted.append($0) }
        _ = try await request.perform(on: image)
        XCTAssertGreaterThan(counted.values.count, first, "finer passes over the crowd")
        XCTAssertEqual(try XCTUnwrap(counted.values.last), 1, accuracy: 1e-9)
        // The finer passes cost what the small faces span, never more than the grid at 2x.
        let refinement = try XCTUnwrap(request.refinement)
        var hints = request
        hints.confidenceThreshold = refinement.hintThreshold
        hints.refinement = nil
        let seen = try await hints.detect(in: image.srgb8().materialized())
        let finer = PassProgress.cost(refinement.passes(for: image.size, tiling: request.tiling, seen: seen))
        let grid = PassProgress.cost(refinement.tiles(for: image.size, tiling: request.tiling))
        XCTAssertGreaterThan(finer, 0)
        XCTAssertLessThanOrEqual(finer, grid * 1.01, "at most the grid (a canvas strewn with faces is all one area)")
    }

    func testCancelledTaskStopsWithCancellationError() async throws {
        try TestData.requireFaceModel()
        let url = try TestData.astronaut()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await DetectFaceRectanglesRequest().perform(on: url)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled request returned results")
        } catch is CancellationError {}
    }

    func testThresholdFiltersFaces() async throws {
        try TestData.requireFaceModel()
        var request = DetectFaceRectanglesRequest()
        request.confidenceThreshold = 0.99
        let url = try TestData.astronaut()
        let strict = try await request.perform(on: url)
        XCTAssertTrue(strict.allSatisfy { $0.confidence > 0.99 })
        XCTAssertEqual(strict.count, 0, "the sample face scores about 0.93")
    }

    func testMissingModelGivesInstallHint() async throws {
        let empty = try TestData.scratch(self)
        var request = DetectFaceRectanglesRequest()
        request.home = VeilHome(url: empty)
        do {
            _ = try await request.perform(on: VeilImage(pixels: [UInt8](repeating: 0, count: 64 * 64 * 3), width: 64, height: 64, bands: 3))
            XCTFail("ran without a runtime")
        } catch let error as VeilError {
            guard case .missingAsset = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.contains("veil models install"), error.description)
        }
    }
}

/// `../shared/data/faces-dev/ground-truth.json`.
struct GroundTruth: Decodable {
    struct Face: Decodable { var x, y, w, h: Double; var ignore: Bool }
    struct Image: Decodable { var width, height: Int; var faces: [Face] }
    var images: [String: Image]

    var ignoredCount: Int { images.values.flatMap(\.faces).filter(\.ignore).count }

    static func load(_ url: URL) throws -> GroundTruth {
        try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: url))
    }

    /// Each labelled image (from `dir`/images, in name order) with the boxes
    /// `request` finds in it, in pixels with the origin at the top left.
    func detections(by request: DetectFaceRectanglesRequest, in dir: URL) async throws -> [(name: String, image: Image, boxes: [ImageRect])] {
        var out: [(name: String, image: Image, boxes: [ImageRect])] = []
        for (name, image) in images.sorted(by: { $0.key < $1.key }) {
            let size = PixelSize(width: image.width, height: image.height)
            let boxes = try await request.perform(on: dir.appendingPathComponent("images").appendingPathComponent(name))
                .map { $0.boundingBox.toImageCoordinates(size, origin: .upperLeft) }
            out.append((name, image, boxes))
        }
        return out
    }
}
