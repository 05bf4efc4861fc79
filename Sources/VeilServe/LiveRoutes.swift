import Foundation
import VeilKit
import VeilVocabulary

/// The Live tab over `--live NAME=SOURCE`:
///
/// - `GET /v1/live`: `{"live":[{"name","status","width","height","viewers","covered","shown","dropped","p50","p99"}]}`
/// - `GET /v1/live/NAME`: the source covered as it arrives, MJPEG
///   (`multipart/x-mixed-replace`, one JPEG a frame): an `<img>` shows it
/// - `POST /v1/live/NAME/style`: `style` (`pixelate[=S]`, `blur[=S]`,
///   `solid=#RRGGBB`, or `image` with the picture as a form part named
///   `picture`) and `shape`, for every viewer from the next frame on
///
/// Frame-in to frame-shown latency (decoded → its last byte handed to the
/// viewer's connection) is in `/metrics` as `veil_live_latency_seconds`.
final class LiveHub: Sendable {
    static let prefix = "/v1/live"
    let channels: [String: LiveChannel]
    let pictures: PictureStore

    init(_ specs: [LiveSourceSpec], pictures: PictureStore) {
        channels = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, LiveChannel($0)) })
        self.pictures = pictures
    }

    func answer(_ request: HTTPRequest, maxPixels: Int) -> HTTPResponse {
        let rest = request.path.dropFirst(LiveHub.prefix.count)
        if rest.isEmpty || rest == "/" {
            guard request.method == "GET" else { return HTTPResponse.error(405, "\(LiveHub.prefix) takes GET").with(("Allow", "GET")) }
            return .json(200, .object([("live", .array(channels.keys.sorted().map { describe(channels[$0]!) }))]))
        }
        let words = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard words.count <= 2, let channel = channels[words[0]] else {
            return .error(404, "no live source named '\(words.first ?? "")' (veil serve --live NAME=SOURCE)")
        }
        switch (request.method, words.count == 2 ? words[1] : "") {
        case ("GET", ""):
            var answer = HTTPResponse(status: 200, contentType: "multipart/x-mixed-replace; boundary=\(LiveViewer.boundary)", body: Data(),
                                      headers: [("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")])
            answer.source = .stream(channel.subscribe())
            return answer
        case ("POST", "style"):
            do {
                let fields = try FormFields(request)
                let shape = try CoverOptions.read(\.shape, from: fields)
                let style: CoverStyle
                if fields.value("style") == "image" {
                    guard let part = fields.parts["picture"] else { throw InputError("style=image needs the picture as a form part named 'picture'") }
                    style = try pictures.style(for: part, maxPixels: maxPixels)
                } else {
                    guard let given = try CoverOptions(fields, allowingFiles: false).style else { throw InputError("give a style") }
                    style = given
                }
                try fields.refuseUnknown()
                channel.coverSwitch.set(style: style, shape: shape)
                return .json(200, .object([("status", .string("ok"))]))
            } catch {
                return Service.answer(error)
            }
        case (_, "style"): return HTTPResponse.error(405, "\(request.path) takes POST").with(("Allow", "POST"))
        case (_, ""): return HTTPResponse.error(405, "\(request.path) takes GET").with(("Allow", "GET"))
        default: return .error(404, "no such route: \(request.path)")
        }
    }

    private func describe(_ c: LiveChannel) -> JSONText {
        let f = c.figures
        var fields: [(String, JSONText)] = [("name", .string(c.spec.name)), ("status", .string(c.status)), ("viewers", .int(f.viewers)),
                                            ("covered", .int(f.covered)), ("shown", .int(f.shown)), ("dropped", .int(f.dropped)),
                                            ("skippedDetections", .int(f.skipped))]
        if let size = c.size { fields += [("width", .int(size.width)), ("height", .int(size.height))] }
        if let p50 = f.p50, let p99 = f.p99 { fields += [("p50", .number(p50)), ("p99", .number(p99))] }
        return .object(fields)
    }

    /// Ends every stream (the server is stopping).
    func end() { for c in channels.values { c.end() } }

    /// Prometheus lines for /metrics.
    var metrics: String {
        guard !channels.isEmpty else { return "" }
        var out = "# HELP veil_live_latency_seconds Live view: a frame's decoding to its last byte handed to a viewer's connection (last 2000 frames shown).\n# TYPE veil_live_latency_seconds summary\n"
        var counts = "# HELP veil_live_frames_total Live view: frames covered, shown to viewers, and dropped (arrived while covering had not caught up).\n# TYPE veil_live_frames_total counter\n"
        var viewers = "# HELP veil_live_viewers Live view: viewers now.\n# TYPE veil_live_viewers gauge\n"
        for name in channels.keys.sorted() {
            let f = channels[name]!.figures
            for (q, v) in [("0.5", f.p50), ("0.99", f.p99)] { if let v { out += "veil_live_latency_seconds{source=\"\(name)\",quantile=\"\(q)\"} \(v)\n" } }
            out += "veil_live_latency_seconds_count{source=\"\(name)\"} \(f.shown)\n"
            counts += "veil_live_frames_total{source=\"\(name)\",stage=\"covered\"} \(f.covered)\nveil_live_frames_total{source=\"\(name)\",stage=\"shown\"} \(f.shown)\n"
                + "veil_live_frames_total{source=\"\(name)\",stage=\"dropped\"} \(f.dropped)\n"
            viewers += "veil_live_viewers{source=\"\(name)\"} \(f.viewers)\n"
        }
        return out + counts + viewers
    }
}
