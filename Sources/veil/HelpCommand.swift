import VeilVocabulary

/// `veil help [COMMAND]`: the list of commands, one command's help, or what
/// else the definitions render (the README's synopsis, the man page, JSON).
enum HelpCommand {
    static let definition = CommandSpec(
        path: ["help"], arguments: "[COMMAND [SUBCOMMAND]]",
        summary: "the commands, one line each; or one command's options (as `veil COMMAND --help`)",
        details: ["`veil --help` and `veil -h` are `veil help`."],
        options: [
            .flag("--synopsis", .output, "print the README's synopsis block, generated from the definitions", alternative: "form"),
            .flag("--man", .output, "print the man page, veil.1 (roff), as `veil man` does", alternative: "form"),
            .flag("--json", .output, "print the definitions as JSON (commands, options, sample values, examples), for tools and tests; with COMMAND, that command's alone", alternative: "form"),
        ],
        positionals: .command)
        .runs { try run($0) }

    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        if args.flag("--synopsis") { print(Synopsis.block()) }
        else if args.flag("--man") { print(ManPage.render(), terminator: "") }
        else if args.flag("--json"), !args.positionals.isEmpty {
            guard let spec = Commands.find(args.positionals) else { throw InputError(Commands.unknown(args.positionals)) }
            print(DefinitionsJSON.command(spec).rendered)
        }
        else if args.flag("--json") { print(DefinitionsJSON.render()) }
        else if args.positionals.isEmpty { print(HelpText.overview()) }
        else if let spec = Commands.find(args.positionals) { print(HelpText.command(spec)) }
        else { throw InputError(Commands.unknown(args.positionals)) }
        return ExitCode.ok.rawValue
    }
}
