import CMicroHTTPDShim
import Foundation
import VeilKit
import VeilVocabulary

/// One request as the routes see it: the body already complete and bounded.
struct HTTPRequest: Sendable {
    var method: String
    var path: String
    /// Header names lower-cased.
    var headers: [String: String]
    var query: [String: String]
    var body: Data
    /// 413 when the body was over --max-body (the body is then empty), else 0.
    var refused: Int

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One answer: status, type, bytes and any extra headers.
struct HTTPResponse: Sendable {
    var status: Int
    var contentType: String
    var body: Data
    var headers: [(String, String)] = []

    static func json(_ status: Int, _ value: JSONText) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Data((value.rendered + "\n").utf8))
    }

    /// The one error shape of the API: `{"error": "..."}`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object([("error", .string(message))]))
    }
}

/// libmicrohttpd's daemon with a Swift handler. The daemon's polling thread
/// reads bodies (bounded by the shim, one by one and in total), closes slow
/// senders, and answers `quick` requests (health, metrics, refusals) itself,
/// so they never wait for a thread of the cooperative pool; other requests
/// run as tasks while their connection is suspended. A backstop on a queue of
/// its own answers 504 if a task has not answered in time, even when CPU-bound
/// work holds every thread of the pool.
final class HTTPServer: @unchecked Sendable {
    typealias Quick = @Sendable (HTTPRequest) -> HTTPResponse?
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private var daemon: OpaquePointer?
    private let quick: Quick
    private let handler: Handler
    private let backstop: Double
    private let late: @Sendable () -> HTTPResponse

    /// `backstop`: seconds after which a request still unanswered gets `late()`.
    init(host: String, port: Int, limits: veil_httpd_limits, backstop: Double, late: @escaping @Sendable () -> HTTPResponse,
         quick: @escaping Quick, handler: @escaping Handler) throws {
        self.quick = quick
        self.handler = handler
        self.backstop = backstop
        self.late = late
        var message = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        daemon = veil_httpd_start(host, UInt16(port), limits,
                                  { context, request in HTTPServer.dispatch(context, request) }, context,
                                  &message, message.count)
        guard daemon != nil else { throw VeilError.unavailable("cannot listen on \(host) port \(port): \(String(cString: message))") }
    }

    /// The port actually bound (useful with --port 0).
    var port: Int { daemon.map { Int(veil_httpd_port($0)) } ?? 0 }

    /// Stops accepting connections; requests under way are still answered.
    func quiesce() {
        if let daemon { veil_httpd_quiesce(daemon) }
    }

    /// The transport's counters (slow senders closed, evicted, over budget).
    var stats: veil_httpd_stats { daemon.map { veil_httpd_get_stats($0) } ?? veil_httpd_stats() }

    /// Answers what is still waiting with 503, then closes every connection.
    func stop() {
        if let daemon { veil_httpd_stop(daemon) }
        daemon = nil
    }

    /// A connection waiting for its one answer.
    private struct Pending: @unchecked Sendable {
        let pointer: OpaquePointer
        func send(_ response: HTTPResponse) {
            let extra = response.headers.map { "\($0.0): \($0.1)\n" }.joined()
            response.body.withUnsafeBytes { raw in
                veil_httpd_respond(pointer, UInt32(response.status), response.contentType,
                                   raw.baseAddress, raw.count, extra.isEmpty ? nil : extra)
            }
        }
    }

    private static func dispatch(_ context: UnsafeMutableRawPointer?, _ request: OpaquePointer?) {
        guard let context, let request else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        var length = 0
        // The body buffer changes hands without a copy; Data frees it.
        let body = veil_httpd_take_body(request, &length).map {
            Data(bytesNoCopy: $0, count: length, deallocator: .custom { pointer, _ in veil_httpd_free(pointer) })
        } ?? Data()
        let parsed = HTTPRequest(
            method: String(cString: veil_httpd_method(request)),
            path: String(cString: veil_httpd_path(request)),
            headers: Dictionary(pairs(request, kind: 0).map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a }),
            query: Dictionary(pairs(request, kind: 1), uniquingKeysWith: { _, b in b }),
            body: body,
            refused: Int(veil_httpd_refused(request)))
        let pending = Pending(pointer: request)
        if let answer = server.quick(parsed) {
            pending.send(answer)
            return
        }
        // Exactly one answer: the handler's, or the backstop's.
        let once = Once()
        let handler = server.handler, late = server.late
        let task = Task {
            let response = await handler(parsed)
            once.run { pending.send(response) }
        }
        deadlineQueue.asyncAfter(deadline: .now() + server.backstop) {
            once.run {
                task.cancel()
                pending.send(late())
            }
        }
    }

    private static func pairs(_ request: OpaquePointer, kind: Int32) -> [(String, String)] {
        var buffer: UnsafeMutablePointer<CChar>?
        let length = veil_httpd_pairs(request, kind, &buffer)
        guard let buffer else { return [] }
        defer { veil_httpd_free(buffer) }
        var strings: [String] = []
        var start = 0
        for i in 0..<length where buffer[i] == 0 {
            strings.append(String(cString: buffer + start))
            start = i + 1
        }
        return stride(from: 0, to: strings.count - 1, by: 2).map { (strings[$0], strings[$0 + 1]) }
    }
}
