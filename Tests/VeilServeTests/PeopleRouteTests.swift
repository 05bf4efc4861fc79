import Foundation
import VeilKit
import XCTest

/// `POST /v1/blur?cover=people` and `POST /v1/lift?people=1`: the CLI's person options over HTTP.
final class PeopleRouteTests: XCTestCase {
    private func change(_ a: VeilImage, _ b: VeilImage, in rect: ImageRect) throws -> Double {
        try TestImages.meanAbsoluteDifference(a, b, in: rect)
    }

    func testBlurCoversPeopleAndTheStateDropsOne() throws {
        let scene = try PeopleScene.twoApart(in: TestData.scratch(self))
        let server = try ServeProcess(self)
        let photo = try Data(contentsOf: scene.url)
        let original = try ImageDecoder().decode(.data(photo)).image

        let first = try server.request("POST", "/v1/blur?cover=people", body: photo)
        XCTAssertEqual(first.status, 200, first.text)
        let covered = try ImageDecoder().decode(.data(first.body)).image
        for face in scene.faces { XCTAssertGreaterThan(try change(original, covered, in: face), 10) }
        XCTAssertEqual(try change(original, covered, in: scene.gapAwayFromPeople), 0, "the gap between them changed")
        let state = try EditingState.decode(XCTUnwrap(Data(base64Encoded: first.headers["x-veil-state"] ?? "")))
        XCTAssertEqual(state.people?.items.count, 2)

        // The same bytes again: the people are reused, p0 dropped by its number.
        let dropped = try server.request("POST", "/v1/blur?cover=people&drop=p0", body: photo)
        XCTAssertEqual(dropped.status, 200, dropped.text)
        XCTAssertEqual(dropped.headers["x-veil-detector"], "reused")
        let after = try EditingState.decode(XCTUnwrap(Data(base64Encoded: dropped.headers["x-veil-state"] ?? "")))
        XCTAssertEqual(after.people?.items.map(\.covered), [false, true])

        let faces = try server.request("POST", "/v1/blur", body: photo)
        let facesOnly = try EditingState.decode(XCTUnwrap(Data(base64Encoded: faces.headers["x-veil-state"] ?? "")))
        XCTAssertNil(facesOnly.people, "people are covered only where a request asks")
    }

    func testLiftPeopleOverHTTP() throws {
        let scene = try PeopleScene.twoApart(in: TestData.scratch(self))
        let server = try ServeProcess(self)
        let answer = try server.request("POST", "/v1/lift?people=1&json=1", body: try Data(contentsOf: scene.url))
        XCTAssertEqual(answer.status, 200, answer.text)
        let json = try JSONSerialization.jsonObject(with: answer.body) as! [String: Any]
        let instances = (json["images"] as! [[String: Any]])[0]["instances"] as! [[String: Any]]
        XCTAssertEqual(instances.count, 2, answer.text)
        let bad = try server.request("POST", "/v1/lift?people=1&quality=best", body: try Data(contentsOf: scene.url))
        XCTAssertEqual(bad.status, 400, bad.text)
        XCTAssertTrue(bad.text.contains("fast or balanced or accurate"), bad.text)
    }
}
