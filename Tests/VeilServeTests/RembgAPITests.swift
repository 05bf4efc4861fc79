import Foundation
import Synchronization
import VeilKit
import XCTest

/// rembg's HTTP API (`POST /api/remove`), answered for its clients as rembg's
/// own documentation drives it: curl with a form part `file`, Python's
/// `requests` with `files=` and `data=`.
final class RembgAPITests: XCTestCase {
    private func alpha(_ png: Data) throws -> [UInt8] {
        let image = try ImageDecoder().decode(.data(png)).image
        XCTAssertEqual(image.bands, 4, "RGBA")
        let bytes = try image.pixelBytes()
        return stride(from: 3, to: bytes.count, by: 4).map { bytes[$0] }
    }

    /// Four requests at once with one slot (as a rembg client sends them):
    /// each waits its turn and is answered, none refused.
    func testRequestsBeyondTheSlotsWaitTheirTurn() throws {
        try TestData.requireFaceModel()
        let server = try ServeProcess(self, ["--concurrency", "1"])
        // 2048 px a side: each takes long enough that the last waits well past the old 2 s.
        let body = try ImageEncoder(format: .png).encode(try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 2048, height: 2048))
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                let status = (try? server.request("POST", "/api/remove", headers: [("Content-Type", "image/png")], body: body).status) ?? -1
                statuses.withLock { $0.append(status) }
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(statuses.withLock { $0 }, [200, 200, 200, 200])
    }

    func testCurlAndRequestsGetWhatLiftGives() throws {
        try TestData.requireFaceModel()
        let server = try ServeProcess(self)
        let photo = try TestData.astronaut()
        let dir = try TestData.scratch(self)
        let lift = try server.request("POST", "/v1/lift", headers: [("Content-Type", "image/png")], body: Data(contentsOf: photo))
        XCTAssertEqual(lift.status, 200, lift.text)

        // curl -s "http://localhost:7000/api/remove" -F file=@image.jpg -o output.png
        let out = dir.appendingPathComponent("curl.png")
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-f", "http://127.0.0.1:\(server.port)/api/remove", "-F", "file=@\(photo.path)", "-o", out.path]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        try curl.run(); curl.waitUntilExit()
        XCTAssertEqual(curl.terminationStatus, 0)
        XCTAssertEqual(try alpha(Data(contentsOf: out)), try alpha(lift.body), "the same cut-out as /v1/lift")

        // requests.post(url, files={"file": open(p, "rb")}, data={"model": "u2netp", "om": "true"}) -> the mask
        let script = """
        import sys
        try:
            import requests
        except ImportError:
            sys.exit(77)
        r = requests.post(sys.argv[1], files={"file": open(sys.argv[2], "rb")}, data={"model": "u2netp", "om": "true", "a": "true", "af": "240"})
        r.raise_for_status()
        open(sys.argv[3], "wb").write(r.content)
        """
        let mask = dir.appendingPathComponent("mask.png")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, "http://127.0.0.1:\(server.port)/api/remove", photo.path, mask.path]
        try python.run(); python.waitUntilExit()
        if python.terminationStatus != 77 {
            XCTAssertEqual(python.terminationStatus, 0)
            let liftMask = try server.request("POST", "/v1/lift?mask-only=1", headers: [("Content-Type", "image/png")], body: Data(contentsOf: photo))
            XCTAssertEqual(try ImageDecoder().decode(.data(Data(contentsOf: mask))).image.pixelBytes(),
                           try ImageDecoder().decode(.data(liftMask.body)).image.pixelBytes(), "om: the mask /v1/lift gives")
        }

        // bgc: an opaque red background where the subject is not.
        let (form, type) = BlockingHTTP.form([("file", "a.png", try Data(contentsOf: photo))])
        let red = try server.request("POST", "/api/remove?bgc=255,0,0,255", headers: [("Content-Type", type)], body: form)
        XCTAssertEqual(red.status, 200, red.text)
        XCTAssertEqual(red.headers["content-type"], "image/png")
        let bytes = try ImageDecoder().decode(.data(red.body)).image.pixelBytes()
        XCTAssertEqual(Array(bytes[0..<3]), [255, 0, 0], "the corner is background")

        let (named, namedType) = BlockingHTTP.form([("model", nil, Data("isnet-general-use".utf8)), ("file", "a.png", try Data(contentsOf: photo))])
        let unknown = try server.request("POST", "/api/remove", headers: [("Content-Type", namedType)], body: named)
        XCTAssertEqual(unknown.status, 400, unknown.text)
        XCTAssertTrue(unknown.text.contains("u2netp"), unknown.text)
        let fetch = try server.request("GET", "/api/remove?url=http://127.0.0.1:9/a.jpg")
        XCTAssertEqual(fetch.status, 400, fetch.text)
        XCTAssertTrue(fetch.text.contains("fetches nothing"), fetch.text)
    }

    /// Behind a token, /api/remove wants it as /v1/lift does.
    func testTheTokenGuardsItToo() throws {
        let server = try ServeProcess(self, ["--token", "s3cret"])
        let (form, type) = BlockingHTTP.form([("file", "a.png", try Data(contentsOf: TestData.astronaut()))])
        XCTAssertEqual(try server.request("POST", "/api/remove", headers: [("Content-Type", type)], body: form).status, 401)
        let ok = try server.request("POST", "/api/remove", headers: [("Content-Type", type), ("Authorization", "Bearer s3cret")], body: form)
        XCTAssertEqual(ok.status, 200, ok.text)
    }
}
