import VeilVocabulary

/// `veil help [COMMAND]`: the list of commands, one command's help, or what
/// else the definitions render (the README's synopsis, the man page, JSON).
enum HelpCommand {
    static let definition = CommandSpec(
        path: ["help"], arguments: "[COMMAND [SUBCOMMAND]]",
        summary: "the commands, one line each; or one command's options (as `veil COMMAND --help`)",
        details: ["`veil --help` and `veil -h` are `veil help`."],
        options: Options.specs.map { $0.alternative("form") },
        positionals: .command)
        .runs { try run($0) }

    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        let form = try Options(args)
        if form.synopsis { print(Synopsis.block()) }
        else if form.man { print(ManPage.render(), terminator: "") }
        else if form.json, !args.positionals.isEmpty {
            guard let spec = Commands.find(args.positionals) else { throw InputError(Commands.unknown(args.positionals)) }
            print(DefinitionsJSON.command(spec).rendered)
        }
        else if form.json { print(DefinitionsJSON.render()) }
        else if args.positionals.isEmpty { print(HelpText.overview()) }
        else if let spec = Commands.find(args.positionals) { print(HelpText.command(spec)) }
        else { throw InputError(Commands.unknown(args.positionals)) }
        return ExitCode.ok.rawValue
    }
}

extension HelpCommand {
    /// What help prints instead of the text: each option one line.
    struct Options: ParsableOptions {
        var synopsis = false, man = false, json = false

        static var options: [Option<Self>] {
            [
                .flag("synopsis", \.synopsis, .output, "print the README's synopsis block, generated from the definitions"),
                .flag("man", \.man, .output, "print the man page, veil.1 (roff), as `veil man` does"),
                .flag("json", \.json, .output,
                      "print the definitions as JSON (commands, options, sample values, examples), for tools and tests; with COMMAND, that command's alone"),
            ]
        }
    }
}
