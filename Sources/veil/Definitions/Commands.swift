import VeilVocabulary
/// Every command veil has, in the order help and the README list them.
/// main runs what `resolve` finds; everything a command says about itself,
/// and what runs it (`action`), is in its definition (`BlurCommand.definition`, ...).
enum Commands {
    static let top: [CommandSpec] = [
        FacesCommand.definition, TextCommand.definition, BlurCommand.definition, VideoCommand.definition, LiftCommand.definition,
        SaliencyCommand.definition,
        ServeCommand.definition, StatusCommand.definition, ModelsCommand.definition,
        HelpCommand.definition, VersionCommand.definition, CompletionsCommand.definition, ManCommand.definition,
    ]

    /// Every command and subcommand, each followed by its subcommands.
    static var all: [CommandSpec] { top.flatMap { [$0] + $0.subcommands } }

    /// The spellings main takes for a command's name.
    static let aliases = ["--help": "help", "-h": "help", "--version": "version"]

    /// What `words` (the command line after `veil`) runs: the top command they
    /// name, or its subcommand the next word names when that one runs on its
    /// own, with the words after the name(s); nil when no command is named.
    static func resolve(_ words: [String]) -> (spec: CommandSpec, rest: [String])? {
        guard let first = words.first, let top = top.first(where: { $0.name == (aliases[first] ?? first) }) else { return nil }
        if let word = words.dropFirst().first, let sub = top.subcommand(word), sub.action != nil { return (sub, Array(words.dropFirst(2))) }
        return (top, Array(words.dropFirst()))
    }

    /// The command `words` name (`["video", "join"]`), nil when none.
    static func find(_ words: [String]) -> CommandSpec? {
        guard let first = words.first, var spec = top.first(where: { $0.name == first }) else { return nil }
        for word in words.dropFirst() {
            guard let sub = spec.subcommand(word) else { return nil }
            spec = sub
        }
        return spec
    }

    /// `unknown command 'blurr' (did you mean blur?)`; for `video jion`, what `video` has.
    static func unknown(_ words: [String]) -> String {
        if words.count > 1, let parent = find([words[0]]), let word = words.dropFirst().first(where: { parent.subcommand($0) == nil }) {
            guard !parent.subcommands.isEmpty else { return "`veil \(parent.name)` has no subcommands" }
            return "`veil \(parent.name)` has no subcommand '\(word)' (it has: \(parent.subcommandNames.joined(separator: ", ")))"
        }
        let word = words.joined(separator: " ")
        return "unknown command '\(word)'\(Suggestion.didYouMean(word, among: top.map(\.name)))"
    }
}
