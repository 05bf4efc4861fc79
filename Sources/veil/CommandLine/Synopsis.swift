/// The README's synopsis (the fenced block under "## Commands"), rendered
/// from the definitions: `veil help --synopsis` prints it, the README holds
/// it, and a test fails when the two differ.
enum Synopsis {
    static let width = 110

    /// Every command's line(s), in the order of `Commands.top`.
    static func block() -> String {
        Commands.top.flatMap(lines).joined(separator: "\n")
    }

    /// `veil blur INPUT... [-o OUT | --out-dir DIR] ...`, wrapped under its
    /// arguments; then each subcommand, with its one-line summary.
    static func lines(_ spec: CommandSpec) -> [String] {
        var lines: [String] = []
        if spec.subcommands.isEmpty || !spec.options.isEmpty || !spec.arguments.isEmpty { lines += wrapped(spec) }
        let column = spec.subcommands.map { wrapped($0).last!.count }.max().map { $0 + 2 } ?? 0
        for sub in spec.subcommands {
            var sublines = wrapped(sub)
            sublines[sublines.count - 1] = TextLayout.pad(sublines.last!, to: column) + sub.summary
            lines += sublines
        }
        return lines
    }

    static func wrapped(_ spec: CommandSpec) -> [String] {
        let head = "veil " + spec.synopsisName
        let tokens = [head] + [spec.arguments].filter { !$0.isEmpty } + tokens(spec.options)
        return TextLayout.wrap(tokens, width: width, indent: String(repeating: " ", count: head.count + 1))
    }

    /// `[--json]`, `--threshold T` when required, `[-o OUT | --out-dir DIR]` for alternatives.
    static func tokens(_ options: [OptionSpec]) -> [String] {
        var tokens: [String] = []
        var seen: Set<String> = []
        for option in options {
            guard let tag = option.alternative else {
                tokens.append(option.required ? option.usage : "[\(option.usage)]")
                continue
            }
            if seen.insert(tag).inserted {
                tokens.append("[" + options.filter { $0.alternative == tag }.map(\.usage).joined(separator: " | ") + "]")
            }
        }
        return tokens
    }
}
