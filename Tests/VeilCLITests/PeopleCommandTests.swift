import Foundation
import VeilKit
import XCTest

/// `veil blur --cover people` and `veil lift --people` on two people standing apart.
final class PeopleCommandTests: XCTestCase {
    private func change(_ a: URL, _ b: URL, in rect: ImageRect) throws -> Double {
        try TestImages.meanAbsoluteDifference(a, b, in: rect)
    }

    /// The suit below a face: the person's body, labelled from the sample photo.
    private func body(below face: ImageRect) -> ImageRect {
        ImageRect(x: face.midX - 60, y: face.y + 2.5 * face.height, width: 120, height: 100)
    }

    /// Both people covered whole (face and body), the gap between them left
    /// exactly as it was; `--drop p0` uncovers that person alone from the
    /// saved state, `--undrop p0` covers them again.
    func testCoverPeopleCoversEachPersonWholeAndDropsOneByOne() throws {
        let dir = try TestData.scratch(self)
        let scene = try PeopleScene.twoApart(in: dir)
        let out = dir.appendingPathComponent("covered.png")
        let first = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "people"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("people: 2 of 2"), first.stdout)
        for face in scene.faces {
            XCTAssertGreaterThan(try change(scene.url, out, in: face), 10, "face \(face) not covered")
            XCTAssertGreaterThan(try change(scene.url, out, in: body(below: face)), 5, "body below \(face) not covered")
        }
        XCTAssertEqual(try change(scene.url, out, in: scene.gapAwayFromPeople), 0, "the gap between them changed")

        let state = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        let people = try XCTUnwrap(state.people?.items)
        XCTAssertEqual(people.count, 2)
        let w = Double(scene.size.width), h = Double(scene.size.height)
        let firstFace = people[0].face
        let p0 = try XCTUnwrap(scene.faces.first { abs($0.midX - (firstFace.x + firstFace.width / 2) * w) < 20 && abs($0.midY - (firstFace.y + firstFace.height / 2) * h) < 20 },
                               "p0's face is one of the two")
        let other = scene.faces.first { $0 != p0 }!

        let dropped = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "people", "--drop", "p0"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertTrue(dropped.stdout.contains("from saved state; people: 1 of 2"), dropped.stdout)
        XCTAssertLessThan(try change(scene.url, out, in: p0), 0.5, "p0 still covered after --drop p0")
        XCTAssertGreaterThan(try change(scene.url, out, in: other), 10, "the other person uncovered too")
        let again = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "people", "--undrop", "p0"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertGreaterThan(try change(scene.url, out, in: p0), 10)

        let bad = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "people", "--drop", "p7"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("cannot drop person p7: there are 2 people"), bad.stderr)
    }

    /// A photo with nobody in it comes back unchanged.
    func testCoverPeopleLeavesAPhotoWithoutPeopleAsItWas() throws {
        let dir = try TestData.scratch(self)
        let cat = try TestData.sample(.chelsea), out = dir.appendingPathComponent("cat.png")
        let result = try Veil.run(["blur", cat.path, "-o", out.path, "--cover", "people"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("people: 0 of 0"), result.stdout)
        let size = try ImageDecoder().decode(.url(cat)).image.size
        XCTAssertEqual(try change(cat, out, in: ImageRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))), 0)
    }

    func testLiftPeopleListsEachPersonAndRefusesSubjectTuning() throws {
        let dir = try TestData.scratch(self)
        let scene = try PeopleScene.twoApart(in: dir)
        let result = try Veil.run(["lift", scene.url.path, "--people", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let instances = (json["images"] as! [[String: Any]])[0]["instances"] as! [[String: Any]]
        XCTAssertEqual(instances.count, 2, result.stdout)
        let mask = dir.appendingPathComponent("left.png")
        let tap = "\(scene.faces[0].midX / Double(scene.size.width)),\(scene.faces[0].midY / Double(scene.size.height))"
        XCTAssertEqual(try Veil.run(["lift", scene.url.path, "--people", "--tap", tap, "--mask-only", "-o", mask.path]).status, 0)
        let values = try ImageDecoder().decode(.url(mask)).image.pixelBytes()
        let (w, left, right) = (scene.size.width, scene.faces[0], scene.faces[1])
        XCTAssertGreaterThan(values[(Int(left.midY) * w + Int(left.midX)) * (values.count / (w * scene.size.height))], 200, "the tapped person")
        XCTAssertLessThan(values[(Int(right.midY) * w + Int(right.midX)) * (values.count / (w * scene.size.height))], 50, "not the other")

        for extra in [["--model", "u2net"], ["--sides", "320"]] {
            let refused = try Veil.run(["lift", scene.url.path, "--people"] + extra)
            XCTAssertEqual(refused.status, 2, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("tunes the subject model"), refused.stderr)
        }
        let alone = try Veil.run(["lift", scene.url.path, "--quality", "fast"])
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("give --people too"), alone.stderr)
    }

    /// People are found by their bodies too: each body holding a found face is
    /// that face's person, so the two people stay two and only grow against
    /// `--faces-only`; `--faces-only` without `--people` is refused.
    func testLiftPeopleByTheirBodiesJoinsEachBodyToItsFace() throws {
        let dir = try TestData.scratch(self)
        let scene = try PeopleScene.twoApart(in: dir)
        func areas(_ extra: [String]) throws -> [Int] {
            let result = try Veil.run(["lift", scene.url.path, "--people", "--json"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
            return ((json["images"] as! [[String: Any]])[0]["instances"] as! [[String: Any]]).map { $0["area"] as! Int }
        }
        let faces = try areas(["--faces-only"]), bodies = try areas([])
        XCTAssertEqual(bodies.count, 2, "\(bodies)")
        XCTAssertEqual(faces.count, 2, "\(faces)")
        // Each body's mask is laid over its face's person: the person can only grow.
        for (a, b) in zip(faces, bodies) { XCTAssertGreaterThanOrEqual(b, a) }
        XCTAssertGreaterThan(bodies.reduce(0, +), faces.reduce(0, +), "the bodies add pixels the faces' crops missed")
        let alone = try Veil.run(["lift", scene.url.path, "--faces-only"])
        XCTAssertEqual(alone.status, 2)
        XCTAssertEqual(alone.stderr.split(separator: "\n").count, 1, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("--faces-only tunes how people are found: give --people too"), alone.stderr)
    }

    /// Video covers faces and text: people are refused in one line, before any work.
    func testVideoRefusesCoverPeople() throws {
        let result = try Veil.run(["video", "/nonexistent.mp4", "-o", "/tmp/x.mp4", "--cover", "faces,people"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("cover people covers photos"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}

/// `veil saliency`: boxes as a table or JSON, the heat map written, a bad file one line and exit 1.
final class SaliencyCommandTests: XCTestCase {
    func testSaliencyJSONAndHeatMap() throws {
        let dir = try TestData.scratch(self)
        let rocket = try TestData.sample(.rocket), heat = dir.appendingPathComponent("heat.png")
        let result = try Veil.run(["saliency", rocket.path, "--json", "--heatmap", heat.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let image = (json["images"] as! [[String: Any]])[0]
        XCTAssertEqual(image["kind"] as? String, "objectness")
        let objects = image["objects"] as! [[String: Any]]
        XCTAssertEqual(objects.count, 1, result.stdout)
        let x = objects[0]["x"] as! Double, w = objects[0]["width"] as! Double
        XCTAssertTrue(x < 325 && 325 < x + w, "the rocket's box: \(objects[0])")
        let map = try ImageDecoder().decode(.url(heat)).image
        XCTAssertEqual(map.size, PixelSize(width: 640, height: 427))

        let bad = dir.appendingPathComponent("bad.jpg")
        try Data("no".utf8).write(to: bad)
        let failed = try Veil.run(["saliency", "--kind", "attention", try TestData.astronaut().path, bad.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("1 salient object (attention)"), failed.stdout)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        let wrong = try Veil.run(["saliency", rocket.path, "--kind", "objects"])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
    }
}
