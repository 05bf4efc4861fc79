/// `veil man`: the man page on standard output (`veil man | man -l -`).
enum ManCommand {
    static let definition = CommandSpec(
        path: ["man"], arguments: "", summary: "print the man page, veil.1 (roff): `veil man | man -l -`",
        details: ["The same text is committed as docs/veil.1."], options: [], positionals: .text)
        .runs { try run($0) }

    static func run(_ words: [String]) throws -> Int32 {
        try Arguments.nothing(words, definition)
        print(ManPage.render(), terminator: "")
        return ExitCode.ok.rawValue
    }
}
