import Foundation
import VeilVocabulary

/// The words after a subcommand, split into options and positional arguments.
/// Only the options the command's definition declares are accepted; anything
/// else is a usage error that names the nearest option. Read through
/// `OptionSource` by bare name (`style` is `--style`), so the shared parsers
/// see the command line as they see an HTTP request.
struct Arguments: OptionSource {
    var positionals: [String] = []
    private var given: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The spellings the definition declares, and its name: reading any other is a mistake in
    /// Veil (a misspelled read would answer "not given" for ever), stopped under `VEIL_STRICT_OPTIONS=1`,
    /// which the tests set.
    private let declared: Set<String>, command: String

    /// Parses `words` as `spec` declares them: valued options as `--name V`
    /// or `--name=V`, switches bare. `--help`/`-h` anywhere asks for help.
    init(_ words: [String], _ spec: CommandSpec) throws {
        let valued = spec.valued, switches = spec.switches
        (declared, command) = (valued.union(switches), spec.name)
        var i = 0
        var onlyPositionals = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = word, inline: String?
            if let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq]); inline = String(word[word.index(after: eq)...])
            }
            if switches.contains(name) {
                guard inline == nil else { throw InputError("\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inline { given[name, default: []].append(inline); continue }
                guard i < words.count else { throw InputError("\(name) needs a value") }
                given[name, default: []].append(words[i])
                i += 1
            } else if name == "--help" || name == "-h" {
                // The definition as declared (`models` parses with its subcommands' options merged in).
                let declared = Commands.find(spec.path) ?? spec
                throw HelpRequest(spec: positionals.first.flatMap(declared.subcommand) ?? declared)
            } else if let retired = spec.options.lazy.compactMap({ $0.retired?(name) }).first {
                throw retired
            } else {
                throw InputError("unknown option \(name)\(Suggestion.didYouMean(name, among: spec.options.flatMap(\.names)))")
            }
        }
        if ParseCheck.isRequested { throw ParseCheck(command: spec.name, options: given, flags: flags, positionals: positionals) }
    }

    /// For a command that takes no arguments (`veil version`): its words parsed, and any positional refused.
    static func nothing(_ words: [String], _ spec: CommandSpec) throws {
        guard try Arguments(words, spec).positionals.isEmpty else { throw InputError("veil \(spec.name) takes no arguments") }
    }

    func flag(_ name: String) -> Bool { flags.contains(checked(name)) }
    func values(_ name: String) -> [String] { given[checked(name)] ?? [] }

    func declares(_ name: String) -> Bool { declared.contains(spelling(name)) }

    private func checked(_ name: String) -> String {
        let spelled = spelling(name)
        if !declared.contains(spelled), Arguments.strict {
            fatalError("veil \(command) read \(spelled), which its definition does not declare")
        }
        return spelled
    }

    private static let strict = ProcessInfo.processInfo.environment["VEIL_STRICT_OPTIONS"] == "1"
    /// `-o` stays as it is; a bare name gets its two dashes.
    func spelling(_ name: String) -> String { name.hasPrefix("-") ? name : "--" + name }
}

/// `--help` or `-h` among a command's words: main prints the command's help and exits 0.
struct HelpRequest: Error {
    var spec: CommandSpec
}
