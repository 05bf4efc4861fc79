/// `veil.1` in roff (`veil man`, `veil help --man`), rendered from the same
/// definitions as help; `docs/veil.1` is this output, committed, and a test
/// keeps it equal. No date in it, so the file changes only when the text does.
enum ManPage {
    static func render() -> String {
        var out = [".TH VEIL 1 \"\" \"veil \(VeilVersion)\" \"User Commands\"",
                   ".SH NAME", "veil \\- " + escape("on-device face and subject analysis: find faces, cover them, lift subjects"),
                   ".SH SYNOPSIS", ".nf"]
        out += Commands.top.flatMap(HelpText.usage).map { escape($0.replacingOccurrences(of: "usage: ", with: "").trimmingLeadingSpaces) }
        out += [".fi", ".SH DESCRIPTION",
                escape("Veil finds faces and covers them for privacy, in photos and video, and lifts subjects out of photos, "
                       + "all on this machine. Each command below lists its options; `veil COMMAND --help` prints the same."),
                ".SH COMMANDS"]
        for spec in Commands.all { out += command(spec) }
        out += [".SH EXIT STATUS"]
        for code in ExitCode.allCases { out += [".TP", ".B \(code.rawValue)", escape(code.meaning)] }
        out += [".SH ENVIRONMENT", ".TP", ".B VEIL_HOME",
                escape("where the runtime and models live (default ${XDG_CACHE_HOME:-~/.cache}/veil); `veil models install` fills it."),
                ".SH SEE ALSO", escape("README.md and ARCHITECTURE.md in Veil's source.")]
        return out.joined(separator: "\n") + "\n"
    }

    static func command(_ spec: CommandSpec) -> [String] {
        var out = [".SS \"\(quoted(["veil", spec.synopsisName, spec.arguments].filter { !$0.isEmpty }.joined(separator: " ")))\""]
        out += [escape(spec.summary)]
        for text in spec.details { out += [".PP", escape(text)] }
        for (group, options) in spec.grouped {
            out += [".PP", "\\fI\(escape(group.title))\\fR"]
            for option in options {
                let names = option.names.map { n in "\\fB\(escape(n))\\fR" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? "") }
                out += [".TP", names.joined(separator: ", "), escape(option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))]
            }
        }
        if !spec.examples.isEmpty {
            out += [".PP", "\\fIExamples\\fR"]
            for example in spec.examples { out += [".TP", ".B \(escape(example.line))", escape(example.what)] }
        }
        return out
    }

    /// Text safe in roff: backslashes and hyphens escaped (a plain `-` may
    /// print as a typographic hyphen, which breaks a pasted option), and a
    /// leading dot or quote kept from being read as a request.
    static func escape(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }

    /// Inside a quoted macro argument: escaped, with its double quotes spelled `\(dq`.
    static func quoted(_ text: String) -> String { escape(text).replacingOccurrences(of: "\"", with: "\\(dq") }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
