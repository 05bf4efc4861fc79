import VeilVocabulary
/// Every command veil has, in the order help and the README list them.
/// main dispatches on these names; everything else a command says about
/// itself is in its definition (`BlurCommand.definition`, ...).
enum Commands {
    static let top: [CommandSpec] = [
        FacesCommand.definition, TextCommand.definition, BlurCommand.definition, VideoCommand.definition, LiftCommand.definition,
        ServeCommand.definition, StatusCommand.definition, ModelsCommand.definition,
        HelpCommand.definition, VersionCommand.definition, CompletionsCommand.definition, ManCommand.definition,
    ]

    /// Every command and subcommand, each followed by its subcommands.
    static var all: [CommandSpec] { top.flatMap { [$0] + $0.subcommands } }

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
