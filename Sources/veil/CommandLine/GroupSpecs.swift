import VeilVocabulary

extension OptionSpec {
    /// An option a group declares (`ParsableOptions`), as the command line spells it: `--name`.
    init<Group>(_ option: Option<Group>) {
        self.init(names: [option.name.hasPrefix("-") ? option.name : "--" + option.name], value: option.value, group: option.group, help: option.help,
                  defaultValue: option.defaultValue, choices: option.choices, kind: option.kind, sample: option.sample)
        if !option.retired.isEmpty {
            let refusal: @Sendable (String) -> InputError? = { given in
                option.refusal(of: given) { (bare: String) -> String in "--" + bare }
            }
            retired = refusal
        }
    }
}

extension ParsableOptions {
    /// The group's options as a command declares them, in the group's order.
    static var specs: [OptionSpec] { options.map(OptionSpec.init) }

    /// The option kept at `key`, as a command declares it (`.with(default:)` where its default is the command's).
    static func spec(_ key: PartialKeyPath<Self>) -> OptionSpec { OptionSpec(option(key)) }

    /// The group's options from the one kept at `first` through the one at `last`, in the group's order
    /// (a command that lists another option among them).
    static func specs(from first: PartialKeyPath<Self>, through last: PartialKeyPath<Self>) -> [OptionSpec] {
        let keys = options.map(\.key)
        guard let start = keys.firstIndex(of: first), let end = keys.firstIndex(of: last), start <= end else {
            preconditionFailure("\(Self.self) declares no options from \(first) through \(last)")
        }
        return options[start...end].map(OptionSpec.init)
    }
}

extension OptionSpec {
    /// The same option, one of the alternatives tagged `tag` (`[-o OUT | --out-dir DIR]`).
    func alternative(_ tag: String) -> OptionSpec {
        var copy = self
        copy.alternative = tag
        return copy
    }
}

extension Option {
    /// `--out-dir DIR`, declared once for the commands that write many outputs.
    static func outDir(_ key: WritableKeyPath<Group, String?>) -> Option {
        .text("out-dir", "DIR", key, .output, "write every output under DIR, keeping the inputs' folder layout", kind: .directory, sample: "out")
    }
}
