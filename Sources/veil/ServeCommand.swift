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
        let given = try ServeOptions(args)
        if let host = given.host { config.host = host == "localhost" ? "127.0.0.1" : host }
        if let port = given.port { config.port = port }
        config.token = given.token
        if let t = config.token, t.isEmpty || t.contains(where: { $0.isWhitespace }) { throw InputError("--token must be a non-empty word") }
        if !config.isLoopback && config.token == nil {
            throw InputError("--host \(config.host) is not loopback: give --token so every /v1 request must carry it")
        }
        if let v = given.maxBody { config.maxBody = v }
        if let v = given.maxPixels { config.maxPixels = v }
        if let n = given.concurrency { config.concurrency = n }
        if let v = given.timeout { config.timeout = v }
        if let v = given.bodyBudget { config.bodyBudget = v }
        if let n = given.httpThreads { config.httpThreads = n }
        if let dir = given.media {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { throw InputError("--media \(dir) is not a folder") }
            config.media = URL(fileURLWithPath: dir, isDirectory: true)
        }
        config.live = given.live
        guard Set(config.live.map(\.name)).count == config.live.count else { throw InputError("--live: each NAME may be given once") }
        if let dir = given.stateDir { config.stateDir = URL(fileURLWithPath: dir, isDirectory: true) }
        let stopped = try await HTTPService.run(config) { line in
            // Written straight to the descriptor: a script waiting for the URL sees it at once.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        printError("veil serve: stopped (\(stopped))")
        return ExitCode.ok.rawValue
    }
}
