import Foundation
import VeilServe

extension ServeCommand {
    static let definition: CommandSpec = {
        let d = ServeConfig(stateDir: URL(fileURLWithPath: "/"))
        return CommandSpec(
            path: ["serve"], arguments: "",
            summary: "the HTTP API (POST /v1/faces, /v1/blur, /v1/lift) and the web editor at /, until SIGINT or SIGTERM",
            details: ["A host other than loopback needs --token: every /v1 request and /metrics must then carry "
                      + "`Authorization: Bearer T`. Sizes take kB, MB, GB (or K, M, G); durations s or ms."],
            options: [
                .valued("--host", "ADDRESS", .server, "the address to listen on", default: d.host, sample: "127.0.0.1"),
                .valued("--port", "N", .server, "the port (0 picks a free one; the URL is printed)", default: "\(d.port)", sample: "0"),
                .valued("--token", "T", .server, "the bearer token requests must carry (needed off loopback)", sample: "secret"),
                .valued("--state-dir", "DIR", .server, "where editing states are kept, by the photo's sha256",
                        default: "$VEIL_HOME/serve-states", kind: .directory, sample: "states"),
                .valued("--media", "DIR", .server, "the folder whose videos the editor's Video tab lists, plays and covers (by name only)",
                        kind: .directory, sample: "videos"),
                .valued("--live", "NAME=SOURCE", .server, "a stream URL or camera (SOURCE@FORMAT) the Live tab shows covered, at GET /v1/live/NAME; repeatable",
                        sample: "cam=udp://127.0.0.1:5000"),
                .valued("--max-body", "SIZE", .limits, "refuse a larger request body (413)", default: bytes(d.maxBody), sample: "10MB"),
                .valued("--max-pixels", "N", .limits, "refuse a larger image, from its header (413)", default: count(d.maxPixels), sample: "50M"),
                .valued("--body-budget", "SIZE", .limits, "bodies in flight together; past it, 503", default: "4 x --max-body", sample: "100MB"),
                .valued("--concurrency", "N", .limits, "requests working at once (4x as many wait their turn, up to --timeout; the rest get 503)",
                        default: "the cores", sample: "2"),
                .valued("--timeout", "DURATION", .limits, "a request's deadline (504, its work cancelled)",
                        default: OptionSpec.number(d.timeout) + "s", sample: "10s"),
                .valued("--http-threads", "N", .performance, "libmicrohttpd's polling threads (it only moves bytes)",
                        default: "\(d.httpThreads)", sample: "2"),
            ])
            .runs { try await run($0) }
            .examples(.init("veil serve", "the API and the editor on http://127.0.0.1:8080/"),
                      .init("veil serve --host 0.0.0.0 --token \"$TOKEN\" --media videos/", "for a network: every /v1 request needs the token; the Video tab edits videos/"),
                      .init("curl --data-binary @photo.jpg http://127.0.0.1:8080/v1/blur -o covered.jpg", "a photo covered over HTTP"))
    }()

    /// 50000000 → `50MB`, as `--max-body` is written.
    static func bytes(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)MB" : "\(n)" }
    /// 100000000 → `100M`.
    static func count(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)" }
}
