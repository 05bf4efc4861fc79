import Foundation
import VeilKit
import VeilServe
import VeilVocabulary

/// `veil serve`: the HTTP API and the web editor, until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        guard args.positionals.isEmpty else { throw InputError("veil serve takes no positional arguments") }
        var config = ServeConfig(stateDir: VeilHome.default.url.appendingPathComponent("serve-states"))
        if let host = args.value("--host") { config.host = host == "localhost" ? "127.0.0.1" : host }
        if let port = try args.int("--port", in: 0...65535) { config.port = port }
        config.token = args.value("--token")
        if let t = config.token, t.isEmpty || t.contains(where: { $0.isWhitespace }) { throw InputError("--token must be a non-empty word") }
        if !config.isLoopback && config.token == nil {
            throw InputError("--host \(config.host) is not loopback: give --token so every /v1 request must carry it")
        }
        if let v = args.value("--max-body") { config.maxBody = try ServeConfig.size(v, option: "--max-body") }
        if let v = args.value("--max-pixels") { config.maxPixels = try ServeConfig.size(v, option: "--max-pixels") }
        if let n = try args.int("--concurrency", in: 1...256) { config.concurrency = n }
        if let v = args.value("--timeout") { config.timeout = try ServeConfig.duration(v, option: "--timeout") }
        if let v = args.value("--body-budget") { config.bodyBudget = try ServeConfig.size(v, option: "--body-budget") }
        if let n = try args.int("--http-threads", in: 1...16) { config.httpThreads = n }
        if let dir = args.value("--media") {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { throw InputError("--media \(dir) is not a folder") }
            config.media = URL(fileURLWithPath: dir, isDirectory: true)
        }
        config.live = try args.values("--live").map(ServeConfig.live)
        guard Set(config.live.map(\.name)).count == config.live.count else { throw InputError("--live: each NAME may be given once") }
        if let dir = args.value("--state-dir") { config.stateDir = URL(fileURLWithPath: dir, isDirectory: true) }
        let stopped = try await HTTPService.run(config) { line in
            // Written straight to the descriptor: a script waiting for the URL sees it at once.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        printError("veil serve: stopped (\(stopped))")
        return ExitCode.ok.rawValue
    }
}
