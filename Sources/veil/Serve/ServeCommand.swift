import CMicroHTTPDShim
import Foundation
import VeilKit

/// `veil serve`: the HTTP API and the web editor, until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, valued: ["--host", "--port", "--token", "--max-body", "--max-pixels", "--concurrency", "--timeout", "--state-dir"],
                                 switches: [])
        guard args.positionals.isEmpty else { throw UsageError("veil serve takes no positional arguments") }
        var config = ServeConfig(stateDir: VeilHome.default.url.appendingPathComponent("serve-states"))
        if let host = args.value("--host") { config.host = host == "localhost" ? "127.0.0.1" : host }
        if let port = try args.int("--port", in: 0...65535) { config.port = port }
        config.token = args.value("--token")
        if let t = config.token, t.isEmpty || t.contains(where: { $0.isWhitespace }) { throw UsageError("--token must be a non-empty word") }
        if !config.isLoopback && config.token == nil {
            throw UsageError("--host \(config.host) is not loopback: give --token so every /v1 request must carry it")
        }
        if let v = args.value("--max-body") { config.maxBody = try ServeConfig.size(v, option: "--max-body") }
        if let v = args.value("--max-pixels") { config.maxPixels = try ServeConfig.size(v, option: "--max-pixels") }
        if let n = try args.int("--concurrency", in: 1...256) { config.concurrency = n }
        if let v = args.value("--timeout") { config.timeout = try ServeConfig.duration(v, option: "--timeout") }
        if let dir = args.value("--state-dir") { config.stateDir = URL(fileURLWithPath: dir, isDirectory: true) }
        do { try FileManager.default.createDirectory(at: config.stateDir, withIntermediateDirectories: true) } catch {
            throw VeilError.unwritable(path: config.stateDir.path, reason: "cannot create the state folder")
        }

        // Signals are caught before the URL is printed: a supervisor may stop us at once.
        let stop = SignalWaiter()
        let service = Service(config)
        let server = try HTTPServer(host: config.host, port: config.port, maxBody: config.maxBody,
                                    connectionLimit: max(64, config.concurrency * 8), idleTimeout: Int(max(config.timeout * 2, 10)),
                                    handler: { await service.handle($0) })
        let shown = config.host.contains(":") ? "[\(config.host)]" : config.host
        // Written straight to the descriptor: a script waiting for the URL sees it at once.
        let line = "veil serve: listening on http://\(shown):\(server.port)/ (concurrency \(config.concurrency), max body \(config.maxBody) bytes, timeout \(config.timeout) s, states in \(config.stateDir.path))\n"
        FileHandle.standardOutput.write(Data(line.utf8))

        let stopped = await stop.wait()
        // Drain: no new connections, requests under way answered (bounded by --timeout).
        server.quiesce()
        let deadline = Date().addingTimeInterval(config.timeout + 1)
        while service.metrics.current > 0 && Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        // An answered request may still be on its way out: let its bytes leave
        // before the daemon closes every connection.
        while server.openConnections > 0 && Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        server.stop()
        printError("veil serve: stopped (\(stopped))")
        return 0
    }

}

/// Catches SIGINT and SIGTERM from its creation on (a process-wide handler
/// writing to a pipe, read by a thread of its own); `wait` returns the first one's name.
final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var caught: String?
    private var continuation: CheckedContinuation<String, Never>?

    init() {
        let fd = veil_httpd_signal_pipe()
        guard fd >= 0 else { return }
        Thread.detachNewThread { [self] in
            var byte: UInt8 = 0
            while read(fd, &byte, 1) != 1 {}
            deliver(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    private func deliver(_ name: String) {
        let waiting: CheckedContinuation<String, Never>? = lock.withLock {
            if caught != nil { return nil }
            caught = name
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: name)
    }

    func wait() async -> String {
        await withCheckedContinuation { c in
            let already: String? = lock.withLock {
                if let caught { return caught }
                continuation = c
                return nil
            }
            if let already { c.resume(returning: already) }
        }
    }
}
