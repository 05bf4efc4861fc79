import VeilVocabulary

/// The words after a subcommand, split into options and positional arguments.
/// Only the options a command declares are accepted; anything else is a usage
/// error. Read through `OptionSource` by bare name (`style` is `--style`), so
/// the shared parsers see the command line as they see an HTTP request.
struct Arguments: OptionSource {
    var positionals: [String] = []
    private var given: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// `valued`: options that take a value (`--name V` or `--name=V`);
    /// `switches`: options that do not.
    init(_ words: [String], valued: Set<String>, switches: Set<String>) throws {
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
            } else {
                throw InputError("unknown option \(name)")
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(spelling(name)) }
    func values(_ name: String) -> [String] { given[spelling(name)] ?? [] }
    /// `-o` stays as it is; a bare name gets its two dashes.
    func spelling(_ name: String) -> String { name.hasPrefix("-") ? name : "--" + name }
}
