import Foundation
import VeilKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `veil serve` against what a hostile or careless client does (issue 12):
/// a stop while work holds every slot, slow senders, a poisoned photo, bodies
/// past the memory budget, forms of thousands of parts. After each case the
/// server must still answer /healthz.
final class ServeHostileTests: XCTestCase {
    func photo() throws -> Data { try Data(contentsOf: TestData.astronaut()) }

    /// The astronaut's state as /v1/blur returns it, as JSON to edit.
    func state(_ server: ServeProcess) throws -> [String: Any] {
        let first = try server.request("POST", "/v1/blur", body: photo())
        XCTAssertEqual(first.status, 200, first.text)
        if let inline = first.headers["x-veil-state"].flatMap({ Data(base64Encoded: $0) }) {
            return try XCTUnwrap(JSONSerialization.jsonObject(with: inline) as? [String: Any])
        }
        let saved = try server.request("GET", try XCTUnwrap(first.headers["x-veil-state-url"]))
        return try XCTUnwrap(saved.json, saved.text)
    }

    /// A state whose pen work costs far more than the photo: 1,000 strokes of
    /// 100 points, each as wide as the photo — minutes of rendering today.
    func pathological(_ base: [String: Any]) -> [String: Any] {
        var state = base
        var random = SystemRandomNumberGenerator()
        state["strokes"] = (0..<1000).map { _ in
            ["width": 2.0, "points": (0..<100).map { _ in [Double.random(in: 0...1, using: &random), Double.random(in: 0...1, using: &random)] }] as [String: Any]
        }
        return state
    }

    func blurForm(_ state: [String: Any]) throws -> (Data, String) {
        BlockingHTTP.form([("image", "a.png", try photo()), ("state", nil, try JSONSerialization.data(withJSONObject: state))])
    }

    func assertHealthy(_ server: ServeProcess, within seconds: Double = 2, file: StaticString = #filePath, line: UInt = #line) {
        let start = Date()
        let reply = try? server.request("GET", "/healthz", timeout: seconds + 1)
        XCTAssertEqual(reply?.status, 200, "healthz: \(reply?.text ?? "no answer")", file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(start), seconds, "healthz was slow", file: file, line: line)
    }

    /// `count` pathological /v1/blur requests on threads of their own: their
    /// statuses (-1: no answer) once the group is done.
    func sendPathological(_ server: ServeProcess, count: Int) throws -> (DispatchGroup, Statuses) {
        // Built here, not asked of the server: a first request could itself run past a short --timeout.
        let (form, type) = try blurForm(pathological(StateJSON.astronaut()))
        let statuses = Statuses()
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread.detachNewThread {
                statuses.add((try? server.request("POST", "/v1/blur", headers: [("Content-Type", type)], body: form, timeout: 60).status) ?? -1)
                group.leave()
            }
        }
        return (group, statuses)
    }

    /// Waits until the server counts `n` requests in flight (the metrics request included).
    func waitInFlight(_ server: ServeProcess, atLeast n: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let metrics = try server.request("GET", "/metrics").text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("veil_http_in_flight ") }
            if let v = line.flatMap({ Int($0.split(separator: " ").last ?? "") }), v >= n { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("the requests never got under way")
    }

    // 1. SIGTERM while work is in flight: every client answered, exit 0 (was: abort, 134).
    func testSIGTERMWhileWorkIsInFlightAnswersAndExitsZero() throws {
        let server = try ServeProcess(self, ["--concurrency", "2", "--timeout", "3s"])
        let (group, statuses) = try sendPathological(server, count: 2)
        // Parsing 4 MB of state takes a moment: signal once both are being worked on.
        try waitInFlight(server, atLeast: 3)
        Thread.sleep(forTimeInterval: 0.5)
        assertHealthy(server)
        let start = Date()
        server.process.terminate()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "a client got no answer")
        server.process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(server.process.terminationReason, .exit)
        XCTAssertEqual(server.process.terminationStatus, 0, "veil serve did not stop cleanly")
        XCTAssertLessThan(seconds, 3 + 2 + 1 + 6 + 2, "the stop took \(seconds) s")
        XCTAssertEqual(Set(statuses.all).subtracting([503, 504]), [], "\(statuses.all)")
    }

    // 2. Work holding every slot past --timeout: 504 in bounded time; health and metrics never wait for a slot.
    func testTimeoutAnswersAndHealthNeverQueuesBehindWork() throws {
        let server = try ServeProcess(self, ["--concurrency", "2", "--timeout", "2s"])
        let start = Date()
        let (group, replies) = try sendPathological(server, count: 2)
        try waitInFlight(server, atLeast: 3)
        for _ in 0..<5 {
            assertHealthy(server, within: 1)
            XCTAssertEqual(try server.request("GET", "/metrics", timeout: 2).status, 200)
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        // --timeout 2 s, the queue wait 1 s, one second of grace.
        XCTAssertLessThan(Date().timeIntervalSince(start), 2 + 1 + 1 + 6, "uploads, parse, --timeout, queue wait, grace")
        XCTAssertEqual(replies.all, [504, 504])
        assertHealthy(server)
    }

    // 3. 200 connections sending their headers a byte a second: health keeps answering.
    func testSlowHeaderSendersDoNotStarveHealth() throws {
        let server = try ServeProcess(self)
        let slow = SlowClients(port: server.port, count: 200)
        defer { slow.stop() }
        Thread.sleep(forTimeInterval: 1)
        var latencies: [Double] = []
        for _ in 0..<8 {
            let start = Date()
            let reply = try? server.request("GET", "/healthz", timeout: 3)
            XCTAssertEqual(reply?.status, 200, "healthz unanswered while 200 slow clients are connected")
            latencies.append(Date().timeIntervalSince(start))
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertLessThan(latencies.max() ?? 99, 1, "\(latencies)")
        let metrics = try server.request("GET", "/metrics").text
        let evicted = metrics.split(separator: "\n").first { $0.hasPrefix("veil_http_transport{counter=\"evicted\"}") }
        XCTAssertGreaterThan(Int(evicted?.split(separator: " ").last ?? "") ?? 0, 0, metrics)
    }

    // 4. A state past what a header can carry: answered, fetched by URL, the photo not poisoned.
    func testLargeStateIsAnsweredAndFetchedByURLNotPoisoned() throws {
        let server = try ServeProcess(self)
        var big = try state(server)
        big["regions"] = ["status": "confirmed", "regions": (0..<500).map { i in
            ["box": ["x": Double(i % 25) * 0.038, "y": Double(i / 25) * 0.045, "width": 0.03, "height": 0.03]]
        }]
        let (form, type) = try blurForm(big)
        let reply = try server.request("POST", "/v1/blur?keep=1", headers: [("Content-Type", type)], body: form)
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertNil(reply.headers["x-veil-state"], "a 500-region state must not travel in a header")
        XCTAssertEqual(reply.headers["x-veil-covered"], "500")
        let url = try XCTUnwrap(reply.headers["x-veil-state-url"])
        let saved = try server.request("GET", url)
        XCTAssertEqual(((saved.json?["regions"] as? [String: Any])?["regions"] as? [Any])?.count, 500, saved.text)
        // The same photo again by its handle, with the kept state: still answered.
        let handle = try XCTUnwrap(reply.headers["x-veil-state-handle"])
        let again = try server.request("POST", "/v1/blur?handle=\(handle)", body: photo())
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(again.headers["x-veil-detector"], "reused")
        XCTAssertEqual(again.headers["x-veil-covered"], "500")
        // And without it, as anyone else sends it: the photo is not poisoned by that state.
        let plain = try server.request("POST", "/v1/blur", body: photo())
        XCTAssertEqual(plain.status, 200, plain.text)
        XCTAssertNotEqual(plain.headers["x-veil-covered"], "500")
        assertHealthy(server)
    }

    // 5. Bodies in flight past the total budget: 503 before the body is read.
    func testBodiesPastTheBudgetAre503() throws {
        let server = try ServeProcess(self, ["--max-body", "10MB", "--body-budget", "20MB"])
        // Two declared 9 MB bodies, sent slowly, hold 18 MB of the budget.
        let holders = try (0..<2).map { _ in try OpenUpload(port: server.port, declared: 9_000_000) }
        Thread.sleep(forTimeInterval: 0.3)
        // Asking to continue: refused before the body is sent.
        let third = try BlockingHTTP.send(port: server.port, method: "POST", path: "/v1/faces",
                                          headers: [("Content-Length", "9000000"), ("Expect", "100-continue")], sendBody: false, timeout: 10)
        XCTAssertEqual(third.status, 503, third.text)
        XCTAssertTrue(third.text.contains("budget"), third.text)
        // Sending it anyway: the body is read and dropped, and the 503 still arrives.
        let fourth = try server.request("POST", "/v1/faces", body: Data(repeating: 7, count: 9_000_000), timeout: 30)
        XCTAssertEqual(fourth.status, 503, fourth.text)
        holders.forEach { $0.close() }
        Thread.sleep(forTimeInterval: 0.3)
        // Released: a body fits again.
        XCTAssertEqual(try server.request("POST", "/v1/faces", body: photo()).status, 200)
        XCTAssertTrue(try server.request("GET", "/metrics").text.contains(#"veil_http_rejected_total{reason="over_budget"} 2"#))
        assertHealthy(server)
    }

    // 6. A form of 20,000 parts: refused at once (the parse was quadratic: 40 s).
    func testManyPartsAreRefusedQuickly() throws {
        let server = try ServeProcess(self)
        var parts: [(name: String, filename: String?, data: Data)] = (0..<20_000).map { ("f\($0)", nil, Data(repeating: 0x61, count: 40)) }
        parts.insert(("image", "a.png", try photo()), at: 0)
        let (form, type) = BlockingHTTP.form(parts)
        let start = Date()
        let reply = try server.request("POST", "/v1/faces", headers: [("Content-Type", type)], body: form, timeout: 30)
        XCTAssertEqual(reply.status, 400, reply.text)
        XCTAssertTrue(reply.text.contains("parts"), reply.text)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "a hang guard, not a speed figure (bench/serve-attack measures)")
        assertHealthy(server)
    }
}

/// Editing states as JSON, written by hand the way a client could.
enum StateJSON {
    /// A valid state for the astronaut with its faces already found (none),
    /// so the server goes straight to rendering.
    static func astronaut() throws -> [String: Any] {
        let photo = try Data(contentsOf: TestData.astronaut())
        return [
            "format": EditingState.formatName, "version": 1, "original": "a.png", "maskScale": 1, "shape": "disc", "style": "pixelate",
            "source": ["file": "a.png", "width": 512, "height": 512, "sha256": EditingState.digest(of: photo)],
            "faces": ["status": "recognized", "threshold": 0.5, "faces": [] as [Any]],
            "regions": ["status": "notYet"], "strokes": [] as [Any],
        ]
    }
}

/// Connections that send a request's headers one byte a second, reconnecting
/// when closed, until stopped.
final class SlowClients: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var threads = 0

    init(port: Int, count: Int) {
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                lock.withLock { threads += 1 }
                defer { lock.withLock { threads -= 1 } }
                let head = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "a", count: 200))\r\n\r\n".utf8)
                while lock.withLock({ running }) {
                    guard let fd = try? OpenUpload.connect(port: port) else { Thread.sleep(forTimeInterval: 0.2); continue }
                    for byte in head {
                        guard lock.withLock({ running }) else { break }
                        var b = byte
                        if Glibc.send(fd, &b, 1, Int32(MSG_NOSIGNAL)) != 1 { break }
                        Thread.sleep(forTimeInterval: 1)
                    }
                    close(fd)
                }
            }
        }
    }

    func stop() {
        lock.withLock { running = false }
        let deadline = Date().addingTimeInterval(5)
        while lock.withLock({ threads }) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }
}

/// A POST whose declared body is sent only in part, held open until closed.
final class OpenUpload {
    let fd: Int32

    init(port: Int, declared: Int) throws {
        fd = try OpenUpload.connect(port: port)
        var head = Data("POST /v1/faces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(declared)\r\n\r\n".utf8)
        head.append(Data(repeating: 0, count: 1000))
        _ = head.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func close() { Glibc.close(fd) }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { Glibc.close(fd); throw BlockingHTTP.Failure(description: "connect failed") }
        return fd
    }
}
