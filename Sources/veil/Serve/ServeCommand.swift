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

        let service = Service(config)
        let server = try HTTPServer(host: config.host, port: config.port, maxBody: config.maxBody,
                                    connectionLimit: 512, idleTimeout: Int(max(config.timeout * 2, 10)),
                                    handler: { await service.handle($0) })
        let shown = config.host.contains(":") ? "[\(config.host)]" : config.host
        // Written straight to the descriptor: a script waiting for the URL sees it at once.
        let line = "veil serve: listening on http://\(shown):\(server.port)/ (concurrency \(config.concurrency), max body \(config.maxBody) bytes, timeout \(config.timeout) s, states in \(config.stateDir.path))\n"
        FileHandle.standardOutput.write(Data(line.utf8))

        let stopped = await waitForSignal()
        server.stop()
        printError("veil serve: stopped (\(stopped))")
        return 0
    }

    /// Suspends until SIGINT or SIGTERM; returns its name.
    static func waitForSignal() async -> String {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let once = Once<String>()
        return await withCheckedContinuation { continuation in
            var sources: [DispatchSourceSignal] = []
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.run { continuation.resume(returning: name) } }
                source.resume()
                sources.append(source)
            }
            Keep.sources = sources
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Keep { nonisolated(unsafe) static var sources: [DispatchSourceSignal] = [] }
}
