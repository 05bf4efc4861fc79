/// Help as `veil --help` and `veil CMD --help` print it, rendered from the
/// definitions: a command's usage, what it does, then its options by group,
/// each with its value's name, one line of help and its default.
enum HelpText {
    static let width = 100
    /// Where an option's help starts.
    static let column = 28

    /// `veil --help`: every command with one line, the exit statuses, the environment.
    static func overview() -> String {
        var lines = ["veil \(VeilVersion): on-device face and subject analysis (find faces, cover them, lift subjects)", "",
                     "usage: veil COMMAND [options]", "       veil COMMAND --help     (or veil help COMMAND) its options", "",
                     "commands:"]
        for spec in Commands.all {
            lines += TextLayout.paragraph(spec.summary, width: width, first: TextLayout.pad("  " + spec.name, to: 18),
                                          indent: String(repeating: " ", count: 18))
        }
        lines += ["", "exit status:"]
        for code in ExitCode.allCases {
            lines += TextLayout.paragraph(code.meaning, width: width, first: TextLayout.pad("  \(code.rawValue)", to: 8), indent: "        ")
        }
        lines += ["", "environment:", "  VEIL_HOME     where the runtime and models live (default ${XDG_CACHE_HOME:-~/.cache}/veil)"]
        return lines.joined(separator: "\n")
    }

    /// `veil CMD --help`.
    static func command(_ spec: CommandSpec) -> String {
        var lines = usage(spec) + [""]
        for text in [spec.summary] + spec.details { lines += TextLayout.paragraph(text, width: width) + [""] }
        if !spec.subcommands.isEmpty {
            lines.append("subcommands (veil \(spec.name) SUBCOMMAND --help):")
            for sub in spec.subcommands {
                lines += TextLayout.paragraph(sub.summary, width: width, first: TextLayout.pad("  " + sub.path.last!, to: column),
                                              indent: String(repeating: " ", count: column))
            }
            lines.append("")
        }
        for (group, options) in spec.grouped {
            lines.append("\(group.title):")
            for option in options { lines += self.option(option) }
            lines.append("")
        }
        if !spec.examples.isEmpty {
            lines.append("examples:")
            for example in spec.examples {
                lines += ["  " + example.line] + TextLayout.paragraph(example.what, width: width, first: "      ", indent: "      ")
            }
            lines.append("")
        }
        lines.append("exit status: see `veil --help`")
        return lines.joined(separator: "\n")
    }

    /// `usage: veil blur INPUT... [options]`, and a line for each subcommand
    /// (a command that only dispatches, as `models` does, has no line of its own).
    static func usage(_ spec: CommandSpec) -> [String] {
        let ownLine = spec.subcommands.isEmpty || !spec.options.isEmpty || !spec.arguments.isEmpty
        let forms = (ownLine ? [spec] : []) + spec.subcommands
        return forms.enumerated().map { i, form in
            let words = ["veil", form.synopsisName, form.arguments, form.options.isEmpty ? "" : "[options]"].filter { !$0.isEmpty }
            return (i == 0 ? "usage: " : "       ") + words.joined(separator: " ")
        }
    }

    /// `  --threshold T             keep faces scoring at least T (default: 0.5)`.
    static func option(_ option: OptionSpec) -> [String] {
        let names = option.names.map { n in option.value.map { "\(n) \($0)" } ?? n }.joined(separator: ", ")
        let head = "  " + names
        let text = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
        let indent = String(repeating: " ", count: column)
        if head.count + 2 > column {
            return [head] + TextLayout.paragraph(text, width: width, first: indent, indent: indent)
        }
        return TextLayout.paragraph(text, width: width, first: TextLayout.pad(head, to: column), indent: indent)
    }
}
