import Foundation
import VeilServe
import VeilVocabulary

/// `veil serve`'s options, each one line: where it listens, the token, the
/// folders, the live sources, and its limits.
struct ServeOptions: ParsableOptions {
    var host: String?, port: Int?, token: String?, stateDir: String?, media: String?, live: [LiveSourceSpec] = []
    var maxBody: Int?, maxPixels: Int?, bodyBudget: Int?, concurrency: Int?, timeout: Double?, httpThreads: Int?

    static var options: [Option<Self>] {
        let d = ServeConfig(stateDir: URL(fileURLWithPath: "/"))
        return [
            .text("host", "ADDRESS", \.host, .server, "the address to listen on", default: d.host, sample: "127.0.0.1"),
            .int("port", "N", \.port, in: 0...65535, .server, "the port (0 picks a free one; the URL is printed)", default: "\(d.port)", sample: "0"),
            .text("token", "T", \.token, .server, "the bearer token requests must carry (needed off loopback)", sample: "secret"),
            .text("state-dir", "DIR", \.stateDir, .server, "where editing states are kept, by the photo's sha256",
                  default: "$VEIL_HOME/serve-states", kind: .directory, sample: "states"),
            .text("media", "DIR", \.media, .server, "the folder whose videos the editor's Video tab lists, plays and covers (by name only)",
                  kind: .directory, sample: "videos"),
            .list("live", "NAME=SOURCE", \.live, .server,
                  "a stream URL or camera (SOURCE@FORMAT) the Live tab shows covered, at GET /v1/live/NAME; repeatable",
                  sample: "cam=udp://127.0.0.1:5000") { text, _ in try ServeConfig.live(text) },
            .parsed("max-body", "SIZE", \.maxBody, .limits, "refuse a larger request body (413)", default: bytes(d.maxBody), sample: "10MB",
                    parse: ServeConfig.size),
            .parsed("max-pixels", "N", \.maxPixels, .limits, "refuse a larger image, from its header (413)", default: count(d.maxPixels), sample: "50M",
                    parse: ServeConfig.size),
            .parsed("body-budget", "SIZE", \.bodyBudget, .limits, "bodies in flight together; past it, 503", default: "4 x --max-body",
                    sample: "100MB", parse: ServeConfig.size),
            .int("concurrency", "N", \.concurrency, in: 1...256, .limits,
                 "requests working at once (4x as many wait their turn, up to --timeout; the rest get 503)", default: "the cores", sample: "2"),
            .parsed("timeout", "DURATION", \.timeout, .limits, "a request's deadline (504, its work cancelled)",
                    default: String(format: "%g", d.timeout) + "s", sample: "10s", parse: ServeConfig.duration),
            .int("http-threads", "N", \.httpThreads, in: 1...16, .performance, "libmicrohttpd's polling threads (it only moves bytes)",
                 default: "\(d.httpThreads)", sample: "2"),
        ]
    }

    /// 50000000 → `50MB`, as `--max-body` is written.
    static func bytes(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)MB" : "\(n)" }
    /// 100000000 → `100M`.
    static func count(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)" }
}
