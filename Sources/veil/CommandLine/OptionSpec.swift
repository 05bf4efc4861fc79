import VeilVocabulary

/// One option of a command, declared once. The parser's sets of valued
/// options and switches, `--help`, the completions, the man page and the
/// README's synopsis are all read from it, so they cannot drift apart again
/// (issue 22: three hand-kept lists did).
struct OptionSpec: Sendable {
    /// The spellings, the first shown in help: `--out-dir`, or `-o`.
    var names: [String]
    /// The value's name in help (`T`, `PATH`); nil for a switch.
    var value: String?
    var group: OptionGroup
    /// One line of help.
    var help: String
    /// What help says the option defaults to, where it has a default.
    var defaultValue: String?
    /// The words the value may be, offered by the completions (nil: any).
    var choices: [String]?
    /// What completing a free value offers.
    var kind: ValueKind
    /// A valid value, so a test can walk the definitions and parse each option.
    var sample: String?
    /// Options that exclude each other share a tag: the synopsis shows them
    /// as one bracket, `[-o OUT | --out-dir DIR]`.
    var alternative: String?
    /// Whether the command cannot run without it (`video join -o`): the synopsis drops its brackets.
    var required = false
    /// The line refusing a name the option once had (`Option.retiring`), nil for any other name.
    var retired: (@Sendable (String) -> InputError?)?

    /// What the completions offer for a value (`OptionValueKind`).
    typealias ValueKind = OptionValueKind

    var name: String { names[0] }
    var takesValue: Bool { value != nil }

    /// An option that takes no value.
    static func flag(_ name: String, _ group: OptionGroup, _ help: String, alternative: String? = nil) -> OptionSpec {
        OptionSpec(names: [name], value: nil, group: group, help: help, kind: .text, alternative: alternative)
    }

    /// An option with a value named `value`; `sample` is a value it accepts.
    static func valued(_ name: String, _ value: String, _ group: OptionGroup, _ help: String, default defaultValue: String? = nil,
                       choices: [String]? = nil, kind: ValueKind = .text, sample: String, alternative: String? = nil) -> OptionSpec {
        OptionSpec(names: [name], value: value, group: group, help: help, defaultValue: defaultValue, choices: choices,
                   kind: kind, sample: sample, alternative: alternative)
    }

    /// The same option with another default or help, for a command whose default differs
    /// (`--jobs`: the cores for blur, 1 for lift).
    func with(default defaultValue: String? = nil, help: String? = nil, value: String? = nil, required: Bool? = nil) -> OptionSpec {
        var copy = self
        if let defaultValue { copy.defaultValue = defaultValue }
        if let help { copy.help = help }
        if let value { copy.value = value }
        if let required { copy.required = required }
        return copy
    }

    /// `--threshold T` or `--json`: how help and the synopsis write it.
    var usage: String { value.map { "\(name) \($0)" } ?? name }
}
