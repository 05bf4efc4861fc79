import Foundation
import VeilKit
import XCTest

final class TextCommandTests: XCTestCase {
    /// Mean absolute difference of `rect` between two photos.
    private func change(_ a: URL, _ b: URL, in rect: ImageRect) throws -> Double {
        try TestImages.meanAbsoluteDifference(a, b, in: rect)
    }

    func testTextJSONListsThePlateAndABadFileOnOneLine() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let bad = dir.appendingPathComponent("bad.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let result = try Veil.run(["text", "--json", scene.url.path, bad.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { $0.contains("bad.jpg") }.count, 1, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let images = json["images"] as! [[String: Any]]
        XCTAssertEqual(images.count, 2)
        let texts = images[0]["texts"] as! [[String: Any]]
        XCTAssertTrue(texts.contains { ($0["text"] as! String).filter { !$0.isWhitespace } == "AB123CD" }, result.stdout)
        XCTAssertNotNil(images[1]["error"])
    }

    /// `--text-match plates` covers the plate and leaves the shop sign; `--cover faces,text` covers the sign too.
    func testTextMatchPlatesCoversThePlateAndLeavesTheSign() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let plates = dir.appendingPathComponent("plates.jpg"), all = dir.appendingPathComponent("all.jpg")
        let one = try Veil.run(["blur", scene.url.path, "-o", plates.path, "--cover", "text", "--text-match", "plates"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertGreaterThan(try change(scene.url, plates, in: scene.plate.rect), 20, "plate not covered")
        XCTAssertLessThan(try change(scene.url, plates, in: scene.sign.rect), 3, "sign covered")
        let two = try Veil.run(["blur", scene.url.path, "-o", all.path, "--cover", "faces,text"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertGreaterThan(try change(scene.url, all, in: scene.plate.rect), 20)
        XCTAssertGreaterThan(try change(scene.url, all, in: scene.sign.rect), 10, "sign not covered by --cover faces,text")
        // Away from text and faces, nothing changes.
        XCTAssertLessThan(try change(scene.url, all, in: scene.elsewhere), 2)
    }

    /// Text regions survive a re-edit through the state: the second run does
    /// not detect again, `--drop tN` uncovers the plate, `--undrop tN` covers it again.
    /// A real car's own plate (needs dev data): read, covered by `--text-match plates`, its badge left;
    /// `--cover faces,text` covers the badge too and nothing else away from them.
    func testPlatesOnARealCarAreCoveredAndItsBadgeLeft() throws {
        let scene = try TextScene.realCar()
        let dir = try TestData.scratch(self)
        let plates = dir.appendingPathComponent("plates.png"), all = dir.appendingPathComponent("all.png")
        let one = try Veil.run(["blur", scene.url.path, "-o", plates.path, "--cover", "text", "--text-match", "plates"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertGreaterThan(try change(scene.url, plates, in: scene.plate.rect), 15, "the car's plate not covered")
        XCTAssertLessThan(try change(scene.url, plates, in: scene.sign.rect), 1, "the badge covered")
        XCTAssertEqual(try Veil.run(["blur", scene.url.path, "-o", all.path, "--cover", "faces,text"]).status, 0)
        XCTAssertGreaterThan(try change(scene.url, all, in: scene.sign.rect), 5, "the badge not covered by --cover faces,text")
        XCTAssertLessThan(try change(scene.url, all, in: scene.elsewhere), 1)
    }

    func testTextRegionsSurviveReEditThroughTheState() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let out = dir.appendingPathComponent("out.jpg")
        XCTAssertEqual(try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "text", "--text-match", "plates"]).status, 0)
        let stateURL = PhotoBlurrer.sidecar(for: out)
        let state = try EditingState.load(from: stateURL)
        let items = try XCTUnwrap(state.texts?.items)
        let plate = try XCTUnwrap(items.firstIndex { ($0.text ?? "").filter { !$0.isWhitespace } == "AB123CD" }, "\(items)")
        XCTAssertTrue(items[plate].covered)
        XCTAssertEqual(items.filter(\.covered).count, 1, "only the plate is covered: \(items)")

        let again = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "text", "--text-match", "plates", "--drop", "t\(plate)"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("from saved state"), again.stdout)
        XCTAssertLessThan(try change(scene.url, out, in: scene.plate.rect), 3, "dropped plate still covered")
        XCTAssertEqual(try EditingState.load(from: stateURL).texts?.items.count, items.count)

        let back = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "text", "--text-match", "plates", "--undrop", "t\(plate)"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertGreaterThan(try change(scene.url, out, in: scene.plate.rect), 20)
        XCTAssertEqual(try Veil.run(["blur", scene.url.path, "-o", out.path, "--drop", "t\(plate)"]).status, 0)
        XCTAssertLessThan(try change(scene.url, out, in: scene.plate.rect), 3, "the state's drop forgotten")
        // --reset covers again what the match chose.
        XCTAssertEqual(try Veil.run(["blur", scene.url.path, "-o", out.path, "--reset"]).status, 0)
        XCTAssertGreaterThan(try change(scene.url, out, in: scene.plate.rect), 20, "--reset left the plate uncovered")
        XCTAssertEqual(try EditingState.load(from: stateURL).texts?.items.map(\.covered), items.map(\.covered))
        let bad = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "text", "--text-match", "plates", "--drop", "t99"])
        XCTAssertNotEqual(bad.status, 0, bad.stderr + bad.stdout)
        XCTAssertTrue(bad.stderr.contains("t99"), bad.stderr)
    }

    func testBadTextMatchAndCoverAreRefusedOnOneLine() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        for args in [["--text-match", "(unclosed"], ["--cover", "plates"]] {
            let result = try Veil.run(["blur", scene.url.path, "-o", dir.appendingPathComponent("x.jpg").path] + args)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// A batch done for faces is not "already done" once text is asked for; done again with the same options, it is.
    func testBatchRedoesAPhotoWhenTextIsAskedFor() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try Veil.run(["blur", scene.url.path, "--out-dir", out.path]).status, 0)
        let text = try Veil.run(["blur", scene.url.path, "--out-dir", out.path, "--cover", "faces,text"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertFalse(text.stdout.contains("already done"), text.stdout)
        XCTAssertTrue(text.stdout.contains("text: "), text.stdout)
        let again = try Veil.run(["blur", scene.url.path, "--out-dir", out.path, "--cover", "faces,text"])
        XCTAssertTrue(again.stdout.contains("already done"), again.stdout)
    }
}
