import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import VeilVocabulary
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the transport enforces; every limit is in force from the first byte.
struct TransportLimits: Sendable {
    /// A body longer than this is refused with 413 (from Content-Length, or as
    /// soon as it grows past it).
    let maxBody: Int
    /// Bodies held by requests in flight, in total: past it, 503 (a declared
    /// length is reserved whole before a byte is read).
    let bodyBudget: Int
    /// Seconds a request may take to send its headers (from its connection or
    /// the end of its previous request), and then its body (0: no limit).
    let headerTimeout: Double, bodyTimeout: Double
    /// Connections still sending their headers at once: past it, the oldest
    /// of them is closed, so slow clients cannot hold every place (0: no limit).
    let maxUnheadered: Int
    /// What libmicrohttpd itself enforces: connections, per address, idle seconds, threads.
    let daemon: veil_httpd_options
}

/// Counters since the start: connections closed for sending their headers or
/// body too slowly, or evicted as the oldest unfinished; requests refused by
/// the body budget; bytes of bodies held now; requests waiting for their
/// handler's answer now.
struct TransportStats: Sendable {
    var slow_closed: UInt64 = 0, evicted: UInt64 = 0, over_budget: UInt64 = 0
    var body_bytes: UInt64 = 0, awaiting: UInt64 = 0
}

/// The request life cycle over libmicrohttpd's callbacks (forwarded by
/// CMicroHTTPDShim): each connection's phase (sending its headers, its body,
/// or waiting for its answer) and the closing of slow senders; the body read
/// up to --max-body and within the shared --body-budget; the handler called
/// once the body is complete (or refused), the connection suspended until its
/// one answer, and resumed with it; at the stop, 503 for what still waits.
///
/// One lock (a `Mutex` holding no value, as swift-nio's `NIOLock`: it guards
/// fields of the transport, of each `Connection` and of each `Request`
/// together) guards the bookkeeping. It is held only for list and counter
/// updates, and libmicrohttpd is called under it only from the daemon's own
/// thread (suspending), so it cannot deadlock with the daemon's locks.
final class HTTPTransport: @unchecked Sendable {
    /// Called on a daemon thread with a complete (or refused) request; must
    /// lead to exactly one `respond`, from any thread, possibly before it returns.
    typealias Dispatch = (Request) -> Void

    enum Phase { case headers, body, working }

    /// One per connection, so that slow senders can be found and closed:
    /// shutdown() makes the daemon read EOF and close.
    final class Connection {
        let fd: Int32
        var phase = Phase.headers
        var since: Double
        var shut = false
        init(fd: Int32, since: Double) { self.fd = fd; self.since = since }
    }

    enum Answer { case dispatching, suspended, answered }

    /// One request, from its headers to its answer.
    final class Request: @unchecked Sendable {
        let connection: OpaquePointer
        let tracked: Connection?
        let method: String
        let path: String
        var body = Data()
        var reserved = 0
        var discarded: UInt = 0
        /// 0; 413 when the body was over max_body; 503 when the body budget was spent.
        var refused = 0
        var dispatched = false
        // Guarded by the transport's lock:
        var answer = Answer.dispatching
        /// Held from the suspension until the answer resumes it (`answer == .suspended`).
        var suspended: SuspendedConnection?
        var closed = false
        var response: OpaquePointer?
        var status: UInt32 = 0

        init(connection: OpaquePointer, tracked: Connection?, method: String, path: String) {
            self.connection = connection; self.tracked = tracked; self.method = method; self.path = path
        }
        deinit { if let response { MHD_destroy_response(response) } }
    }

    let limits: TransportLimits
    private let dispatch: Dispatch
    private var connections: [ObjectIdentifier: Connection] = [:]
    private let lock = Mutex(())
    private var unheadered = 0
    private var waiting: [ObjectIdentifier: Request] = [:]
    private var counters = TransportStats()
    private var reaper: DispatchSourceTimer?

    init(limits: TransportLimits, dispatch: @escaping Dispatch) {
        self.limits = limits
        self.dispatch = dispatch
    }

    /// The callbacks for `veil_httpd_start`; `self` must outlive the daemon.
    var callbacks: veil_httpd_callbacks {
        veil_httpd_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            opened: { context, fd in HTTPTransport.from(context).opened(fd: fd) },
            closed: { context, connection in HTTPTransport.from(context).closed(connection) },
            access: { context, connection, tracked, url, method, upload, size, request in
                HTTPTransport.from(context).access(connection!, tracked, url, method, upload, size!, request!)
            },
            completed: { context, request in HTTPTransport.from(context).completed(request) })
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> HTTPTransport {
        Unmanaged<HTTPTransport>.fromOpaque(context!).takeUnretainedValue()
    }

    /// MHD_RESPMEM_MUST_COPY: the response copies the body.
    static let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    var stats: TransportStats {
        lock.withLock { _ in
            var stats = counters
            stats.awaiting = UInt64(waiting.values.filter { $0.answer == .suspended }.count)
            return stats
        }
    }

    /// Closes, every 250 ms, connections that send their headers or body too slowly.
    func startReaper() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "veil.http.reaper"))
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.reap() }
        reaper = timer
        timer.resume()
    }

    func reap(at time: Double = HTTPTransport.now()) {
        lock.withLock { _ in
            for c in connections.values where !c.shut {
                let limit = c.phase == .headers ? limits.headerTimeout : c.phase == .body ? limits.bodyTimeout : 0
                if limit > 0 && time - c.since > limit { shut(c); counters.slow_closed += 1 }
            }
        }
    }

    // MARK: - connection phases (lock held)

    private func setPhase(_ c: Connection?, _ phase: Phase) {
        guard let c else { return }
        if c.phase == .headers && !c.shut { unheadered -= 1 }
        c.phase = phase
        c.since = HTTPTransport.now()
        if c.phase == .headers && !c.shut { unheadered += 1 }
    }

    private func shut(_ c: Connection) {
        if c.shut { return }
        if c.phase == .headers { unheadered -= 1 }
        c.shut = true
        shutdown(c.fd, Int32(SHUT_RDWR))
    }

    private func opened(fd: Int32) -> UnsafeMutableRawPointer? {
        let c = Connection(fd: fd, since: HTTPTransport.now())
        lock.withLock { _ in
            connections[ObjectIdentifier(c)] = c
            if fd >= 0 { unheadered += 1 } else { c.shut = true }
            // Too many still sending their headers: the oldest makes room.
            if limits.maxUnheadered > 0 && unheadered > limits.maxUnheadered,
               let oldest = connections.values.filter({ $0.phase == .headers && !$0.shut }).min(by: { $0.since < $1.since }) {
                shut(oldest)
                counters.evicted += 1
            }
        }
        return Unmanaged.passRetained(c).toOpaque()
    }

    private func closed(_ context: UnsafeMutableRawPointer?) {
        guard let c: Connection = HTTPTransport.released(context) else { return }
        lock.withLock { _ in
            if c.phase == .headers && !c.shut { unheadered -= 1 }
            connections[ObjectIdentifier(c)] = nil
        }
    }

    /// The object a daemon's context held a reference to, that reference dropped.
    private static func released<T: AnyObject>(_ context: UnsafeMutableRawPointer?) -> T? {
        context.map { Unmanaged<T>.fromOpaque($0).takeRetainedValue() }
    }

    // MARK: - requests

    /// Reserves `more` bytes of the body budget; false when it is spent.
    private func reserve(_ r: Request, _ more: Int) -> Bool {
        lock.withLock { _ in
            let fits = Int(counters.body_bytes) + more <= limits.bodyBudget
            if fits { counters.body_bytes += UInt64(more); r.reserved += more } else { counters.over_budget += 1 }
            return fits
        }
    }

    private func refuse(_ r: Request, _ status: Int) {
        r.body = Data()
        r.refused = status
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private func access(_ connection: OpaquePointer, _ tracked: UnsafeMutableRawPointer?,
                        _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, _ upload: UnsafePointer<CChar>?,
                        _ size: UnsafeMutablePointer<Int>, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32 {
        let yes: Int32 = 1, no: Int32 = 0
        let r: Request
        if let existing = context.pointee {
            r = Unmanaged<Request>.fromOpaque(existing).takeUnretainedValue()
        } else {
            r = Request(connection: connection, tracked: tracked.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() },
                        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "")
            context.pointee = Unmanaged.passRetained(r).toOpaque()
            lock.withLock { _ in setPhase(r.tracked, .body) }
            // Refused before a byte of the body is read: no 100 Continue is sent,
            // and the connection closes after the answer.
            let length = header(connection, "Content-Length").map { strtoull($0, nil, 10) } ?? 0
            if length > UInt64(limits.maxBody) {
                r.refused = 413
            } else if length > 0 && !reserve(r, Int(length)) {
                // Over the budget: a client that asked to continue is answered now;
                // one already sending would lose the answer to a reset if the
                // connection closed under its body, so that body is read and
                // dropped (bandwidth, no memory) and the 503 follows it.
                r.refused = 503
                if header(connection, "Expect").map({ strcasecmp($0, "100-continue") != 0 }) ?? true { return yes }
            }
            if r.refused == 0 { return yes }
        }
        if size.pointee > 0 {
            let n = size.pointee
            size.pointee = 0
            if r.refused != 0 {
                // Grew past a limit without declaring its length: drop the rest,
                // and abort outright if the client keeps going far beyond it.
                r.discarded &+= UInt(n)
                return r.discarded > UInt(limits.maxBody) &* 4 &+ (1 << 20) ? no : yes
            }
            if r.body.count + n > limits.maxBody { refuse(r, 413); r.discarded = UInt(n); return yes }
            if r.body.count + n > r.reserved && !reserve(r, r.body.count + n - r.reserved) {
                refuse(r, 503); r.discarded = UInt(n); return yes
            }
            if let upload { r.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: n) }
            return yes
        }
        if !r.dispatched {
            r.dispatched = true
            lock.withLock { _ in
                setPhase(r.tracked, .working)
                r.answer = .dispatching
            }
            dispatch(r)
            // Answered already (a quick route, or a refusal): sent without suspending.
            let (answered, response, status) = lock.withLock { _ -> (Bool, OpaquePointer?, UInt32) in
                guard r.answer == .answered else {
                    r.suspended = SuspendedConnection.suspend(connection)
                    r.answer = .suspended
                    waiting[ObjectIdentifier(r)] = r
                    return (false, nil, 0)
                }
                defer { r.response = nil }
                return (true, r.response, r.status)
            }
            return answered ? queue(connection, response, status) : yes
        }
        // Resumed with the answer.
        let (response, status) = lock.withLock { _ -> (OpaquePointer?, UInt32) in
            defer { r.response = nil; waiting[ObjectIdentifier(r)] = nil }
            return (r.response, r.status)
        }
        return queue(connection, response, status)
    }

    private func completed(_ context: UnsafeMutableRawPointer?) {
        guard let r: Request = HTTPTransport.released(context) else { return }
        lock.withLock { _ in
            counters.body_bytes -= UInt64(r.reserved)
            r.reserved = 0
            r.closed = true
            waiting[ObjectIdentifier(r)] = nil
            // Keep-alive: the next request's headers are timed from now.
            setPhase(r.tracked, .headers)
        }
    }

    /// `{"error":"..."}`: the one shape of an error body, written by the one JSON writer.
    static func errorJSON(_ message: String) -> String { JSONText.object([("error", .string(message))]).rendered }

    private func queue(_ connection: OpaquePointer, _ response: OpaquePointer?, _ status: UInt32) -> Int32 {
        var response = response, status = status
        if response == nil {
            response = HTTPTransport.staticResponse(HTTPTransport.errorJSON("no response"), headers: [])
            status = 500
        }
        guard let response else { return 0 }
        let result = MHD_queue_response(connection, UInt32(status), response)
        MHD_destroy_response(response)
        return result == .YES ? 1 : 0
    }

    private static func staticResponse(_ json: String, headers: [(String, String)]) -> OpaquePointer? {
        let bytes = Array(json.utf8)
        guard let response = bytes.withUnsafeBytes({
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), HTTPTransport.mustCopy)
        }) else { return nil }
        MHD_add_response_header(response, "Content-Type", "application/json")
        for (name, value) in headers { MHD_add_response_header(response, name, value) }
        return response
    }

    /// Header (.HEADER_KIND) or query (.GET_ARGUMENT_KIND) pairs; only
    /// valid inside the dispatch call.
    func pairs(_ r: Request, kind: MHD_ValueKind) -> [(String, String)] {
        final class Box { var pairs: [(String, String)] = [] }
        let box = Box()
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values(r.connection, kind, { cls, _, key, value in
                let box = Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue()
                box.pairs.append((key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
                return .YES
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.pairs
    }

    /// Sends the answer (body copied) and resumes the connection, unless
    /// `stop` answered first. Thread-safe.
    func respond(_ r: Request, _ answer: HTTPResponse) {
        var response = build(answer, close: r.refused != 0, connection: r.connection)
        let suspended = lock.withLock { _ -> SuspendedConnection? in
            guard r.answer != .answered && !r.closed else { return nil }
            defer {
                r.response = response.pointer
                r.status = response.status
                r.answer = .answered
                response.pointer = nil
                r.suspended = nil
            }
            return r.answer == .suspended ? r.suspended : nil
        }
        // Lost to stop: nothing to send.
        if let pointer = response.pointer { MHD_destroy_response(pointer) }
        // Still suspended until this call, so the connection is still there.
        suspended?.resume()
    }

    private func build(_ answer: HTTPResponse, close: Bool, connection: OpaquePointer) -> (pointer: OpaquePointer?, status: UInt32) {
        let extra = answer.headers.map { "\($0.0): \($0.1)\n" }.joined()
        var status = UInt32(answer.status), contentType = answer.contentType, body = answer.body, lines = extra, source = answer.source
        if extra.utf8.count > VEIL_HTTPD_MAX_EXTRA_HEADERS {
            // Would not fit beside the request's headers: a plain error, never silence.
            status = 500
            contentType = "application/json"
            body = Data((HTTPTransport.errorJSON("the answer's headers are too large to send") + "\n").utf8)
            lines = ""
            source = nil
        }
        var created = source.flatMap { $0.response(connection: connection) }
        if source != nil && created == nil {
            // The file went away between the route and here.
            (status, contentType, body, lines) = (404, "application/json", Data((HTTPTransport.errorJSON("the file is gone") + "\n").utf8), "")
        }
        if created == nil { created = body.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), HTTPTransport.mustCopy)
        } }
        guard let response = created else { return (nil, status) }
        MHD_add_response_header(response, "Content-Type", contentType)
        if close { MHD_add_response_header(response, "Connection", "close") }
        for line in lines.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop { $0 == " " })
            MHD_add_response_header(response, name, value)
        }
        return (response, status)
    }

    /// Answers every request still waiting for its handler with 503 and
    /// resumes it (libmicrohttpd aborts when stopped with a connection still
    /// suspended), then lets those answers go (bounded). Handlers that answer
    /// later are ignored harmlessly.
    func stopping() {
        reaper?.cancel()
        let resume = lock.withLock { _ -> [SuspendedConnection] in
            var resume: [SuspendedConnection] = []
            for r in waiting.values where r.answer == .suspended {
                r.response = HTTPTransport.staticResponse(HTTPTransport.errorJSON("the server is stopping; retry shortly") + "\n",
                                                          headers: [("Connection", "close"), ("Retry-After", "1")])
                r.status = 503
                r.answer = .answered
                if let suspended = r.suspended { resume.append(suspended) }
                r.suspended = nil
            }
            return resume
        }
        for suspended in resume { suspended.resume() }
        // Let the daemon send those answers (it resumes them on its own thread).
        for _ in 0..<500 {
            let busy = lock.withLock { _ in !waiting.isEmpty || connections.values.contains { $0.phase == .working && !$0.shut } }
            if !busy { break }
            usleep(10_000)
        }
    }
}
