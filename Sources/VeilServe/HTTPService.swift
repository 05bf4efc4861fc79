import CMicroHTTPDShim
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

        try ImageDecoder.prepare()
        // Signals are caught before the URL is printed: a supervisor may stop us at once.
        let stop = TerminationSignals()
        let service = Service(config)
        let server = try HTTPServer(host: config.host, port: config.port, limits: config.transportLimits,
                                    backstop: config.queueWait + config.timeout + 1, late: { service.late() },
                                    quick: { service.immediate($0) }, handler: { await service.handle($0) })
        service.metrics.setTransport { [weak server] in
            guard let s = server?.stats else { return [] }
            return [("slow_closed", s.slow_closed), ("evicted", s.evicted), ("over_budget", s.over_budget), ("body_bytes", s.body_bytes)]
        }
        let shown = config.host.contains(":") ? "[\(config.host)]" : config.host
        announce("veil serve: listening on http://\(shown):\(server.port)/ (concurrency \(config.concurrency), max body \(config.maxBody) bytes, timeout \(config.timeout) s, states in \(config.stateDir.path))")

        // The stop runs on the signal's own thread, not in the cooperative
        // pool, which CPU-bound work may be holding.
        let stopped = await stop.wait { name in
            // Drain: no new connections, requests under way answered (bounded by --timeout).
            server.quiesce()
            let deadline = Date().addingTimeInterval(config.queueWait + config.timeout + 1)
            while server.stats.awaiting > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            // Live streams end (their connections resume and close), then what
            // is still waiting is answered 503 and every connection closed.
            service.live.end()
            server.stop()
            // Only work that ignores cancellation could now keep the cooperative
            // pool (and so the process) from ending: give it 5 s, then leave.
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 5)
                FileHandle.standardError.write(Data("veil serve: stopped (\(name)); work that did not stop was abandoned\n".utf8))
                _exit(0)
            }
        }
        return stopped
    }
}

extension ServeConfig {
    var transportLimits: TransportLimits {
        TransportLimits(maxBody: maxBody, bodyBudget: effectiveBodyBudget,
                        headerTimeout: Double(UInt32(headerTimeout.rounded(.up))), bodyTimeout: Double(UInt32(bodyTimeout.rounded(.up))),
                        maxUnheadered: maxUnheadered,
                        daemon: veil_httpd_options(connection_limit: UInt32(connectionLimit), per_ip_limit: UInt32(effectivePerAddressLimit),
                                                   idle_timeout: UInt32(max(timeout * 2, 10)), threads: UInt32(httpThreads)))
    }
}
