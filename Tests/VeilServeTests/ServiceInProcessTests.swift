import Foundation
@testable import VeilServe
import XCTest

/// The service without a socket: `Service.handle` called directly, so each
/// hostile value is one call and a trap would end this test process.
final class ServiceInProcessTests: XCTestCase {
    func service(_ configure: (inout ServeConfig) -> Void = { _ in }) throws -> Service {
        var config = ServeConfig(stateDir: try TestData.scratch(self).appendingPathComponent("states"))
        configure(&config)
        try FileManager.default.createDirectory(at: config.stateDir, withIntermediateDirectories: true)
        return Service(config)
    }

    func post(_ path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data) -> HTTPRequest {
        HTTPRequest(method: "POST", path: path, headers: headers, query: query, body: body, refused: 0)
    }

    func get(_ path: String, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", path: path, headers: headers, query: [:], body: Data(), refused: 0)
    }

    /// Values no number parser may let through: each is a 400 with one line.
    func testHostileNumbersAre400WithOneLine() async throws {
        let service = try service()
        let photo = try Data(contentsOf: TestData.astronaut())
        let cases: [(String, [String: String])] = [
            ("/v1/blur", ["add": "nan,0,10,10"]), ("/v1/blur", ["add": "0,0,inf,inf"]), ("/v1/blur", ["add": "1e300,0,10,10"]),
            ("/v1/blur", ["add": "1e15,1e15,10,10"]), ("/v1/blur", ["add": "-100,-100,50,50"]), ("/v1/blur", ["add": "1,2,3"]),
            ("/v1/blur", ["stroke": "0,0 1e300,1e300@4"]), ("/v1/blur", ["stroke": "0,0@nan"]),
            ("/v1/blur", ["quality": "nan"]), ("/v1/blur", ["quality": "1e400"]), ("/v1/blur", ["quality": "-1"]),
            ("/v1/blur", ["drop": "9223372036854775807"]), ("/v1/blur", ["drop": "-1"]), ("/v1/blur", ["mask-scale": "1e308"]),
            ("/v1/faces", ["threshold": "nan"]), ("/v1/faces", ["threshold": "1e999"]),
            ("/v1/lift", ["instances": "9223372036854775807"]), ("/v1/lift", ["instances": "-3"]),
            ("/v1/lift", ["tap": "nan,0.5"]), ("/v1/lift", ["refine": "1e308,0.01"]), ("/v1/lift", ["refine": "inf,0.01"]),
            ("/v1/lift", ["format": "../../etc/passwd"]),
        ]
        for (path, query) in cases {
            let reply = await service.handle(post(path, query: query, body: photo))
            XCTAssertEqual(reply.status, 400, "\(path) \(query): \(String(decoding: reply.body, as: UTF8.self))")
            let text = String(decoding: reply.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertFalse(text.contains("\n"), "more than one line: \(text)")
            XCTAssertTrue(text.hasPrefix(#"{"error":"#), text)
        }
    }

    /// A state sent back with numbers no photo has: 400, never a trap.
    func testHostileStatesAre400() async throws {
        let service = try service()
        let photo = try Data(contentsOf: TestData.astronaut())
        let base = try StateJSON.astronaut()
        // The control: the base state itself is accepted.
        let json = try JSONSerialization.data(withJSONObject: base)
        let control = await service.handle(post("/v1/blur", headers: ["x-veil-state": json.base64EncodedString()], body: photo))
        XCTAssertEqual(control.status, 200, String(decoding: control.body, as: UTF8.self))
        var hostile: [[String: Any]] = []
        for value in [1e300, -1e300, 9.3e18] {
            var s = base; s["regions"] = ["status": "confirmed", "regions": [["box": ["x": value, "y": 0, "width": 0.1, "height": 0.1]]]]; hostile.append(s)
            s = base; s["strokes"] = [["width": 0.01, "points": [[value, 0.5]]]]; hostile.append(s)
            s = base; s["strokes"] = [["width": value, "points": [[0.5, 0.5]]]]; hostile.append(s)
            s = base; s["maskScale"] = value; hostile.append(s)
            s = base; s["source"] = ["file": "a.png", "width": value, "height": 512, "sha256": String(repeating: "0", count: 64)]; hostile.append(s)
        }
        var many = base
        many["strokes"] = [["width": 0.01, "points": Array(repeating: [0.5, 0.5], count: 10_001)]]
        hostile.append(many)
        var version = base; version["version"] = 999; hostile.append(version)
        for state in hostile {
            let json = try JSONSerialization.data(withJSONObject: state)
            let reply = await service.handle(post("/v1/blur", headers: ["x-veil-state": json.base64EncodedString()], body: photo))
            XCTAssertEqual(reply.status, 400, String(decoding: reply.body, as: UTF8.self))
        }
    }

    /// Saved-state paths are 64 lower-case hex digits or nothing.
    /// A failed render's message names videos, never the server's folders.
    func testRenderErrorsNameNoServerPath() {
        let message = "cannot read /root/.cache/veil/serve-states/videos/pan-small-veil.mp4.veil.json: video editing state: track 3 has the box [1, 2]"
        XCTAssertEqual(VideoJobs.withoutPaths(message), "cannot read pan-small-veil.mp4.veil.json: video editing state: track 3 has the box [1, 2]")
        XCTAssertEqual(VideoJobs.withoutPaths("x.mp4 has no tracks yet"), "x.mp4 has no tracks yet")
    }

    func testStatePathsAndMethods() async throws {
        let service = try service()
        for path in ["/v1/state/../../etc/passwd", "/v1/state/" + String(repeating: "a", count: 65), "/v1/state/%00", "/v1/state/"] {
            let reply = await service.handle(get(path))
            XCTAssertEqual(reply.status, 404, path)
        }
        let wrongMethod = await service.handle(post("/v1/state/" + String(repeating: "a", count: 64), body: Data()))
        XCTAssertEqual(wrongMethod.status, 405)
        let postHealth = await service.handle(post("/healthz", body: Data()))
        XCTAssertEqual(postHealth.status, 404)
    }

    /// Health, the page and metrics need no work slot: answered on the caller's thread.
    func testQuickRoutesNeedNoSlot() throws {
        let service = try service { $0.token = "s3cret" }
        XCTAssertEqual(service.immediate(get("/healthz"))?.status, 200)
        XCTAssertEqual(service.immediate(get("/"))?.status, 200)
        // With a token, /metrics is the operator's: it needs the token.
        XCTAssertEqual(service.immediate(get("/metrics"))?.status, 401)
        XCTAssertEqual(service.immediate(get("/metrics", headers: ["authorization": "Bearer s3cret"]))?.status, 200)
        XCTAssertEqual(service.immediate(post("/v1/faces", body: Data()))?.status, 401)
        XCTAssertNil(service.immediate(post("/v1/faces", headers: ["authorization": "Bearer s3cret"], body: Data())))
        var refused = get("/v1/faces"); refused.refused = 503
        XCTAssertEqual(service.immediate(refused)?.status, 503)
    }

    /// The multipart parser: linear, capped, and exact about what it splits.
    func testMultipartSplitsAndCapsParts() throws {
        let (body, type) = BlockingHTTP.form([("image", "a.png", Data([1, 2, 3, 13, 10])), ("state", nil, Data("{}".utf8))])
        let boundary = try XCTUnwrap(Multipart.boundary(of: type))
        let parts = try Multipart.parse(body, boundary: boundary)
        XCTAssertEqual(parts.map(\.name), ["image", "state"])
        XCTAssertEqual(parts[0].data, Data([1, 2, 3, 13, 10]))
        XCTAssertEqual(parts[0].filename, "a.png")
        let (many, manyType) = BlockingHTTP.form((0...Multipart.maxParts).map { ("f\($0)", nil, Data("x".utf8)) })
        XCTAssertThrowsError(try Multipart.parse(many, boundary: Multipart.boundary(of: manyType)!))
        let (enough, enoughType) = BlockingHTTP.form((0..<Multipart.maxParts).map { ("f\($0)", nil, Data("x".utf8)) })
        XCTAssertEqual(try Multipart.parse(enough, boundary: Multipart.boundary(of: enoughType)!).count, Multipart.maxParts)
        for broken in ["", "--b", "--b\r\nname", "--b\r\n\r\nno end", "garbage"] {
            XCTAssertThrowsError(try Multipart.parse(Data(broken.utf8), boundary: "b"), broken)
        }
        XCTAssertThrowsError(try Multipart.parse(body, boundary: String(repeating: "b", count: 71)))
    }
}
