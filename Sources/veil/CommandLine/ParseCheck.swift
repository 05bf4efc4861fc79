import Foundation

/// The test hook behind `VEIL_PARSE_ONLY=1`: a command parses its words
/// through its definition, then stops before any work and main prints what
/// was parsed (exit 0). Tests walk the definitions with it and check that
/// every option a command lists is one its parser accepts, without models,
/// inputs or a server.
struct ParseCheck: Error {
    var command: String
    var options: [String: [String]]
    var flags: Set<String>
    var positionals: [String]

    static var isRequested: Bool { ProcessInfo.processInfo.environment["VEIL_PARSE_ONLY"] == "1" }

    /// One line a parsed item: `command blur`, `option --style=blur`, `flag --json`, `positional a.jpg`.
    var report: String {
        (["command \(command)"] + options.keys.sorted().flatMap { key in options[key]!.map { "option \(key)=\($0)" } }
            + flags.sorted().map { "flag \($0)" } + positionals.map { "positional \($0)" }).joined(separator: "\n")
    }
}
