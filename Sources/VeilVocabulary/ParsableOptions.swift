/// A group of options declared once, as swift-argument-parser's
/// `ParsableArguments`: each entry of `options` is one line that names an
/// option, says where the group keeps its value, how the value is read and
/// checked, what help says it defaults to, and its help. The command line
/// decodes a group from `argv` and an HTTP route from its query and form
/// fields through the same list (`init(_:)`), and the CLI's definitions,
/// help, man page and completions are made from it; code reads the group's
/// properties, so a misspelled option does not compile.
public protocol ParsableOptions: Sendable {
    /// Every option at its default.
    init()
    /// The options, in the order help lists them.
    static var options: [Option<Self>] { get }
}

extension ParsableOptions {
    /// The group as `source` gives it: each option the source has (a
    /// command declares it, or a request), read and checked; the others
    /// keep their defaults.
    public init(_ source: some OptionSource) throws {
        self.init()
        for option in Self.options where source.declares(option.name) {
            try option.read(&self, source)
        }
        for option in Self.options {
            for old in option.retired where source.declares(old) && source.gives(old) {
                if let refusal = option.refusal(of: old, spelling: source.spelling) { throw refusal }
            }
        }
    }

    /// One option of the group as `source` gives it, the others not read.
    public static func read<Value>(_ key: WritableKeyPath<Self, Value?>, from source: some OptionSource) throws -> Value? {
        var group = Self()
        let declared = Self.option(key)
        if source.declares(declared.name) { try declared.read(&group, source) }
        return group[keyPath: key]
    }

    /// The declaration of the option kept at `key`.
    public static func option(_ key: PartialKeyPath<Self>) -> Option<Self> {
        guard let option = options.first(where: { $0.key == key }) else { preconditionFailure("\(Self.self) declares no option at \(key)") }
        return option
    }
}

/// One option of a `ParsableOptions` group: its name as an HTTP request
/// spells it (`mask-scale`; the command line adds two dashes), the heading
/// help lists it under, and how its text is read into the group.
public struct Option<Group>: @unchecked Sendable {
    /// `mask-scale`; the command line spells it `--mask-scale`.
    public var name: String
    /// Other spellings a request may use (`maskScale`); the command line takes `name` alone.
    public var aliases: [String] = []
    /// The value's name in help (`K`); nil for a switch.
    public var value: String?
    public var group: OptionGroup
    /// One line of help.
    public var help: String
    /// What help says the option defaults to, where it has a default.
    public var defaultValue: String?
    /// The words the value may be, offered by the completions (nil: any).
    public var choices: [String]?
    /// A valid value, so a test can walk the definitions and parse each option.
    public var sample: String?
    /// What completing the value offers.
    public var kind: OptionValueKind = .text
    /// Names the option once had, refused with the one it has now (`refusal(of:spelling:)`)
    /// rather than taken as aliases: `keep-person` read as its opposite beside `keep-track`.
    public var retired: [String] = []
    /// Where the group keeps it (`\.maskScale`): how a command names it.
    public let key: PartialKeyPath<Group>
    /// Reads the option from a source into the group.
    let read: (inout Group, any OptionSource) throws -> Void

    /// Every spelling a request may use: `name` first.
    public var names: [String] { [name] + aliases }

    /// The same option with `names` as its retired names.
    public func retiring(_ names: String...) -> Option {
        var copy = self
        copy.retired = names
        return copy
    }

    /// The one line that refuses `given` where it is one of this option's
    /// retired names (the CLI's unknown option, a route's field), or nil.
    public func refusal(of given: String, spelling: (String) -> String) -> InputError? {
        let bare = given.hasPrefix("--") ? String(given.dropFirst(2)) : given
        guard retired.contains(bare) else { return nil }
        return InputError("\(spelling(bare)) is now \(spelling(name)): \(help)")
    }
}

extension Option {
    /// A value read by `parse` (given the text and the option as the caller
    /// spells it), kept at `key`; absent, the key keeps its default.
    public static func parsed<Value>(_ name: String, _ value: String, _ key: WritableKeyPath<Group, Value?>, _ group: OptionGroup, _ help: String,
                                     default defaultValue: String? = nil, choices: [String]? = nil, kind: OptionValueKind = .text, sample: String,
                                     aliases: [String] = [], parse: @escaping (String, String) throws -> Value) -> Option {
        Option(name: name, aliases: aliases, value: value, group: group, help: help, defaultValue: defaultValue, choices: choices,
               sample: sample, kind: kind, key: key) { target, source in
            for spelling in [name] + aliases where source.declares(spelling) {
                if let text = source.value(spelling) { target[keyPath: key] = try parse(text, source.spelling(spelling)); return }
            }
        }
    }

    /// A whole number within `range`.
    public static func int(_ name: String, _ value: String, _ key: WritableKeyPath<Group, Int?>, in range: ClosedRange<Int>, _ group: OptionGroup,
                           _ help: String, default defaultValue: String? = nil, sample: String) -> Option {
        parsed(name, value, key, group, help, default: defaultValue, sample: sample) { try TextNumber.int($0, in: range, option: $1) }
    }

    /// A finite number within `range`.
    public static func double(_ name: String, _ value: String, _ key: WritableKeyPath<Group, Double?>, in range: ClosedRange<Double>,
                              _ group: OptionGroup, _ help: String, default defaultValue: String? = nil, sample: String,
                              aliases: [String] = []) -> Option {
        parsed(name, value, key, group, help, default: defaultValue, sample: sample, aliases: aliases) { try TextNumber.double($0, in: range, option: $1) }
    }

    /// Any text (not empty).
    public static func text(_ name: String, _ value: String, _ key: WritableKeyPath<Group, String?>, _ group: OptionGroup, _ help: String,
                            default defaultValue: String? = nil, choices: [String]? = nil, kind: OptionValueKind = .text, sample: String) -> Option {
        parsed(name, value, key, group, help, default: defaultValue, choices: choices, kind: kind, sample: sample) { text, _ in text }
    }

    /// A repeatable option: every value given, each read by `parse`, in order.
    public static func list<Value>(_ name: String, _ value: String, _ key: WritableKeyPath<Group, [Value]>, _ group: OptionGroup, _ help: String,
                                   sample: String, parse: @escaping (String, String) throws -> Value) -> Option {
        Option(name: name, value: value, group: group, help: help, sample: sample, key: key) { target, source in
            target[keyPath: key] = try source.values(name).map { try parse($0, source.spelling(name)) }
        }
    }

    /// One of an enumeration's spellings (its raw values):
    /// "--level must be fast or accurate, not 'slow'".
    public static func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ key: WritableKeyPath<Group, Choice?>, _ group: OptionGroup,
                                                                       _ help: String, default defaultValue: String? = nil, sample: String) -> Option
        where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return parsed(name, names.joined(separator: "|"), key, group, help, default: defaultValue, choices: names, sample: sample) { text, option in
            guard let choice = Choice(rawValue: text) else { throw InputError("\(option) must be \(names.joined(separator: " or ")), not '\(text)'") }
            return choice
        }
    }

    /// A switch: on when given.
    public static func flag(_ name: String, _ key: WritableKeyPath<Group, Bool>, _ group: OptionGroup, _ help: String) -> Option {
        Option(name: name, value: nil, group: group, help: help, key: key) { target, source in
            if source.flag(name) { target[keyPath: key] = true }
        }
    }
}

/// What completing an option's value offers: any text, a file, a folder, or
/// the name of one of veil's commands (`veil help COMMAND`).
public enum OptionValueKind: String, Sendable { case text, file, directory, command }
