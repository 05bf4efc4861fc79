/// The words after a subcommand, split into options and positional arguments.
/// Only the options a command declares are accepted; anything else is a usage error.
struct Arguments {
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
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
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inline { values[name, default: []].append(inline); continue }
                guard i < words.count else { throw UsageError("\(name) needs a value") }
                values[name, default: []].append(words[i])
                i += 1
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let v = Double(text), range.contains(v) else {
            throw UsageError("\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return v
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return v
    }
}

/// A mistake in how veil was called: printed with the usage hint, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
