import Foundation
import VeilKit
import VeilVocabulary
import XCTest

/// Options as a dictionary, spelled like query parameters: the parsers see
/// exactly what they see from the CLI's `Arguments` or an HTTP `Upload`.
struct Options: OptionSource {
    var given: [String: [String]]
    init(_ pairs: [String: String]) { given = pairs.mapValues { [$0] } }
    func values(_ name: String) -> [String] { given[name] ?? [] }
    func flag(_ name: String) -> Bool { given[name] != nil }
    func spelling(_ name: String) -> String { "--" + name }
}

final class OptionParsingTests: XCTestCase {
    func testNumbersAreFiniteAndInRange() throws {
        XCTAssertEqual(try TextNumber.double(" 0.25 ", in: 0...1, option: "t"), 0.25)
        XCTAssertEqual(try TextNumber.int("7", in: 1...10, option: "n"), 7)
        for bad in ["nan", "inf", "-inf", "1e300", "", "0x10", "1,5", "2"] {
            XCTAssertThrowsError(try TextNumber.double(bad, in: 0...1, option: "t"), bad) { error in
                XCTAssertTrue(error is InputError)
                XCTAssertTrue("\(error)".hasPrefix("t must be a number from 0 to 1"), "\(error)")
            }
        }
        for bad in ["9223372036854775807", "9223372036854775808", "-1", "1.5", "ten"] {
            XCTAssertThrowsError(try TextNumber.int(bad, in: 1...255, option: "n"), bad)
        }
        XCTAssertEqual(try TextNumber.list("1, 2,3,4", count: 4, in: -10...10, option: "b", what: "x,y,w,h"), [1, 2, 3, 4])
        XCTAssertThrowsError(try TextNumber.list("1,2,3", count: 4, in: -10...10, option: "b", what: "x,y,w,h"))
        XCTAssertThrowsError(try TextNumber.list("1,2,3,nan", count: 4, in: -10...10, option: "b", what: "x,y,w,h"))
        XCTAssertThrowsError(try TextNumber.list("1,2,3,4,5", count: 4, in: -10...10, option: "b", what: "x,y,w,h"))
    }

    func testEditsParseBoxesDropsAndStrokesAndRefuseWhatCouldTrap() throws {
        let edits = try RegionEdits(Options(["add": "10,20,30,40;1,2,3,4", "drop": "0,2", "stroke": "0,0 10,10@4", "confirm": ""]))
        XCTAssertEqual(edits.add, [ImageRect(x: 10, y: 20, width: 30, height: 40), ImageRect(x: 1, y: 2, width: 3, height: 4)])
        XCTAssertEqual(edits.drop, [0, 2])
        XCTAssertEqual(edits.strokes.first?.width, 4)
        XCTAssertTrue(edits.confirm)
        for (name, value) in [("add", "nan,0,10,10"), ("add", "0,0,inf,inf"), ("add", "1e300,0,10,10"), ("add", "1e15,1e15,10,10"),
                              ("add", "0,0,0,10"), ("drop", "9223372036854775807"), ("drop", "-1"),
                              ("stroke", "0,0@1e300"), ("stroke", "0,0@0"), ("stroke", "nan,0@3"), ("stroke", "0,0 1e300,5@3")] {
            XCTAssertThrowsError(try RegionEdits(Options([name: value])), "\(name)=\(value)") { error in
                XCTAssertTrue(error is InputError, "\(name)=\(value): \(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        let many = Array(repeating: "1,1,1,1", count: EditingState.Limits.regions + 1).joined(separator: ";")
        XCTAssertThrowsError(try RegionEdits(Options(["add": many])))
    }

    func testCoverOptionsAndTheirHTTPRestriction() throws {
        let cover = try CoverOptions(Options(["style": "blur=2", "shape": "box", "maskScale": "1.5", "threshold": "0.3"]), allowingFiles: true)
        XCTAssertEqual(cover.style, .blur(strength: 2))
        XCTAssertEqual(cover.shape, .box)
        XCTAssertEqual(cover.maskScale, 1.5)
        XCTAssertEqual(cover.threshold, 0.3)
        XCTAssertThrowsError(try CoverOptions(Options(["style": "image=/etc/passwd"]), allowingFiles: false))
        // A picture style's file is read before any work: missing, it is a usage error.
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("veil-sticker-\(getpid()).png")
        try ImageEncoder(format: .png).write(try VeilImage.constant(RGB(255, 200, 0), size: PixelSize(width: 8, height: 8)), to: picture)
        defer { try? FileManager.default.removeItem(at: picture) }
        XCTAssertNoThrow(try CoverOptions(Options(["style": "image=\(picture.path)"]), allowingFiles: true))
        XCTAssertThrowsError(try CoverOptions(Options(["style": "image=/nonexistent/missing.png"]), allowingFiles: true)) { error in
            XCTAssertTrue(error is InputError && "\(error)".contains("missing.png"), "\(error)")
        }
        for (name, value) in [("style", "pixelate=inf"), ("style", "nosuch"), ("shape", "star"), ("mask-scale", "nan"), ("threshold", "2")] {
            XCTAssertThrowsError(try CoverOptions(Options([name: value]), allowingFiles: true), "\(name)=\(value)") { error in
                XCTAssertTrue(error is InputError, "\(error)")
            }
        }
    }

    func testFaceOptionsStartFromTheModelsPreset() throws {
        let plain = try FaceOptions(Options([:])).request
        XCTAssertEqual(plain.model, .centerFace)
        XCTAssertEqual(plain.confidenceThreshold, DetectFaceRectanglesRequest.defaultConfidenceThreshold)
        let privacy = try FaceOptions(Options(["preset": "privacy", "model": "retinaface"])).request
        XCTAssertEqual(privacy.model, .retinaFace)
        XCTAssertEqual(privacy.confidenceThreshold, FaceModel.retinaFace.privacyThreshold)
        XCTAssertEqual(privacy.refinement?.scale, 1.5, "finer passes at 1.5x, where small faces are")
        XCTAssertEqual(try FaceOptions(Options(["preset": "privacy", "tile-scale": "2"])).request.refinement?.scale, 2)
        XCTAssertNil(try FaceOptions(Options(["tile-scale": "2"])).request.refinement, "the analysis preset has no finer passes")
        XCTAssertThrowsError(try FaceOptions(Options(["preset": "privacy", "tile-scale": "0.5"])), "below 1")
        XCTAssertEqual(try FaceOptions(Options(["preset": "privacy", "threshold": "0.4"])).request.confidenceThreshold, 0.4)
        // The cover options take a model's own threshold unless one is given.
        let detection = try CoverOptions(Options(["model": "centerface"]), allowingFiles: false).detection()
        XCTAssertEqual(detection.detector.model, .centerFace)
        XCTAssertEqual(detection.detector.confidenceThreshold, FaceModel.centerFace.privacyThreshold)
        XCTAssertEqual(try CoverOptions(Options(["model": "centerface", "threshold": "0.3"]), allowingFiles: false).detection().detector.confidenceThreshold, 0.3)
        for (name, value) in [("preset", "fast"), ("model", "yolo"), ("model", "CenterFace"), ("threshold", "-0.1")] {
            XCTAssertThrowsError(try FaceOptions(Options([name: value])), "\(name)=\(value)") { error in
                XCTAssertTrue(error is InputError, "\(error)")
                XCTAssertTrue("\(error)".hasPrefix("--\(name)"), "\(error)")
            }
        }
        XCTAssertThrowsError(try CoverOptions(Options(["model": "yolo"]), allowingFiles: true))
    }

    func testLiftOptions() throws {
        let noBackground: (String?) throws -> VeilImage = { _ in throw InputError("no background here") }
        let lift = try SubjectLift(Options(["tap": "0.5,0.25", "crop": "", "effect": "bokeh=3"]), background: noBackground)
        XCTAssertEqual(lift.tap, NormalizedPoint(x: 0.5, y: 0.25))
        XCTAssertTrue(lift.crop)
        // Bokeh as a phone's portrait mode: no halo unless asked for.
        guard case let .bokeh(sigma, halo) = lift.effect else { return XCTFail("\(lift.effect)") }
        XCTAssertEqual(sigma, 3); XCTAssertEqual(halo, 0)
        guard case let .bokeh(_, glow) = try SubjectLift(Options(["effect": "bokeh-halo"]), background: noBackground).effect else { return XCTFail() }
        XCTAssertNil(glow, "the halo at its default size")
        let labels = try SubjectLift(Options(["instances": "1,3"]), background: noBackground)
        XCTAssertEqual(labels.instances, IndexSet([1, 3]))
        XCTAssertEqual(labels.request.precision, .preferred, "u2netp runs in 8 bits where the CPU has exact 8-bit kernels")
        XCTAssertEqual(try SubjectLift(Options(["precision": "float"]), background: noBackground).request.precision, .float)
        for (name, value) in [("precision", "fp16"), ("instances", "9223372036854775807"), ("instances", "0"), ("instances", "256"), ("tap", "2,0"),
                              ("tap", "nan,0.5"), ("refine", "1e308,0.01"), ("refine", "inf,0.01"), ("effect", "bokeh=inf"),
                              ("effect", "highlight=nan"), ("sides", "99999"), ("effect", "replace")] {
            XCTAssertThrowsError(try SubjectLift(Options([name: value]), background: noBackground), "\(name)=\(value)") { error in
                XCTAssertTrue(error is InputError, "\(name)=\(value): \(error)")
            }
        }
    }

    func testReportsReadBackAsCodableAndKeepTheirKeyOrder() throws {
        let report = FacesReport(file: "a/b.jpg", size: PixelSize(width: 100, height: 50), faces: [])
        let text = FacesReport.document([report, FacesReport(file: "c.jpg", error: "cannot read c.jpg")]).rendered
        XCTAssertEqual(text, #"{"images":[{"file":"a/b.jpg","width":100,"height":50,"faces":[]},{"file":"c.jpg","error":"cannot read c.jpg"}]}"#)
        struct Document: Decodable { var images: [FacesReport] }
        let back = try JSONDecoder().decode(Document.self, from: Data(text.utf8))
        XCTAssertEqual(back.images.first, report)
        XCTAssertEqual(back.images.last?.error, "cannot read c.jpg")
    }
}
