import Foundation
@testable import VeilKit
import XCTest

/// SFace's embedding of a face aligned by its landmarks: the astronaut against
/// herself moved and resized, and against the cameraman.
final class FaceEmbedderTests: XCTestCase {
    private func requireModels() throws {
        try TestData.requireFaceModel([.retinaFace, .sface])
    }

    /// RetinaFace (video's detector) at the analysis threshold: the faces of `image`, largest first.
    private func faces(in image: VeilImage) async throws -> [DetectedFace] {
        var request = DetectFaceRectanglesRequest()
        request.model = .retinaFace
        return try await request.detect(in: image.srgb8()).sorted { $0.box.area > $1.box.area }
    }

    private func embedding(of image: VeilImage) async throws -> FaceEmbedding {
        let rgb = try image.srgb8()
        let found = try await faces(in: rgb)
        let face = try XCTUnwrap(found.first, "no face found")
        let embedder = try await FaceEmbedder.load(device: .cpu)
        let embeddings = try await embedder.embeddings(of: [face.landmarks], in: rgb.pixelBytes(), width: rgb.width, height: rgb.height)
        return try XCTUnwrap(embeddings.first)
    }

    /// Measured (2026-12-06): the astronaut against herself shrunk and moved, or
    /// cropped and enlarged, 0.96–0.98; against the cameraman 0.17–0.19. Asserted
    /// with margin: at least 0.85, at most 0.3 (OpenCV's threshold for one person is 0.363).
    func testTheSamePersonMovedAndResizedScoresHighAndAnotherPersonLow() async throws {
        try requireModels()
        let astronaut = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8()
        let original = try await embedding(of: astronaut)
        // Shrunk to 0.55 and shifted onto a grey canvas; a crop enlarged 1.6x.
        let small = try astronaut.resized(width: 282, height: 282)
        let canvas = try Canvas(try VeilImage.constant(RGB(90, 90, 90), size: PixelSize(width: 640, height: 400)))
        try canvas.paste(small, x: 300, y: 90)
        let moved = try await embedding(of: canvas.image)
        let large = try astronaut.cropped(to: PixelRect(x: 120, y: 10, width: 220, height: 240)).resized(width: 352, height: 384)
        let enlarged = try await embedding(of: large)
        let cameraman = try await embedding(of: ImageDecoder().decode(.url(TestData.sample(.cameraman))).image.srgb8())
        let figures = [original.similarity(to: moved), original.similarity(to: enlarged), moved.similarity(to: enlarged),
                       original.similarity(to: cameraman), moved.similarity(to: cameraman), enlarged.similarity(to: cameraman)]
        for same in figures[0...2] { XCTAssertGreaterThanOrEqual(same, 0.85, "one person: \(figures)") }
        for other in figures[3...5] { XCTAssertLessThanOrEqual(other, 0.3, "two people: \(figures)") }
        XCTAssertEqual(original.values.count, 128)
        XCTAssertEqual(original.similarity(to: original), 1, accuracy: 1e-4)
    }

    /// The alignment is the similarity that puts the template's points on themselves, and a
    /// face turned, shifted and scaled back onto the template exactly.
    func testAlignmentRecoversATurnedScaledShiftedFace() throws {
        let template = FaceEmbedder.template.map { (x: $0.x + 0.5, y: $0.y + 0.5) }
        let identity = try XCTUnwrap(FaceEmbedder.alignment(template))
        XCTAssertEqual(identity.a, 1, accuracy: 1e-9); XCTAssertEqual(identity.b, 0, accuracy: 1e-9)
        XCTAssertEqual(identity.tx, 0, accuracy: 1e-9); XCTAssertEqual(identity.ty, 0, accuracy: 1e-9)
        let angle = 0.4, scale = 2.3
        let moved = FaceEmbedder.Similarity(a: scale * cos(angle), b: scale * sin(angle), tx: 310, ty: -42)
        let face = template.map { moved.apply($0) }
        let back = try XCTUnwrap(FaceEmbedder.alignment(face))
        for (p, q) in zip(face, template) {
            let r = back.apply(p)
            XCTAssertEqual(r.x, q.x, accuracy: 1e-6); XCTAssertEqual(r.y, q.y, accuracy: 1e-6)
        }
        let inverse = try XCTUnwrap(back.inverse)
        for p in face { let r = inverse.apply(back.apply(p)); XCTAssertEqual(r.x, p.x, accuracy: 1e-6); XCTAssertEqual(r.y, p.y, accuracy: 1e-6) }
        XCTAssertNil(FaceEmbedder.alignment(Array(repeating: (x: 3, y: 4), count: 5)), "points that coincide align nothing")
        XCTAssertNil(FaceEmbedder.alignment(Array(template.prefix(4))))
    }
}
