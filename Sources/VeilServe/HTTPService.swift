import Foundation
import VeilKit

/// `veil serve` as a library call: the HTTP API and the web editor until
/// SIGINT or SIGTERM, then a drain (no new connections, requests under way
/// answered within --timeout) and a clean stop.
public enum HTTPService {
    /// Serves until a signal; `announce` gets the "listening on URL" line once
    /// the port is bound. Returns the name of the signal that stopped it.
    public static func run(_ config: ServeConfig, announce: (String) -> Void) async throws -> String {
        do { try FileManager.default.createDirectory(at: config.stateDir, withIntermediateDirectories: true) } catch {
            throw VeilError.unwritable(path: config.stateDir.path, reason: "cannot create the state folder")
        }

        // Signals are caught before the URL is printed: a supervisor may stop us at once.
        let stop = TerminationSignals()
        let service = Service(config)
        let server = try HTTPServer(host: config.host, port: config.port, maxBody: config.maxBody,
                                    connectionLimit: max(64, config.concurrency * 8), idleTimeout: Int(max(config.timeout * 2, 10)),
                                    handler: { await service.handle($0) })
        let shown = config.host.contains(":") ? "[\(config.host)]" : config.host
        announce("veil serve: listening on http://\(shown):\(server.port)/ (concurrency \(config.concurrency), max body \(config.maxBody) bytes, timeout \(config.timeout) s, states in \(config.stateDir.path))")

        let stopped = await stop.wait()
        // Drain: no new connections, requests under way answered (bounded by --timeout).
        server.quiesce()
        let deadline = Date().addingTimeInterval(config.timeout + 1)
        while service.metrics.current > 0 && Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        // An answered request may still be on its way out: let its bytes leave
        // before the daemon closes every connection.
        while server.openConnections > 0 && Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        server.stop()
        return stopped
    }
}
