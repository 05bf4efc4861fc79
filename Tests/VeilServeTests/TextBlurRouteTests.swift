import Foundation
import VeilKit
import XCTest

/// `POST /v1/blur` takes the CLI's text options: `cover`, `text-match`, `drop=tN`.
final class TextBlurRouteTests: XCTestCase {
    private func change(_ a: VeilImage, _ b: VeilImage, in rect: ImageRect) throws -> Double {
        try TestImages.meanAbsoluteDifference(a, b, in: rect)
    }

    func testBlurCoversPlatesOverHTTPAndTheStateKeepsThem() throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let server = try ServeProcess(self)
        let photo = try Data(contentsOf: scene.url)
        let original = try ImageDecoder().decode(.data(photo)).image

        let first = try server.request("POST", "/v1/blur?cover=text&text-match=plates", body: photo)
        XCTAssertEqual(first.status, 200, first.text)
        let covered = try ImageDecoder().decode(.data(first.body)).image
        XCTAssertGreaterThan(try change(original, covered, in: scene.plate.rect), 20, "plate not covered")
        XCTAssertLessThan(try change(original, covered, in: scene.sign.rect), 3, "sign covered")
        let state = try EditingState.decode(XCTUnwrap(Data(base64Encoded: first.headers["x-veil-state"] ?? "")))
        let items = try XCTUnwrap(state.texts?.items)
        let plate = try XCTUnwrap(items.firstIndex(where: \.covered))
        XCTAssertEqual(state.texts?.match, "plates")

        // The saved state: no detection again; the plate dropped by tN.
        let dropped = try server.request("POST", "/v1/blur?cover=text&text-match=plates&drop=t\(plate)", body: photo)
        XCTAssertEqual(dropped.status, 200, dropped.text)
        XCTAssertEqual(dropped.headers["x-veil-detector"], "reused")
        XCTAssertLessThan(try change(original, ImageDecoder().decode(.data(dropped.body)).image, in: scene.plate.rect), 3)

        let bad = try server.request("POST", "/v1/blur?cover=plates", body: photo)
        XCTAssertEqual(bad.status, 400, bad.text)
        XCTAssertTrue(bad.text.contains("faces, text and people"), bad.text)
    }

    /// An edit of a text-only state kept under a handle, without `cover`:
    /// still text-only (no face detected or covered), as on the CLI; a region
    /// both dropped and undropped is refused.
    func testEditOfATextOnlyStateStaysTextOnly() throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let server = try ServeProcess(self)
        let photo = try Data(contentsOf: scene.url)
        let original = try ImageDecoder().decode(.data(photo)).image
        let first = try server.request("POST", "/v1/blur?cover=text&keep=1", body: photo)
        XCTAssertEqual(first.status, 200, first.text)
        let handle = try XCTUnwrap(first.headers["x-veil-state-handle"])
        let edited = try server.request("POST", "/v1/blur?handle=\(handle)&drop=t0", body: photo)
        XCTAssertEqual(edited.status, 200, edited.text)
        let state = try EditingState.decode(XCTUnwrap(Data(base64Encoded: edited.headers["x-veil-state"] ?? "")))
        XCTAssertEqual(state.faces, .notYet, "the edit detected faces")
        XCTAssertEqual(edited.headers["x-veil-covered"], String(state.texts?.items.filter(\.covered).count ?? -1))
        XCTAssertLessThan(try change(original, ImageDecoder().decode(.data(edited.body)).image, in: TestData.astronautFace), 1, "the face covered")
        let both = try server.request("POST", "/v1/blur?handle=\(handle)&drop=t0&undrop=t0", body: photo)
        XCTAssertEqual(both.status, 400, both.text)
        XCTAssertTrue(both.text.contains("contradict"), both.text)
    }

    /// A real car's own plate (needs dev data): `text-match=plates` covers it and leaves the car's badge.
    func testBlurCoversARealCarsPlate() throws {
        let scene = try TextScene.realCar()
        let server = try ServeProcess(self)
        let photo = try Data(contentsOf: scene.url)
        let original = try ImageDecoder().decode(.data(photo)).image
        let answer = try server.request("POST", "/v1/blur?cover=text&text-match=plates", body: photo)
        XCTAssertEqual(answer.status, 200, answer.text)
        let covered = try ImageDecoder().decode(.data(answer.body)).image
        XCTAssertGreaterThan(try change(original, covered, in: scene.plate.rect), 15, "the car's plate not covered")
        XCTAssertLessThan(try change(original, covered, in: scene.sign.rect), 1, "the badge covered")
    }
}
