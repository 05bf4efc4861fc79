import CMicroHTTPD
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
    /// Instead of `body`: a file's range or a stream, read by libmicrohttpd.
    var source: ResponseSource?

    static func json(_ status: Int, _ value: JSONText) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Data((value.rendered + "\n").utf8))
    }

    /// The one error shape of the API: `{"error": "..."}`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object([("error", .string(message))]))
    }
}

/// libmicrohttpd's daemon with a Swift handler. The daemon's polling thread
/// reads bodies (bounded by `HTTPTransport`, one by one and in total), the
/// transport closes slow senders, and `quick` requests (health, metrics,
/// refusals) are answered on the daemon's thread, so they never wait for a
/// thread of the cooperative pool; other requests run as tasks while their
/// connection is suspended. A backstop on a queue of its own answers 504 if a
/// task has not answered in time, even when CPU-bound work holds every thread
/// of the pool.
final class HTTPServer: @unchecked Sendable {
    typealias Quick = @Sendable (HTTPRequest) -> HTTPResponse?
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private var daemon: OpaquePointer?
    private var transport: HTTPTransport!
    private let quick: Quick
    private let handler: Handler
    private let backstop: Double
    private let late: @Sendable () -> HTTPResponse

    /// `backstop`: seconds after which a request still unanswered gets `late()`.
    init(host: String, port: Int, limits: TransportLimits, backstop: Double, late: @escaping @Sendable () -> HTTPResponse,
         quick: @escaping Quick, handler: @escaping Handler) throws {
        self.quick = quick
        self.handler = handler
        self.backstop = backstop
        self.late = late
        transport = HTTPTransport(limits: limits) { [unowned self] in self.dispatch($0) }
        guard HTTPServer.isAddress(host) else { throw VeilError.invalidArgument("--host must be an IPv4 or IPv6 address, not '\(host)'") }
        var failure: Int32 = 0
        daemon = veil_httpd_start(host, UInt16(port), limits.daemon, transport.callbacks, &failure)
        guard daemon != nil else { throw VeilError.unavailable("cannot listen on \(host) port \(port): \(Self.why(failure))") }
        transport.startReaper()
    }

    /// What `veil_httpd_start`'s failure means for the user.
    static func why(_ failure: Int32) -> String {
        switch Int(failure) {
        case VEIL_HTTPD_BAD_ADDRESS: "not an IPv4 or IPv6 address"
        case VEIL_HTTPD_NO_MEMORY: "out of memory"
        default: "in use, or not an address of this machine"
        }
    }

    /// Whether `host` is an address to bind (a name is not looked up: the server listens where it is told).
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The port actually bound (useful with --port 0).
    var port: Int { daemon.map { Int(veil_httpd_port($0)) } ?? 0 }

    /// Stops accepting connections; requests under way are still answered.
    func quiesce() {
        if let daemon { veil_httpd_quiesce(daemon) }
    }

    /// The transport's counters (slow senders closed, evicted, over budget).
    var stats: TransportStats { transport.stats }

    /// Answers what is still waiting with 503, then closes every connection.
    func stop() {
        guard let daemon else { return }
        transport.stopping()
        veil_httpd_stop(daemon)
        self.daemon = nil
    }

    /// A connection waiting for its one answer.
    private struct Pending: @unchecked Sendable {
        let transport: HTTPTransport
        let request: HTTPTransport.Request
        func send(_ response: HTTPResponse) { transport.respond(request, response) }
    }

    private func dispatch(_ request: HTTPTransport.Request) {
        let body = request.body
        request.body = Data()
        let parsed = HTTPRequest(
            method: request.method,
            path: request.path,
            headers: Dictionary(transport.pairs(request, kind: .HEADER_KIND).map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a }),
            query: Dictionary(transport.pairs(request, kind: .GET_ARGUMENT_KIND), uniquingKeysWith: { _, b in b }),
            body: body,
            refused: request.refused)
        let pending = Pending(transport: transport, request: request)
        if let answer = quick(parsed) {
            pending.send(answer)
            return
        }
        // Exactly one answer: the handler's, or the backstop's. The backstop's
        // closure lives `backstop` seconds whatever happens, so it holds the
        // connection and the task only through a box that lets them go once
        // the handler has answered.
        let handler = self.handler, late = self.late
        let running = TaskBox()
        let answer = Handoff((pending, running))
        running.task = Task {
            let response = await handler(parsed)
            answer.take()?.0.send(response)
        }
        deadlineQueue.asyncAfter(deadline: .now() + backstop) {
            guard let (pending, running) = answer.take() else { return }
            running.cancel()
            pending.send(late())
        }
    }
}
