import VeilVocabulary

/// `veil completions bash|zsh|fish`: a completion script generated from the definitions.
enum CompletionsCommand {
    static let definition = CommandSpec(
        path: ["completions"], arguments: "bash|zsh|fish", summary: "print a shell's completion script: commands, then each command's options",
        details: ["bash: `source <(veil completions bash)`; zsh: save it as _veil in a folder of $fpath; "
                  + "fish: save it as ~/.config/fish/completions/veil.fish."],
        options: [], positionals: .text, positionalChoices: ["bash", "zsh", "fish"])
        .runs { try run($0) }

    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        switch args.positionals {
        case ["bash"]: print(BashCompletion.render(), terminator: "")
        case ["zsh"]: print(ZshCompletion.render(), terminator: "")
        case ["fish"]: print(FishCompletion.render(), terminator: "")
        default: throw InputError("veil completions takes one shell: bash, zsh or fish")
        }
        return ExitCode.ok.rawValue
    }
}
