import Foundation
import VeilKit
import XCTest

/// `POST /v1/text` answers what `veil text --json` prints for the same image,
/// with the same option spelled as a query parameter (`level`).
final class TextRouteTests: XCTestCase {
    func testTextAnswersExactlyWhatTheCLIPrints() throws {
        let scene = try TextScene.street(in: TestData.scratch(self))
        let server = try ServeProcess(self)
        let photo = try Data(contentsOf: scene.url)
        func cli(_ flags: [String]) throws -> String {
            let run = try Veil.run(["text", "--json"] + flags + [scene.url.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdout.replacingOccurrences(of: scene.url.path, with: "upload").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let expected = try cli([])
        XCTAssertTrue(expected.contains("AB 123 CD") || expected.contains("AB123CD"), "the CLI does not read the plate: \(expected)")
        let raw = try server.request("POST", "/v1/text", headers: [("Content-Type", "image/jpeg")], body: photo)
        XCTAssertEqual(raw.status, 200, raw.text)
        XCTAssertEqual(raw.headers["content-type"], "application/json")
        XCTAssertEqual(raw.text.trimmingCharacters(in: .whitespacesAndNewlines), expected)

        // A form part's filename is the report's `file`, as a path is the CLI's.
        let (form, type) = BlockingHTTP.form([("image", "street.jpg", photo)])
        let multipart = try server.request("POST", "/v1/text", headers: [("Content-Type", type)], body: form)
        XCTAssertEqual(multipart.status, 200, multipart.text)
        XCTAssertEqual(multipart.text.trimmingCharacters(in: .whitespacesAndNewlines),
                       expected.replacingOccurrences(of: "\"file\":\"upload\"", with: "\"file\":\"street.jpg\""))

        // `--level fast` spelled as `level=fast`; a level neither knows is refused in the same words.
        let fast = try server.request("POST", "/v1/text?level=fast", body: photo)
        XCTAssertEqual(fast.status, 200, fast.text)
        XCTAssertEqual(fast.text.trimmingCharacters(in: .whitespacesAndNewlines), try cli(["--level", "fast"]))
        let bad = try server.request("POST", "/v1/text?level=best", body: photo)
        XCTAssertEqual(bad.status, 400, bad.text)
        XCTAssertTrue(bad.text.contains("level must be fast or accurate, not 'best'"), bad.text)
        let misspelt = try server.request("POST", "/v1/text?levl=fast", body: photo)
        XCTAssertEqual(misspelt.status, 400, misspelt.text)
        XCTAssertTrue(misspelt.text.contains("did you mean level?"), misspelt.text)
        let notImage = try server.request("POST", "/v1/text", body: Data("no photo".utf8))
        XCTAssertEqual(notImage.status, 400, notImage.text)
    }
}
