/// Where options come from: the command line (`--style blur`) or an HTTP
/// request (`?style=blur`, form fields). The parsers in this module read
/// options by their bare name through this protocol, so the CLI and the
/// service accept the same spellings and refuse the same mistakes.
public protocol OptionSource {
    /// Every value given for `name`, in order (an option may repeat).
    func values(_ name: String) -> [String]
    /// Whether a switch is on.
    func flag(_ name: String) -> Bool
    /// How the caller spells the option, for messages: `--style` or `style`.
    func spelling(_ name: String) -> String
    /// Whether this source has an option `name` at all (a command that does
    /// not declare it, or an alias only HTTP takes): aliases and optional
    /// groups are read only where declared.
    func declares(_ name: String) -> Bool
    /// Whether the caller gave `name` at all (a value or a switch), asked
    /// only to refuse a retired name (`Option.retiring`): a route that reads
    /// it this way does not count it among the names it takes, so a
    /// misspelling is never told to use a name that is refused.
    func gives(_ name: String) -> Bool
}

extension OptionSource {
    public func declares(_ name: String) -> Bool { true }

    public func gives(_ name: String) -> Bool { !values(name).isEmpty || flag(name) }

    /// The last value given for `name`; nil when absent or empty.
    public func value(_ name: String) -> String? {
        guard let last = values(name).last, !last.isEmpty else { return nil }
        return last
    }

    /// A finite number within `range`, or nil when the option is absent.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        try value(name).map { try TextNumber.double($0, in: range, option: spelling(name)) }
    }

    /// A whole number within `range`, or nil when the option is absent.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        try value(name).map { try TextNumber.int($0, in: range, option: spelling(name)) }
    }

    /// The value of the first of `names` this source declares and was given (an option with an alias).
    public func value(_ names: [String]) -> String? {
        for name in names where declares(name) { if let v = value(name) { return v } }
        return nil
    }

    /// The value of the first of `names` that is present (an option with an alias).
    public func double(_ names: [String], in range: ClosedRange<Double>) throws -> Double? {
        for name in names where declares(name) { if let v = try double(name, in: range) { return v } }
        return nil
    }

    /// One of an enumeration's spellings (its raw values), or nil when absent:
    /// "--level must be fast or accurate, not 'slow'".
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, of type: Choice.Type) throws -> Choice?
        where Choice.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw InputError("\(spelling(name)) must be \(Choice.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'")
        }
        return choice
    }
}
