import VeilVocabulary

/// `veil help --json`: every command and option as data, so tools (and the
/// tests that walk the definitions) need not parse help text.
enum DefinitionsJSON {
    static func render() -> String {
        JSONText.object([("version", .string(VeilVersion)), ("commands", .array(Commands.all.map(command))),
                         ("exitCodes", .array(ExitCode.allCases.map { .object([("code", .int(Int($0.rawValue))), ("meaning", .string($0.meaning))]) }))])
            .rendered
    }

    static func command(_ spec: CommandSpec) -> JSONText {
        .object([("path", .array(spec.path.map(JSONText.string))), ("arguments", .string(spec.arguments)), ("summary", .string(spec.summary)),
                 ("subcommands", .array(spec.subcommandNames.map(JSONText.string))), ("options", .array(spec.options.map(option))),
                 ("examples", .array(spec.examples.map { .object([("line", .string($0.line)), ("what", .string($0.what))]) }))])
    }

    static func option(_ option: OptionSpec) -> JSONText {
        var fields: [(String, JSONText)] = [("names", .array(option.names.map(JSONText.string))), ("group", .string(option.group.rawValue)),
                                            ("help", .string(option.help))]
        if let value = option.value { fields.append(("value", .string(value))) }
        if let sample = option.sample { fields.append(("sample", .string(sample))) }
        if let defaultValue = option.defaultValue { fields.append(("default", .string(defaultValue))) }
        if let choices = option.choices { fields.append(("choices", .array(choices.map(JSONText.string)))) }
        return .object(fields)
    }
}
