import Foundation
import VeilKit
import VeilVocabulary

/// The routes: authentication, limits, timing and metrics round the work
/// done by the route files (FacesRoute, BlurRoute, LiftRoute). Callable
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
        gate = Gate(limit: config.concurrency, maxWaiting: config.concurrency * 4)
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
        let start = DispatchTime.now().uptimeNanoseconds
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
        let start = DispatchTime.now().uptimeNanoseconds
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
        WorkRoute(path: "/v1/blur") { service, upload in try await BlurRoute.run(upload, service.config, service.states, service.live.pictures) },
        WorkRoute(path: "/v1/lift") { service, upload in try await LiftRoute.run(upload, service.config) },
        WorkRoute(path: RembgRoute.path) { service, upload in try await RembgRoute.run(upload, service.config) },
    ]

    /// The routes answered without a slot, by path, and those by the prefix of their paths.
    static let quickPaths = ["/", "/healthz", "/metrics"], quickPrefixes = ["/v1/state", VideoRoutes.prefix, LiveHub.prefix]

    /// A bounded set of route labels, whatever paths clients send.
    static func label(_ path: String) -> String {
        if let prefix = quickPrefixes.first(where: { path == $0 || path.hasPrefix($0 + "/") }) { return prefix }
        return quickPaths.contains(path) || workRoutes.contains { $0.path == path } ? path : "other"
    }

    /// Open without the token: `/healthz` (a supervisor's probe) and `/` (the
    /// editor's static page, which asks for the token itself). Everything
    /// else — `/metrics` included, which tells request counts — needs it.
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
        switch (request.method, request.path) {
        case ("GET", "/"), ("GET", "/index.html"):
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(WebEditor.page.utf8),
                                headers: [("Cache-Control", "no-store")])
        case ("GET", "/healthz"):
            return .json(200, .object([("status", .string("ok"))]))
        default: break
        }
        guard request.path == "/metrics" || request.path.hasPrefix("/v1/") || request.path == RembgRoute.path else {
            return .error(404, "no such route: \(request.path)")
        }
        // A <video> or an <img> cannot send a header: media and live GETs may carry ?token=.
        let mediaGet = request.method == "GET" && (request.path.hasPrefix(VideoRoutes.prefix + "/") || request.path.hasPrefix("/v1/live/"))
        let given = request.header("authorization") ?? (mediaGet ? request.query["token"].map { "Bearer " + $0 } : nil)
        if let token = config.token, !Service.authorized(given, token: token) {
            metrics.rejected("unauthorized")
            return HTTPResponse.error(401, "missing or wrong bearer token").with(("WWW-Authenticate", "Bearer"))
        }
        if request.path == "/metrics" {
            guard request.method == "GET" else { return HTTPResponse.error(405, "/metrics takes GET").with(("Allow", "GET")) }
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Data((metrics.text + live.metrics).utf8))
        }
        if request.path.hasPrefix("/v1/state/") {
            guard request.method == "GET" else { return HTTPResponse.error(405, "/v1/state takes GET").with(("Allow", "GET")) }
            // Only by the handle a kept state was given, with the token it was made with; never by a photo's sha256.
            let handle = String(request.path.dropFirst("/v1/state/".count))
            guard let state = states.load(handle: handle, owner: StateStore.owner(token: config.token)), let json = try? state.encoded() else {
                return .error(404, "no state is kept under that handle")
            }
            return HTTPResponse(status: 200, contentType: "application/json", body: json)
        }
        if request.path == VideoRoutes.prefix || request.path.hasPrefix(VideoRoutes.prefix + "/") { return VideoRoutes.answer(request, videos) }
        if request.path == LiveHub.prefix || request.path.hasPrefix(LiveHub.prefix + "/") { return live.answer(request, maxPixels: config.maxPixels) }
        guard Service.workRoutes.contains(where: { $0.path == request.path }) else { return .error(404, "no such route: \(request.path)") }
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
            return HTTPResponse.error(503, "busy: \(config.concurrency) requests in flight (--concurrency); retry shortly").with(("Retry-After", "1"))
        }
        let gate = self.gate
        let answer = await withDeadline(config.timeout) {
            // The slot is released when the work has really stopped, not at the deadline.
            defer { Task { await gate.release() } }
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
