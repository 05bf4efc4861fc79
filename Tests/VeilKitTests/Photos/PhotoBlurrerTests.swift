import Foundation
@testable import VeilKit
import XCTest

final class PhotoBlurrerTests: XCTestCase {
    private let magenta = RGB(255, 0, 255)

    private func solidBlurrer() -> PhotoBlurrer {
        var blurrer = PhotoBlurrer()
        blurrer.style = .solid(magenta)
        return blurrer
    }

    /// Whether every pixel of the central part (±20%: the labels are loose) of `box` is magenta.
    private func centreIsCovered(_ bytes: [UInt8], width: Int, box: ImageRect) -> Bool {
        let x0 = Int(box.midX - 0.2 * box.width), x1 = Int(box.midX + 0.2 * box.width)
        let y0 = Int(box.midY - 0.2 * box.height), y1 = Int(box.midY + 0.2 * box.height)
        for y in y0...y1 { for x in x0...x1 {
            let i = (y * width + x) * 3
            if bytes[i] != 255 || bytes[i + 1] != 0 || bytes[i + 2] != 255 { return false }
        } }
        return true
    }

    func testEveryLabelledDevFaceIsCovered() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.sharedData("faces-dev")
        let out = try TestData.scratch(self)
        let truth = try GroundTruth.load(dir.appendingPathComponent("ground-truth.json"))
        for (name, image) in truth.images {
            let output = out.appendingPathComponent(name).deletingPathExtension().appendingPathExtension("png")
            _ = try await solidBlurrer().run(.init(input: dir.appendingPathComponent("images/\(name)"), output: output))
            let bytes = try ImageDecoder().decode(.url(output)).image.pixelBytes()
            for face in image.faces where !face.ignore {
                XCTAssertTrue(centreIsCovered(bytes, width: image.width, box: ImageRect(x: face.x, y: face.y, width: face.w, height: face.h)),
                              "face \(face) of \(name) is visible")
            }
        }
    }

    /// A box the user draws is covered as drawn, to its corners, though the
    /// faces are covered through discs: a wide banner boxed whole is covered
    /// whole (through a disc inscribed in it only its middle was).
    func testADrawnBoxIsCoveredToItsCorners() async throws {
        try TestData.requireFaceModel()
        let out = try TestData.scratch(self).appendingPathComponent("banner.png")
        let banner = ImageRect(x: 40, y: 400, width: 300, height: 40)
        _ = try await solidBlurrer().run(.init(input: TestData.astronaut(), output: out, edits: RegionEdits(add: [banner])))
        let bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        for (x, y) in [(41, 401), (338, 401), (41, 438), (338, 438), (190, 420)] {
            XCTAssertEqual(Array(bytes[(y * 512 + x) * 3..<(y * 512 + x) * 3 + 3]), [255, 0, 255], "(\(x), \(y))")
        }
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: TestData.astronautFace), "the face still covered")
    }

    /// A drop is undone (`--undrop`), and a photo's edits are reset
    /// (`--reset`): back to what the detector found. The preview numbers the
    /// regions and shows a dropped face in red.
    func testUndropAndResetUndoEdits() async throws {
        try TestData.requireFaceModel()
        let out = try TestData.scratch(self).appendingPathComponent("u.png")
        let photo = try TestData.astronaut()
        _ = try await solidBlurrer().run(.init(input: photo, output: out, edits: RegionEdits(drop: [0])))
        var bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertFalse(centreIsCovered(bytes, width: 512, box: TestData.astronautFace))
        let state = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        let preview = try PhotoBlurrer.sideBySide(original: try ImageDecoder().decode(.url(photo)).image,
                                                  result: try ImageDecoder().decode(.url(out)).image, state: state).pixelBytes()
        let f = TestData.astronautFace.integral, row = (f.y + f.height / 2) * 1024
        let red = (f.x - 2...f.x + 2).contains { x in preview[(row + x) * 3] > 200 && preview[(row + x) * 3 + 1] < 80 }
        XCTAssertTrue(red, "the dropped face is outlined in red on the preview")
        _ = try await solidBlurrer().run(.init(input: photo, output: out, edits: RegionEdits(undrop: [0])))
        bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: TestData.astronautFace), "undropped")
        let stroke = Stroke(points: [.init(x: 20, y: 480), .init(x: 200, y: 480)], width: 12)
        _ = try await solidBlurrer().run(.init(input: photo, output: out, edits: RegionEdits(add: [ImageRect(x: 10, y: 10, width: 40, height: 40)], strokes: [stroke])))
        let reset = try await solidBlurrer().run(.init(input: photo, output: out, edits: RegionEdits(reset: true)))
        XCTAssertEqual(reset.state.regions, .notYet)
        XCTAssertTrue(reset.state.strokes.isEmpty)
        bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: TestData.astronautFace))
        XCTAssertNotEqual(Array(bytes[(480 * 512 + 100) * 3..<(480 * 512 + 100) * 3 + 3]), [255, 0, 255], "the stroke is gone")
        do {
            _ = try await solidBlurrer().run(.init(input: photo, output: out, edits: RegionEdits(undrop: [7])))
            XCTFail("an unknown face cannot be undropped")
        } catch {}
    }

    /// Lossless output: outside the masks the original, byte for byte.
    func testOutsideTheMaskTheOutputIsTheOriginal() async throws {
        try TestData.requireFaceModel()
        let out = try TestData.scratch(self).appendingPathComponent("a.png")
        let outcome = try await PhotoBlurrer().run(.init(input: TestData.astronaut(), output: out))
        XCTAssertEqual(outcome.coveredRegions, 1)
        let original = try ImageDecoder().decode(.url(TestData.astronaut())).image.pixelBytes()
        let result = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        let (regions, _) = outcome.state.coverInput()
        let extent = MaskProfile().extent(of: regions[0])
        var outsideChanged = 0, insideChanged = 0
        for y in 0..<512 { for x in 0..<512 {
            let i = (y * 512 + x) * 3
            let same = original[i..<i + 3].elementsEqual(result[i..<i + 3])
            let inside = x >= extent.x && x < extent.x + extent.width && y >= extent.y && y < extent.y + extent.height
            if !inside && !same { outsideChanged += 1 }
            if inside && !same { insideChanged += 1 }
        } }
        XCTAssertEqual(outsideChanged, 0)
        XCTAssertGreaterThan(insideChanged, 1000)
    }

    /// The second run reads the faces from the sidecar: with no model
    /// installed at all, it still renders, so the detector cannot have run.
    func testSidecarRoundTripAndNoSecondDetection() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let out = dir.appendingPathComponent("a.png")
        let first = try await solidBlurrer().run(.init(input: TestData.astronaut(), output: out))
        XCTAssertTrue(first.detectorRan)
        let saved = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        XCTAssertEqual(saved, first.state)
        XCTAssertEqual(saved.source.sha256, Asset.astronaut.sha256)
        XCTAssertEqual(saved.exported?.sha256, SHA256.hex(try Data(contentsOf: out)))

        var offline = solidBlurrer()
        offline.detector.home = VeilHome(url: dir.appendingPathComponent("no-models-here"))
        try FileManager.default.removeItem(at: out)
        let second = try await offline.run(.init(input: TestData.astronaut(), output: out))
        XCTAssertFalse(second.detectorRan)
        XCTAssertEqual(second.coveredRegions, 1)
        let bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: TestData.astronautFace))
    }

    /// Dropping the detected face and adding a manual box covers exactly the
    /// box; a stroke covers its path; later runs keep the confirmed list.
    func testConfirmedRegionsAndStrokesAreHonoured() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let out = dir.appendingPathComponent("a.png")
        let manual = ImageRect(x: 380, y: 40, width: 60, height: 60)
        let stroke = Stroke(points: [.init(x: 20, y: 480), .init(x: 200, y: 480)], width: 12)
        let edits = RegionEdits(add: [manual], drop: [0], strokes: [stroke])
        let outcome = try await solidBlurrer().run(.init(input: TestData.astronaut(), output: out, edits: edits))
        guard case let .confirmed(list) = outcome.state.regions else { return XCTFail("not confirmed") }
        XCTAssertEqual(list.count, 1)
        XCTAssertNil(list[0].face)
        var bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertFalse(centreIsCovered(bytes, width: 512, box: TestData.astronautFace), "the dropped face is covered")
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: manual))
        for x in stride(from: 20, through: 200, by: 10) {
            XCTAssertEqual(Array(bytes[(480 * 512 + x) * 3..<(480 * 512 + x) * 3 + 3]), [255, 0, 255], "stroke at x \(x)")
        }
        XCTAssertNotEqual(Array(bytes[(460 * 512 + 100) * 3..<(460 * 512 + 100) * 3 + 3]), [255, 0, 255], "stroke too wide")

        // Re-render with no edits: the same confirmed regions and stroke.
        _ = try await solidBlurrer().run(.init(input: TestData.astronaut(), output: out))
        bytes = try ImageDecoder().decode(.url(out)).image.pixelBytes()
        XCTAssertFalse(centreIsCovered(bytes, width: 512, box: TestData.astronautFace))
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: manual))
    }

    func testDropOfAnUnknownFaceIsAnError() async throws {
        try TestData.requireFaceModel()
        let out = try TestData.scratch(self).appendingPathComponent("a.png")
        do {
            _ = try await PhotoBlurrer().run(.init(input: TestData.astronaut(), output: out, edits: RegionEdits(drop: [5])))
            XCTFail("dropped a face that does not exist")
        } catch let error as VeilError {
            XCTAssertTrue(error.description.contains("drop face 5"), error.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    /// Overwriting the input (only when named as the output) keeps the original
    /// aside, and re-editing the overwritten photo starts from that original.
    func testOverwriteInPlaceKeepsTheOriginalForReEditing() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = dir.appendingPathComponent("photo.png")
        try FileManager.default.copyItem(at: TestData.astronaut(), to: photo)
        _ = try await solidBlurrer().run(.init(input: photo, output: photo))
        var bytes = try ImageDecoder().decode(.url(photo)).image.pixelBytes()
        XCTAssertTrue(centreIsCovered(bytes, width: 512, box: TestData.astronautFace))
        // Now uncover the face: the result must show the original face again.
        let second = try await solidBlurrer().run(.init(input: photo, output: photo, edits: RegionEdits(drop: [0])))
        XCTAssertFalse(second.detectorRan)
        bytes = try ImageDecoder().decode(.url(photo)).image.pixelBytes()
        let original = try ImageDecoder().decode(.url(TestData.astronaut())).image.pixelBytes()
        XCTAssertEqual(bytes, original)
    }
}
