import Foundation
@testable import VeilKit
import XCTest

/// Subject lifting with the real U^2-Net on real and synthetic images.
final class SubjectsTests: XCTestCase {
    private func requireModel() throws {
        for asset in [Asset.onnxRuntime, .u2netp] where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
    }

    func testAstronautIsOneInstanceAndTapsSelectIt() async throws {
        try requireModel()
        let url = try TestData.astronaut()
        let observation = try await GenerateForegroundInstanceMaskRequest().perform(on: url)
        let mask = try XCTUnwrap(observation)
        XCTAssertEqual(mask.allInstances, IndexSet(integer: 1))
        XCTAssertFalse(mask.allInstances.contains(0))
        let labels = mask.instanceMask
        XCTAssertEqual(labels.width, 512)
        XCTAssertEqual(labels.label(x: 500, y: 10), 0, "top-right corner is background")
        // The face (labelled by eye) belongs to the person.
        let face = TestData.astronautFace
        XCTAssertEqual(labels.label(x: Int(face.midX), y: Int(face.midY)), 1)
        let onFace = NormalizedPoint(x: face.midX / 512, y: face.midY / 512)
        XCTAssertEqual(mask.instance(at: onFace, origin: .upperLeft), 1)
        // The same point measured from the lower-left corner.
        XCTAssertEqual(mask.instance(at: NormalizedPoint(x: onFace.x, y: 1 - onFace.y)), 1)
        XCTAssertNil(mask.instance(at: NormalizedPoint(x: 0.97, y: 0.03), origin: .upperLeft))

        let soft = try mask.generateScaledMask(for: mask.allInstances)
        XCTAssertEqual(soft.width, 512)
        XCTAssertEqual(soft.height, 512)
        let values = try soft.values()
        XCTAssertGreaterThan(values[Int(face.midY) * 512 + Int(face.midX)], 0.9)
        XCTAssertLessThan(values[10 * 512 + 500], 0.1)

        let cutout = try mask.generateMaskedImage(for: mask.allInstances)
        XCTAssertEqual(cutout.bands, 4)
        let rgba = try cutout.pixelBytes()
        XCTAssertEqual(rgba[(10 * 512 + 500) * 4 + 3], 0, "background is transparent")
        XCTAssertEqual(rgba[(Int(face.midY) * 512 + Int(face.midX)) * 4 + 3], 255)
    }

    func testTwoSeparateBlobsAreTwoInstancesAndCropToTheirBox() async throws {
        try requireModel()
        let (image, disc, box) = try Self.twoBlobs()
        let observation = try await GenerateForegroundInstanceMaskRequest().perform(on: image)
        let mask = try XCTUnwrap(observation)
        XCTAssertEqual(mask.allInstances, IndexSet([1, 2]))
        let (dc, bc) = (Self.centre(disc), Self.centre(box))
        let discLabel = try XCTUnwrap(mask.instance(at: NormalizedPoint(x: Double(dc.x) / 480, y: Double(dc.y) / 320), origin: .upperLeft))
        let boxLabel = try XCTUnwrap(mask.instance(at: NormalizedPoint(x: Double(bc.x) / 480, y: Double(bc.y) / 320), origin: .upperLeft))
        XCTAssertNotEqual(discLabel, boxLabel)
        // Numbered by area, largest first: the disc is the bigger blob.
        XCTAssertEqual(discLabel, 1)
        XCTAssertGreaterThan(mask.instances[0].area, mask.instances[1].area)

        for (label, truth) in [(discLabel, disc), (boxLabel, box)] {
            let crop = try mask.generateScaledMask(for: IndexSet(integer: label), croppedToInstancesExtent: true)
            Self.assertClose(crop.extent, truth, tolerance: 8)
            let cut = try mask.generateMaskedImage(for: IndexSet(integer: label), croppedToInstancesExtent: true)
            XCTAssertEqual(cut.width, crop.width)
            XCTAssertEqual(cut.height, crop.height)
        }
        // Choosing one blob leaves the other out of the mask.
        let onlyDisc = try mask.generateScaledMask(for: IndexSet(integer: discLabel)).values()
        XCTAssertLessThan(onlyDisc[bc.y * 480 + bc.x], 0.05)
        XCTAssertGreaterThan(onlyDisc[dc.y * 480 + dc.x], 0.9)
        XCTAssertThrowsError(try mask.generateScaledMask(for: IndexSet(integer: 7)))
    }

    func testMeanJaccardOnDevSetBeatsRembg() async throws {
        try requireModel()
        let data = try TestData.sharedData("subjects-dev")
        let images = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("images").path)
            .filter { $0.hasSuffix(".jpg") }.sorted()
        XCTAssertFalse(images.isEmpty)
        let request = GenerateForegroundInstanceMaskRequest()
        var total = 0.0
        for name in images {
            let mask = try await request.perform(on: data.appendingPathComponent("images/\(name)"))
            let truthURL = data.appendingPathComponent("masks/\((name as NSString).deletingPathExtension).png")
            let truth = try ImageDecoder().decode(.url(truthURL)).image
            let gt = try truth.pixelBytes()
            let bands = truth.bands, count = truth.width * truth.height
            let predicted = try mask.map { try $0.generateScaledMask(for: $0.allInstances).values() } ?? [Float](repeating: 0, count: count)
            XCTAssertEqual(predicted.count, count, name)
            var inter = 0, union = 0
            for i in 0..<count {
                let p = predicted[i] > 0.5, g = gt[i * bands] > 127
                if p && g { inter += 1 }
                if p || g { union += 1 }
            }
            total += union == 0 ? 1 : Double(inter) / Double(union)
        }
        let meanJ = total / Double(images.count)
        print("subjects-dev mean J (u2netp): \(meanJ)")
        XCTAssertGreaterThanOrEqual(meanJ, 0.731, "rembg with the same u2netp scores 0.721; the goal is 0.01 more")
    }

    func testOnlyTheFusedMapIsMadeAndCopiedOut() async throws {
        try requireModel()
        for precision in GenerateForegroundInstanceMaskRequest.Precision.allCases {
            let network = try await SaliencyNetwork.load(.u2netp, home: .default, device: .cpu, precision: precision)
            XCTAssertEqual(network.session.outputNames.count, 1, "\(precision): the six side maps are dropped")
        }
    }

    func testLargerModelFindsTheAstronautToo() async throws {
        try requireModel()
        guard FileManager.default.fileExists(atPath: VeilHome.default.path(of: .u2net).path) else {
            throw XCTSkip("u2net is optional and not installed: veil models install u2net")
        }
        var request = GenerateForegroundInstanceMaskRequest()
        request.model = .u2net
        request.inputSides = [320]
        let observation = try await request.perform(on: try TestData.astronaut())
        let mask = try XCTUnwrap(observation)
        let face = TestData.astronautFace
        XCTAssertEqual(mask.instanceMask.label(x: Int(face.midX), y: Int(face.midY)), 1)
        XCTAssertEqual(mask.instanceMask.label(x: 500, y: 10), 0)
    }

    func testBadInputThrowsVeilError() async throws {
        try requireModel()
        let dir = try TestData.scratch(self)
        let empty = try TestImages.file("empty.jpg", [], in: dir)
        let text = try TestImages.file("notes.png", Array("not an image\n".utf8), in: dir)
        let request = GenerateForegroundInstanceMaskRequest()
        for url in [empty, text, dir.appendingPathComponent("missing.jpg")] {
            do {
                _ = try await request.perform(on: url)
                XCTFail("\(url.lastPathComponent) should not decode")
            } catch let error as VeilError {
                XCTAssertFalse(error.description.contains("\n"))
            }
        }
        do {
            _ = try await request.perform(on: Data())
            XCTFail("no bytes should not decode")
        } catch is VeilError {}
    }

    /// 480x320 white with a dark red disc (left, larger) and a blue box (right).
    static func twoBlobs() throws -> (VeilImage, disc: PixelRect, box: PixelRect) {
        let w = 480, h = 320
        var pixels = [UInt8](repeating: 255, count: w * h * 3)
        let cx = 130, cy = 160, r = 70
        let box = PixelRect(x: 320, y: 110, width: 90, height: 100)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
                    pixels[i] = 150; pixels[i + 1] = 20; pixels[i + 2] = 30
                } else if x >= box.x, x < box.x + box.width, y >= box.y, y < box.y + box.height {
                    pixels[i] = 20; pixels[i + 1] = 40; pixels[i + 2] = 160
                }
            }
        }
        let disc = PixelRect(x: cx - r, y: cy - r, width: 2 * r + 1, height: 2 * r + 1)
        return (try VeilImage(pixels: pixels, width: w, height: h, bands: 3), disc, box)
    }

    static func centre(_ r: PixelRect) -> (x: Int, y: Int) { (r.x + r.width / 2, r.y + r.height / 2) }

    static func assertClose(_ a: PixelRect, _ b: PixelRect, tolerance: Int, file: StaticString = #filePath, line: UInt = #line) {
        for (u, v, what) in [(a.x, b.x, "x"), (a.y, b.y, "y"), (a.x + a.width, b.x + b.width, "right"), (a.y + a.height, b.y + b.height, "bottom")] {
            XCTAssertLessThanOrEqual(abs(u - v), tolerance, "\(what): \(a) vs \(b)", file: file, line: line)
        }
    }
}

/// `veil lift` as a user runs it.
final class LiftCommandTests: XCTestCase {
    func testBatchWritesCutoutsMasksAndJSONAndFailsOnBadFile() throws {
        for asset in [Asset.onnxRuntime, .u2netp] where !FileManager.default.fileExists(atPath: VeilHome.default.path(of: asset).path) {
            throw XCTSkip("\(asset.name) not installed: run scripts/setup")
        }
        let photo = try TestData.astronaut()
        let dir = try TestData.scratch(self)
        let bad = try TestImages.file("bad.jpg", Array("text".utf8), in: dir)
        let masks = dir.appendingPathComponent("masks"), cutouts = dir.appendingPathComponent("cutouts")
        try FileManager.default.createDirectory(at: masks, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cutouts, withIntermediateDirectories: true)

        let json = try Veil.run(["lift", photo.path, bad.path, "--json", "--mask-only", "--out-dir", masks.path])
        XCTAssertEqual(json.status, 1, "a failed file makes the exit status 1")
        XCTAssertEqual(json.stderr.split(separator: "\n").filter { $0.contains("bad.jpg") }.count, 1, json.stderr)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let images = try XCTUnwrap(parsed["images"] as? [[String: Any]])
        XCTAssertEqual(images.count, 2)
        XCTAssertEqual(images[0]["file"] as? String, photo.path)
        let instances = try XCTUnwrap(images[0]["instances"] as? [[String: Any]])
        XCTAssertEqual(instances.first?["label"] as? Int, 1)
        XCTAssertGreaterThan(instances.first?["area"] as? Int ?? 0, 50_000)
        XCTAssertNotNil(images[1]["error"])

        let mask = try ImageDecoder().decode(.url(masks.appendingPathComponent("astronaut.png"))).image
        XCTAssertEqual(mask.size, PixelSize(width: 512, height: 512))

        let cut = try Veil.run(["lift", photo.path, "--out-dir", cutouts.path, "--tap", "0.44,0.234", "--crop"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let cutout = try ImageDecoder().decode(.url(cutouts.appendingPathComponent("astronaut.png"))).image
        XCTAssertTrue(cutout.hasAlpha)
        XCTAssertLessThanOrEqual(cutout.width, 512)

        // The input is never overwritten.
        let same = try Veil.run(["lift", photo.path, "-o", photo.path])
        XCTAssertEqual(same.status, 1)
        XCTAssertEqual(try SHA256.hex(fileAt: photo), Asset.astronaut.sha256)
    }
}
