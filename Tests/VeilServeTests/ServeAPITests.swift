import Foundation
import VeilKit
import XCTest

/// `veil serve` over real loopback HTTP: every route, each limit and error.
final class ServeAPITests: XCTestCase {
    func photo() throws -> Data { try Data(contentsOf: TestData.astronaut()) }

    func testFacesAnswersExactlyWhatTheCLIPrints() throws {
        let server = try ServeProcess(self)
        let cli = try Veil.run(["faces", "--json", try TestData.astronaut().path])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let expected = cli.stdout.replacingOccurrences(of: try TestData.astronaut().path, with: "upload").trimmingCharacters(in: .whitespacesAndNewlines)

        let raw = try server.request("POST", "/v1/faces", headers: [("Content-Type", "image/png")], body: photo())
        XCTAssertEqual(raw.status, 200, raw.text)
        XCTAssertEqual(raw.headers["content-type"], "application/json")
        XCTAssertEqual(raw.text.trimmingCharacters(in: .whitespacesAndNewlines), expected)

        let (form, type) = BlockingHTTP.form([("image", "astronaut.png", try photo())])
        let multipart = try server.request("POST", "/v1/faces", headers: [("Content-Type", type)], body: form)
        XCTAssertEqual(multipart.status, 200, multipart.text)
        XCTAssertEqual(multipart.text.trimmingCharacters(in: .whitespacesAndNewlines),
                       expected.replacingOccurrences(of: "\"file\":\"upload\"", with: "\"file\":\"astronaut.png\""))

        // The same options, spelled as the CLI's flags or as query parameters.
        let other = try Veil.run(["faces", "--json", "--model", "retinaface", "--preset", "privacy", try TestData.astronaut().path])
        XCTAssertEqual(other.status, 0, other.stderr)
        let retina = try server.request("POST", "/v1/faces?model=retinaface&preset=privacy", headers: [("Content-Type", "image/png")], body: photo())
        XCTAssertEqual(retina.status, 200, retina.text)
        XCTAssertEqual(retina.text.trimmingCharacters(in: .whitespacesAndNewlines),
                       other.stdout.replacingOccurrences(of: try TestData.astronaut().path, with: "upload").trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertNotEqual(retina.text, raw.text)
        let unknown = try server.request("POST", "/v1/faces?model=yolo", headers: [("Content-Type", "image/png")], body: photo())
        XCTAssertEqual(unknown.status, 400, unknown.text)
        XCTAssertTrue(unknown.text.contains("model must be centerface or retinaface"), unknown.text)
    }

    func testBlurReturnsTheStateAndKeepsItBySHA256() throws {
        let server = try ServeProcess(self)
        let first = try server.request("POST", "/v1/blur", body: photo())
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertEqual(first.headers["content-type"], "image/png")
        XCTAssertEqual(first.headers["x-veil-detector"], "ran")
        XCTAssertEqual(first.headers["x-veil-covered"], "1")
        let stateData = try XCTUnwrap(Data(base64Encoded: first.headers["x-veil-state"] ?? ""))
        let state = try EditingState.decode(stateData)
        XCTAssertEqual(state.source.sha256, first.headers["x-veil-sha256"])
        XCTAssertEqual(state.source.file, "upload")
        XCTAssertNil(first.headers["x-veil-state-handle"], "stateless unless asked")

        // The face is covered: its pixels changed, the corner did not.
        let original = try ImageDecoder().decode(.data(photo())).image
        let covered = try ImageDecoder().decode(.data(first.body)).image
        XCTAssertEqual(covered.size, original.size)
        let face = TestData.astronautFace
        XCTAssertGreaterThan(try meanDifference(original, covered, x: Int(face.x) + 20, y: Int(face.y) + 20, size: 40), 5)
        XCTAssertLessThan(try meanDifference(original, covered, x: 440, y: 440, size: 40), 0.5)

        // The same photo again: the saved state, no detection.
        let again = try server.request("POST", "/v1/blur", body: photo())
        XCTAssertEqual(again.headers["x-veil-detector"], "reused")

        // Edits: dropping the face uncovers it; a state sent back is honoured.
        let dropped = try server.request("POST", "/v1/blur?drop=0", body: photo())
        XCTAssertEqual(dropped.headers["x-veil-covered"], "0", dropped.text)
        let (form, type) = BlockingHTTP.form([("image", "a.png", try photo()), ("state", nil, stateData)])
        let sent = try server.request("POST", "/v1/blur?style=blur%3D2&shape=box", headers: [("Content-Type", type)], body: form)
        XCTAssertEqual(sent.status, 200, sent.text)
        XCTAssertEqual(sent.headers["x-veil-covered"], "1")
        let sentState = try EditingState.decode(XCTUnwrap(Data(base64Encoded: sent.headers["x-veil-state"] ?? "")))
        XCTAssertEqual(sentState.style, .blur(strength: 2))
        XCTAssertEqual(sentState.shape, .box)
        let header = try server.request("POST", "/v1/blur", headers: [("X-Veil-State", stateData.base64EncodedString())], body: photo())
        XCTAssertEqual(header.headers["x-veil-covered"], "1", header.text)

        // No request can name a server file.
        let path = try server.request("POST", "/v1/blur?style=image%3D/etc/hostname", body: photo())
        XCTAssertEqual(path.status, 400)
        XCTAssertTrue(path.text.contains("not accepted over HTTP"), path.text)
        var evil = state
        evil.style = .image(path: "/etc/hostname")
        let (evilForm, evilType) = BlockingHTTP.form([("image", "a.png", try photo()), ("state", nil, try evil.encoded())])
        XCTAssertEqual(try server.request("POST", "/v1/blur", headers: [("Content-Type", evilType)], body: evilForm).status, 400)
        XCTAssertEqual(try server.request("POST", "/v1/blur?style=sparkles", body: photo()).status, 400)
        XCTAssertEqual(try server.request("POST", "/v1/blur", headers: [("X-Veil-State", "%%%")], body: photo()).status, 400)

        XCTAssertEqual(try server.request("GET", "/v1/state/\(state.source.sha256)").status, 404, "a photo's sha256 names no state")
        XCTAssertEqual(try server.request("GET", "/v1/state/0000").status, 404)
    }

    /// Two clients send the same photo (issue 28). One uncovers its face and
    /// keeps its state; the other's plain request of the same bytes comes
    /// back with every face covered, reusing only the detection; the first's
    /// state is read and edited only by its handle, never by the photo's hash.
    func testOneClientsEditsNeverReachAnothersPhoto() throws {
        let server = try ServeProcess(self)
        let editor = try server.request("POST", "/v1/blur?drop=0&keep=1", body: photo())
        XCTAssertEqual(editor.status, 200, editor.text)
        XCTAssertEqual(editor.headers["x-veil-covered"], "0")
        let handle = try XCTUnwrap(editor.headers["x-veil-state-handle"])
        XCTAssertEqual(handle.count, 32)
        XCTAssertEqual(editor.headers["x-veil-state-url"], "/v1/state/\(handle)")

        let other = try server.request("POST", "/v1/blur", body: photo())
        XCTAssertEqual(other.status, 200, other.text)
        XCTAssertEqual(other.headers["x-veil-covered"], "1", "the other client's photo has its face covered")
        XCTAssertEqual(other.headers["x-veil-detector"], "reused", "the detection is shared, the edit is not")
        let original = try ImageDecoder().decode(.data(photo())).image
        let covered = try ImageDecoder().decode(.data(other.body)).image
        let face = TestData.astronautFace
        XCTAssertGreaterThan(try meanDifference(original, covered, x: Int(face.x) + 20, y: Int(face.y) + 20, size: 40), 5)
        let otherState = try EditingState.decode(XCTUnwrap(Data(base64Encoded: other.headers["x-veil-state"] ?? "")))
        guard case .notYet = otherState.regions else { return XCTFail("the other client's state holds edits: \(otherState.regions)") }
        XCTAssertEqual(try server.request("POST", "/v1/blur?reset=1", body: photo()).headers["x-veil-covered"], "1")

        XCTAssertEqual(try server.request("GET", "/v1/state/\(otherState.source.sha256)").status, 404)
        let kept = try server.request("GET", "/v1/state/\(handle)")
        XCTAssertEqual(kept.status, 200)
        guard case let .confirmed(regions) = try EditingState.decode(kept.body).regions else { return XCTFail("the kept state lost its edit") }
        XCTAssertTrue(regions.isEmpty)
        // Its owner goes on editing it by handle: the face stays uncovered, a box is added.
        let more = try server.request("POST", "/v1/blur?handle=\(handle)&add=10,10,40,40", body: photo())
        XCTAssertEqual(more.headers["x-veil-covered"], "1", more.text)
        XCTAssertEqual(more.headers["x-veil-state-handle"], handle)
        XCTAssertEqual(try server.request("POST", "/v1/blur?handle=\(String(repeating: "0", count: 32))", body: photo()).status, 404)
        XCTAssertEqual(try server.request("POST", "/v1/blur?handle=../etc", body: photo()).status, 400)
    }

    /// Every parameter is checked (issue 28): a misspelled or unknown query
    /// parameter or form field is a 400 that says what was meant, never the
    /// defaults answered as if it had been heard.
    func testUnknownParametersAreRefusedWithTheCLIsSuggestion() throws {
        let server = try ServeProcess(self)
        for (path, meant) in [("/v1/blur?thresold=0.9", "threshold"), ("/v1/blur?stlye=blur", "style"),
                              ("/v1/faces?thresold=0.9", "threshold"), ("/v1/lift?efect=remove", "effect")] {
            let answer = try server.request("POST", path, body: photo())
            XCTAssertEqual(answer.status, 400, path)
            XCTAssertTrue(answer.text.contains("did you mean \(meant)?"), "\(path): \(answer.text)")
        }
        let field = BlockingHTTP.form([("image", "a.png", try photo()), ("shapee", nil, Data("box".utf8))])
        let refused = try server.request("POST", "/v1/blur", headers: [("Content-Type", field.1)], body: field.0)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.text.contains("unknown parameter 'shapee' (did you mean shape?)"), refused.text)
        XCTAssertEqual(try server.request("POST", "/v1/blur?threshold=0.9&style=blur", body: photo()).status, 200)
        // rembg's own fields stay rembg's: om with bgc is the mask, as rembg answers it.
        let rembg = BlockingHTTP.form([("file", "a.png", try photo()), ("om", nil, Data("true".utf8))])
        XCTAssertEqual(try server.request("POST", "/api/remove?bgc=0,0,0,255", headers: [("Content-Type", rembg.1)], body: rembg.0).status, 200)
    }

    func testLiftCutsOutListsAndRefusesPaths() throws {
        let server = try ServeProcess(self)
        let cut = try server.request("POST", "/v1/lift?tap=0.5,0.586", body: photo())
        XCTAssertEqual(cut.status, 200, cut.text)
        XCTAssertEqual(cut.headers["content-type"], "image/png")
        let image = try ImageDecoder().decode(.data(cut.body)).image
        XCTAssertEqual(image.bands, 4)
        XCTAssertEqual(cut.headers["x-veil-chosen"], "1")

        let json = try server.request("POST", "/v1/lift?json=1", body: photo())
        let images = try XCTUnwrap(json.json?["images"] as? [[String: Any]])
        XCTAssertEqual((images.first?["instances"] as? [Any])?.count, 1, json.text)

        let mask = try server.request("POST", "/v1/lift?mask-only=1&crop=1&format=webp", body: photo())
        XCTAssertEqual(mask.headers["content-type"], "image/webp", mask.text)
        XCTAssertEqual(try server.request("POST", "/v1/lift?effect=color%3D%2300FF00", body: photo()).status, 200)
        let replace = try server.request("POST", "/v1/lift?effect=replace%3D/etc/hostname", body: photo())
        XCTAssertEqual(replace.status, 400)
        let (form, type) = BlockingHTTP.form([("image", "a.png", try photo()), ("background", "b.png", try photo())])
        XCTAssertEqual(try server.request("POST", "/v1/lift?effect=replace", headers: [("Content-Type", type)], body: form).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/lift?tap=2,0.5", body: photo()).status, 400)
    }

    func testHealthMetricsAndErrors() throws {
        let server = try ServeProcess(self)
        XCTAssertEqual(try server.request("GET", "/healthz").text.trimmingCharacters(in: .whitespacesAndNewlines), #"{"status":"ok"}"#)
        let bad = try server.request("POST", "/v1/faces", body: Data("not an image".utf8))
        XCTAssertEqual(bad.status, 400)
        XCTAssertNotNil(bad.json?["error"] as? String)
        XCTAssertEqual(try server.request("POST", "/v1/faces").status, 400)
        XCTAssertEqual(try server.request("GET", "/v1/faces").status, 405)
        XCTAssertEqual(try server.request("GET", "/nowhere").status, 404)
        let (form, type) = BlockingHTTP.form([("note", nil, Data("x".utf8))])
        XCTAssertEqual(try server.request("POST", "/v1/faces", headers: [("Content-Type", type)], body: form).status, 400)
        _ = try server.request("POST", "/v1/faces", body: photo())
        let page = try server.request("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.headers["content-type"]?.hasPrefix("text/html") ?? false)

        let metrics = try server.request("GET", "/metrics").text
        for needle in [#"veil_http_requests_total{route="/v1/faces",status="200"} 1"#,
                       #"veil_http_requests_total{route="/v1/faces",status="400"} 3"#,
                       #"veil_http_request_duration_seconds_bucket{route="/v1/faces",le="+Inf"}"#,
                       "veil_http_in_flight 1", #"veil_http_rejected_total{reason="busy"} 0"#] {
            XCTAssertTrue(metrics.contains(needle), "\(needle) missing from\n\(metrics)")
        }
    }

    func testBodyAndPixelLimits() throws {
        let server = try ServeProcess(self, ["--max-body", "100KB", "--max-pixels", "100000"])
        // A declared length over the limit is refused before any body is sent.
        let start = Date()
        let declared = try BlockingHTTP.send(port: server.port, method: "POST", path: "/v1/faces",
                                             headers: [("Content-Length", "500000000")], sendBody: false, timeout: 10)
        XCTAssertEqual(declared.status, 413, declared.text)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // The photo (600 kB) is over the body limit; chunked too.
        XCTAssertEqual(try server.request("POST", "/v1/faces", body: photo()).status, 413)
        var chunked = Data()
        let big = try photo()
        for offset in stride(from: 0, to: big.count, by: 16384) {
            let piece = big[offset..<min(big.count, offset + 16384)]
            chunked.append(Data((String(piece.count, radix: 16) + "\r\n").utf8)); chunked.append(piece); chunked.append(Data("\r\n".utf8))
        }
        chunked.append(Data("0\r\n\r\n".utf8))
        let streamed = try server.request("POST", "/v1/faces", headers: [("Transfer-Encoding", "chunked"), ("Content-Length", "")].filter { $0.1 != "" }, body: chunked)
        XCTAssertEqual(streamed.status, 413, streamed.text)
        // A small file with too many pixels: 413 from the header.
        let wide = try ImageEncoder(format: .jpeg).encode(VeilImage.constant(RGB(90, 90, 90), size: PixelSize(width: 1000, height: 200), bands: 3))
        XCTAssertLessThan(wide.count, 100_000)
        let pixels = try server.request("POST", "/v1/faces", body: wide)
        XCTAssertEqual(pixels.status, 413, pixels.text)
        XCTAssertTrue(pixels.text.contains("over the limit"), pixels.text)
        let metrics = try server.request("GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"veil_http_rejected_total{reason="too_large"} 3"#), metrics)
    }

    /// Twelve lifts at once to one slot: within the default --timeout every
    /// turn can come, so all are answered in turn (a queue, as rembg's clients
    /// expect). Twice what a --timeout of 3 s can serve: the server, having measured
    /// how long a lift holds the slot, answers those whose turn would come too
    /// late 503 at once, with a Retry-After, and the others 200.
    func testBusyAndTimeout() throws {
        let body = try photo()
        // Twelve at once on plain threads (GCD would run only as many as the cores).
        func burst(_ server: ServeProcess, _ count: Int) -> [HTTPReply?] {
            let replies = Replies()
            let group = DispatchGroup()
            for _ in 0..<count {
                group.enter()
                Thread.detachNewThread {
                    replies.add(try? server.request("POST", "/v1/lift", body: body))
                    group.leave()
                }
            }
            group.wait()
            return replies.all
        }
        let queued = burst(try ServeProcess(self, ["--concurrency", "1"]), 12).map { $0?.status ?? -1 }
        XCTAssertEqual(queued, Array(repeating: 200, count: 12), "every turn comes within --timeout: \(queued)")

        let busy = try ServeProcess(self, ["--concurrency", "1", "--timeout", "3s"])
        _ = try busy.request("POST", "/v1/lift", body: body)  // the model loads
        let warm = Date()
        XCTAssertEqual(try busy.request("POST", "/v1/lift", body: body).status, 200, "a warm lift, its hold measured")
        // Twice as many as the 3 s could serve at this machine's pace.
        let replies = burst(busy, min(60, max(12, 2 * Int((3 / Date().timeIntervalSince(warm)).rounded(.up)))))
        let statuses = replies.map { $0?.status ?? -1 }
        XCTAssertEqual(Set(statuses).subtracting([200, 503]), [], "\(statuses)")
        XCTAssertTrue(statuses.contains(503), "\(statuses)")
        XCTAssertTrue(statuses.contains(200), "\(statuses)")
        for reply in replies.compactMap({ $0 }) where reply.status == 503 {
            XCTAssertGreaterThanOrEqual(Int(reply.headers["retry-after"] ?? "") ?? 0, 1, reply.text)
        }
        XCTAssertTrue(try busy.request("GET", "/metrics").text.contains(#"veil_http_rejected_total{reason="busy"}"#))

        let slow = try ServeProcess(self, ["--timeout", "20ms"])
        let late = try slow.request("POST", "/v1/lift", body: body)
        XCTAssertEqual(late.status, 504, late.text)
        XCTAssertEqual(try slow.request("GET", "/healthz").status, 200)
    }

    func testTokenRequiredOffLoopback() throws {
        let open = try Veil.run(["serve", "--host", "0.0.0.0", "--port", "0"], timeout: 20)
        XCTAssertEqual(open.status, 2, open.stderr)
        XCTAssertTrue(open.stderr.contains("--token"), open.stderr)
        XCTAssertEqual(try Veil.run(["serve", "--max-body", "lots"], timeout: 20).status, 2)

        let server = try ServeProcess(self, ["--token", "s3cret"])
        XCTAssertEqual(try server.request("POST", "/v1/faces", body: photo()).status, 401)
        XCTAssertEqual(try server.request("POST", "/v1/faces", headers: [("Authorization", "Bearer wrong!")], body: photo()).status, 401)
        XCTAssertEqual(try server.request("POST", "/v1/faces", headers: [("Authorization", "Bearer s3cret")], body: photo()).status, 200)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        // Off loopback a token is required, and it guards /metrics too; the
        // editor's static page asks for the token itself.
        XCTAssertEqual(try server.request("GET", "/metrics").status, 401)
        XCTAssertEqual(try server.request("GET", "/metrics", headers: [("Authorization", "Bearer s3cret")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/").status, 200)
    }

    func testStopsCleanlyOnSIGTERM() throws {
        let server = try ServeProcess(self)
        // A request under way when the signal comes is still answered.
        let body = try photo()
        let statuses = Statuses()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            statuses.add((try? server.request("POST", "/v1/lift", body: body).status) ?? -1)
            done.signal()
        }
        // Signal only once the server is answering it (the metrics request counts itself too).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let metrics = try server.request("GET", "/metrics").text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("veil_http_in_flight ") }
            if let n = line.flatMap({ Int($0.split(separator: " ").last ?? "") }), n >= 2 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        server.process.terminate()
        done.wait()
        XCTAssertEqual(statuses.all, [200])
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
    }

    private func meanDifference(_ a: VeilImage, _ b: VeilImage, x: Int, y: Int, size: Int) throws -> Double {
        let pa = try a.pixelBytes(), pb = try b.pixelBytes()
        let bands = a.bands
        var total = 0.0
        for row in y..<(y + size) {
            for col in x..<(x + size) {
                let i = (row * a.width + col) * bands
                for c in 0..<3 { total += abs(Double(pa[i + c]) - Double(pb[i + c])) }
            }
        }
        return total / Double(size * size * 3)
    }
}

/// Statuses gathered from many threads.
final class Replies: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [HTTPReply?] = []
    func add(_ v: HTTPReply?) { lock.withLock { values.append(v) } }
    var all: [HTTPReply?] { lock.withLock { values } }
}

final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func add(_ v: Int) { lock.withLock { values.append(v) } }
    var all: [Int] { lock.withLock { values } }
}
