import VeilVocabulary

/// One command (`blur`) or subcommand (`video join`), declared once: its
/// positional arguments, a line of help, a few lines of detail, and every
/// option it accepts. `Arguments` parses from it; help, the completions, the
/// man page and the README's synopsis are rendered from it.
struct CommandSpec: Sendable {
    /// The words that name it: `["blur"]`, `["video", "join"]`.
    var path: [String]
    /// The positional arguments as the synopsis writes them: `INPUT...`.
    var arguments: String
    /// One line: what it does.
    var summary: String
    /// Paragraphs for `--help` and the man page.
    var details: [String]
    var options: [OptionSpec]
    var subcommands: [CommandSpec] = []
    /// Whether this subcommand runs when none is named (`models` lists).
    var isDefault = false
    /// What completing a positional argument offers.
    var positionals: OptionSpec.ValueKind = .file
    /// The words a positional argument may be, where they are few (`bash|zsh|fish`).
    var positionalChoices: [String]?
    /// A few command lines with what each does: help's and the man page's examples.
    var examples: [Example] = []
    /// What runs it, with the words after its name: main dispatches on this alone (`Commands.resolve`).
    var action: (@Sendable ([String]) async throws -> Int32)?

    struct Example: Sendable {
        var line: String
        var what: String
        init(_ line: String, _ what: String) { self.line = line; self.what = what }
    }

    /// `blur`, `video join`.
    var name: String { path.joined(separator: " ") }
    /// The name as a synopsis writes it: `models [list]` for a default subcommand.
    var synopsisName: String { isDefault ? path.dropLast().joined(separator: " ") + " [\(path.last!)]" : name }

    /// The spellings of the options that take a value, and of those that do not.
    var valued: Set<String> { Set(options.filter(\.takesValue).flatMap(\.names)) }
    var switches: Set<String> { Set(options.filter { !$0.takesValue }.flatMap(\.names)) }

    /// The option spelled `name`, if this command has it.
    func option(_ name: String) -> OptionSpec? { options.first { $0.names.contains(name) } }

    /// `join` for `video`; `list`, `install`, `path` for `models`.
    var subcommandNames: [String] { subcommands.map { $0.path.last! } }

    /// The subcommand named `word`, if any.
    func subcommand(_ word: String) -> CommandSpec? { subcommands.first { $0.path.last == word } }

    /// This command with its subcommands' options accepted too: `veil models`
    /// has always parsed `--all` whatever the action, and still does.
    var acceptingSubcommandOptions: CommandSpec {
        var copy = self
        for option in subcommands.flatMap(\.options) where copy.option(option.name) == nil { copy.options.append(option) }
        return copy
    }

    /// The options in help's order: by group, then as declared.
    var grouped: [(group: OptionGroup, options: [OptionSpec])] {
        OptionGroup.allCases.compactMap { group in
            let members = options.filter { $0.group == group }
            return members.isEmpty ? nil : (group, members)
        }
    }
}

extension CommandSpec {
    /// This command, run by `action`.
    func runs(_ action: @escaping @Sendable ([String]) async throws -> Int32) -> CommandSpec {
        var copy = self
        copy.action = action
        return copy
    }

    /// This command with `list` as its examples.
    func examples(_ list: Example...) -> CommandSpec {
        var copy = self
        copy.examples = list
        return copy
    }
}

extension CommandSpec {
    /// A command that takes no arguments (`veil man`, `veil version`): its words refused (but for
    /// `--help`), then `body` prints.
    static func bare(_ name: String, summary: String, details: [String], _ body: @escaping @Sendable () throws -> Void) -> CommandSpec {
        let spec = CommandSpec(path: [name], arguments: "", summary: summary, details: details, options: [], positionals: .text)
        return spec.runs { words in
            try Arguments.nothing(words, spec)
            try body()
            return ExitCode.ok.rawValue
        }
    }
}
