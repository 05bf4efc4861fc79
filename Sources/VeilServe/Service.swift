import Foundation
import VeilKit
import VeilVocabulary

/// The routes: authentication, limits, timing and metrics round the work
/// done by the route files (AnalysisRoute for faces and text, BlurRoute, LiftRoute). Callable
/// without a socket: `handle` is the whole service, tested in process.
final class Service: Sendable {
    let config: ServeConfig
    let metrics = Metrics()
    let gate: Gate
    let states: StateStore
    /// The Video tab's renders (nil without --media).
    let videos: VideoJobs?
    /// The Live tab's sources (--live).
    let live: LiveHub

    init(_ config: ServeConfig) {
        self.config = config
        // Waiting costs a connection and the body the transport already holds (its budget bounds them):
        // the queue is as deep as the slots' measured turns allow within --timeout (`Gate`), at most 64 a slot.
        gate = Gate(limit: config.concurrency, maxWaiting: config.concurrency * 64)
        states = StateStore(directory: config.stateDir)
        live = LiveHub(config.live, pictures: PictureStore(directory: config.stateDir.appendingPathComponent("pictures")))
        videos = config.media.map { VideoJobs(media: MediaFolder(directory: $0, outputs: config.stateDir.appendingPathComponent("videos"))) }
    }

    /// Any request: answered at once when it needs no work slot, else after its work.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if let answer = immediate(request) { return answer }
        return await measured(request) { await self.work(request) }
    }

    /// The answer to a request that needs no work slot — health, metrics, the
    /// editor, a saved state, refusals — computed on the caller's thread (the
    /// daemon's), so it never queues behind work; nil for the work routes.
    func immediate(_ request: HTTPRequest) -> HTTPResponse? {
        let start = Uptime.now()
        metrics.started()
        guard let response = quickRoute(request) else {
            metrics.cancelled()
            return nil
        }
        metrics.finished(route: Service.label(request.path), status: response.status, since: start)
        return response
    }

    /// The answer when a task did not answer in time (the transport's backstop).
    func late() -> HTTPResponse {
        metrics.rejected("timeout")
        return .error(504, "the request took longer than \(config.timeout) s (--timeout)")
    }

    private func measured(_ request: HTTPRequest, _ body: () async -> HTTPResponse) async -> HTTPResponse {
        let start = Uptime.now()
        metrics.started()
        let response = await body()
        metrics.finished(route: Service.label(request.path), status: response.status, since: start)
        return response
    }

    /// A route that takes a work slot: its path and what runs it. The one
    /// table of them: `label`, the 404 and 405 answers and `work` read it.
    struct WorkRoute: Sendable {
        let path: String
        let run: @Sendable (Service, Upload) async throws -> HTTPResponse
    }

    static let workRoutes: [WorkRoute] = [
        WorkRoute(path: "/v1/faces") { service, upload in try await FacesRoute.run(upload, service.config) },
        WorkRoute(path: "/v1/text") { service, upload in try await TextRoute.run(upload, service.config) },
        WorkRoute(path: "/v1/blur") { service, upload in try await BlurRoute.run(upload, service.config, service.states, service.live.pictures) },
        WorkRoute(path: "/v1/lift") { service, upload in try await LiftRoute.run(upload, service.config) },
        WorkRoute(path: RembgRoute.path) { service, upload in try await RembgRoute.run(upload, service.config) },
    ]

    /// A route answered without a work slot, on the daemon's thread: a set
    /// of paths or every path under a prefix, whether it is open without the
    /// token, and its answer. The one table of them: `label`, the token check,
    /// the 404s and `quickRoute` read it.
    struct QuickRoute: Sendable {
        enum Match: Sendable {
            case paths([String])
            case prefix(String)
        }

        let match: Match
        /// Open without the token: `/healthz` (a supervisor's probe) and `/`
        /// (the editor's static page, which asks for the token itself).
        let open: Bool
        /// A `<video>` or an `<img>` cannot send a header: its GETs may carry `?token=`.
        var tokenInQuery = false
        let answer: @Sendable (Service, HTTPRequest) -> HTTPResponse

        func matches(_ path: String) -> Bool {
            switch match {
            case let .paths(paths): return paths.contains(path)
            case let .prefix(prefix): return path == prefix || path.hasPrefix(prefix + "/")
            }
        }

        /// The route's metrics label: its first path, or its prefix.
        var label: String {
            switch match {
            case let .paths(paths): return paths[0]
            case let .prefix(prefix): return prefix
            }
        }

        /// `answer` for GET; for any other method 405, or on an open route 404
        /// (the page and the probe exist only as GETs to a client without the token).
        static func get(_ match: Match, open: Bool = false, _ answer: @escaping @Sendable (Service, HTTPRequest) -> HTTPResponse) -> QuickRoute {
            QuickRoute(match: match, open: open) { service, request in
                guard request.method == "GET" else {
                    return open ? .error(404, "no such route: \(request.path)")
                        : HTTPResponse.error(405, "\(request.path) takes GET").with(("Allow", "GET"))
                }
                return answer(service, request)
            }
        }
    }

    static let quickRoutes: [QuickRoute] = [
        .get(.paths(["/", "/index.html"]), open: true) { _, _ in
            HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(WebEditor.page.utf8), headers: [("Cache-Control", "no-store")])
        },
        .get(.paths(["/healthz"]), open: true) { _, _ in .json(200, .object([("status", .string("ok"))])) },
        // `/metrics` tells request counts: it wants the token.
        .get(.paths(["/metrics"])) { service, _ in
            HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Data((service.metrics.text + service.live.metrics).utf8))
        },
        // Only by the handle a kept state was given, with the token it was made with; never by a photo's sha256.
        .get(.prefix("/v1/state")) { service, request in
            let handle = String(request.path.dropFirst("/v1/state/".count))
            guard let state = service.states.load(handle: handle, owner: StateStore.owner(token: service.config.token)),
                  let json = try? state.encoded() else {
                return .error(404, "no state is kept under that handle")
            }
            return HTTPResponse(status: 200, contentType: "application/json", body: json)
        },
        QuickRoute(match: .prefix(VideoRoutes.prefix), open: false, tokenInQuery: true) { service, request in VideoRoutes.answer(request, service.videos) },
        QuickRoute(match: .prefix(LiveHub.prefix), open: false, tokenInQuery: true) { service, request in
            service.live.answer(request, maxPixels: service.config.maxPixels)
        },
    ]

    /// A bounded set of route labels, whatever paths clients send.
    static func label(_ path: String) -> String {
        if let route = quickRoutes.first(where: { $0.matches(path) }) { return route.label }
        return workRoutes.contains { $0.path == path } ? path : "other"
    }

    /// The refusals of the transport (a body over the limit or the budget),
    /// then the quick routes, the token, and the work routes' method; nil
    /// when a work route is to run.
    private func quickRoute(_ request: HTTPRequest) -> HTTPResponse? {
        switch request.refused {
        case 413:
            metrics.rejected("too_large")
            return .error(413, "the body is over the limit of \(config.maxBody) bytes (--max-body)")
        case 503:
            metrics.rejected("over_budget")
            return HTTPResponse.error(503, "busy: bodies in flight are over the server's budget of \(config.effectiveBodyBudget) bytes; retry shortly")
                .with(("Retry-After", "1"))
        default: break
        }
        let route = Service.quickRoutes.first { $0.matches(request.path) }
        let work = Service.workRoutes.first { $0.path == request.path }
        // Under /v1/ even a path that is no route wants the token first: the routes are not told to strangers.
        guard route != nil || work != nil || request.path.hasPrefix("/v1/") else { return .error(404, "no such route: \(request.path)") }
        if route?.open != true {
            let given = request.header("authorization")
                ?? (route?.tokenInQuery == true && request.method == "GET" ? request.query["token"].map { "Bearer " + $0 } : nil)
            if let token = config.token, !Service.authorized(given, token: token) {
                metrics.rejected("unauthorized")
                return HTTPResponse.error(401, "missing or wrong bearer token").with(("WWW-Authenticate", "Bearer"))
            }
        }
        if let route { return route.answer(self, request) }
        guard work != nil else { return .error(404, "no such route: \(request.path)") }
        if request.path == RembgRoute.path, request.method == "GET" { return RembgRoute.refusal }
        guard request.method == "POST" else { return HTTPResponse.error(405, "\(request.path) takes POST").with(("Allow", "POST")) }
        return nil
    }

    /// A work route: parse the upload, take a slot (or 503), run within --timeout.
    private func work(_ request: HTTPRequest) async -> HTTPResponse {
        // `immediate` answered every path but these.
        guard let route = Service.workRoutes.first(where: { $0.path == request.path }) else { return .error(404, "no such route: \(request.path)") }
        let upload: Upload
        do { upload = try Upload(request) } catch { return Service.answer(error) }

        guard await gate.acquire(wait: config.queueWait) else {
            metrics.rejected("busy")
            // When to come back: once the queue before it has shrunk to what a wait can serve.
            let retry = max(1, Int(((await gate.expectedWait() ?? 1) - config.queueWait).rounded(.up)))
            return HTTPResponse.error(503, "busy: \(config.concurrency) requests in flight (--concurrency) and more waiting than --timeout can serve; retry in \(retry) s")
                .with(("Retry-After", "\(retry)"))
        }
        let gate = self.gate
        let started = Date()
        let answer = await withDeadline(config.timeout) {
            // The slot is released when the work has really stopped, not at the deadline.
            defer { let held = Date().timeIntervalSince(started); Task { await gate.release(heldFor: held) } }
            do { return try await route.run(self, upload) } catch { return Service.answer(error) }
        }
        guard let answer else { return late() }
        return answer
    }

    /// Constant-time comparison of `Authorization: Bearer T`.
    static func authorized(_ header: String?, token: String) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.dropFirst(7).utf8), wanted = Array(token.utf8)
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Errors as statuses: the client's mistakes 400, too large 413, the rest 500.
    static func answer(_ error: Error) -> HTTPResponse {
        switch error {
        case let e as VeilError:
            switch e {
            case .undecodable, .invalidInput, .unreadable: return .error(400, e.description)
            case .tooLarge: return .error(413, e.description)
            case .missingAsset: return .error(503, e.description)
            default: return .error(500, e.description)
            }
        case let e as InputError: return .error(400, e.description)
        case let e as NotFound: return .error(404, e.message)
        case is CancellationError: return .error(504, "cancelled: the request ran out of time")
        default: return .error(500, "\(error)")
        }
    }
}

/// A request that names something the service does not have (a kept state's handle): a 404.
struct NotFound: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension HTTPResponse {
    func with(_ header: (String, String)) -> HTTPResponse {
        var copy = self
        copy.headers.append(header)
        return copy
    }
}
