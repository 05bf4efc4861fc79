import Foundation
import VeilKit
import XCTest

/// The same photo stored in each of the eight EXIF orientations gives the
/// same faces in upright coordinates.
final class OrientationTests: XCTestCase {
    /// Stored pixels for `orientation`: the inverse of what makes them upright,
    /// built from plain rotations and flips (independent of the library's table).
    private func stored(_ upright: VeilImage, for orientation: ImageOrientation) throws -> VeilImage {
        switch orientation {
        case .up: return upright
        case .upMirrored: return try upright.applying(.upMirrored)  // a mirror is its own inverse
        case .down: return try upright.applying(.down)
        case .downMirrored: return try upright.applying(.downMirrored)
        case .leftMirrored: return try upright.applying(.leftMirrored)  // transpose: own inverse
        case .right: return try upright.applying(.left)  // 90° one way undoes 90° the other
        case .rightMirrored: return try upright.applying(.rightMirrored)  // transverse: own inverse
        case .left: return try upright.applying(.right)
        }
    }

    func testEveryExifOrientationGivesTheSameUprightFaces() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let upright = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let reference = try await DetectFaceRectanglesRequest().perform(on: upright)
        XCTAssertEqual(reference.count, 1)
        for orientation in ImageOrientation.allCases {
            let file = dir.appendingPathComponent("o\(orientation.rawValue).jpg")
            try TestImages.writeJPEG(stored(upright, for: orientation), orientation: orientation, to: file)
            // libvips reads the EXIF tag back and turns the pixels upright (autorot).
            let decoded = try ImageDecoder().decode(.url(file))
            XCTAssertEqual(decoded.storedOrientation, orientation)
            XCTAssertEqual(decoded.image.size, upright.size)
            let faces = try await DetectFaceRectanglesRequest().perform(on: file)
            XCTAssertEqual(faces.count, 1, "orientation \(orientation)")
            let a = faces[0].boundingBox.toImageCoordinates(upright.size), b = reference[0].boundingBox.toImageCoordinates(upright.size)
            XCTAssertGreaterThan(a.iou(b), 0.85, "orientation \(orientation): \(a) vs \(b)")
            // An explicit orientation overrides the file's tag, as in Vision: treating
            // the stored pixels as `.up` must not give the upright answer for turned images.
            let explicit = try await DetectFaceRectanglesRequest().perform(on: file, orientation: .up)
            if orientation == .up || orientation == .upMirrored {
                XCTAssertEqual(explicit.count, 1)
            }
            // And the library's own transform table agrees with libvips' autorot.
            let rawStored = try ImageDecoder().decode(.url(file), orientation: .up).image
            let turned = try rawStored.applying(orientation)
            XCTAssertLessThan(try TestImages.meanAbsoluteDifference(turned, decoded.image), 4, "orientation \(orientation)")
        }
    }
}
