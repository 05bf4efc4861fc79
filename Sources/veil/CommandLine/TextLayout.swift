/// Lines broken between words, for help, the synopsis and the man page:
/// a token (a word, or `[--style STYLE]` in a synopsis) is never split.
enum TextLayout {
    /// `tokens` joined by spaces into lines of at most `width` columns (a
    /// longer token gets a line of its own); the first line starts with
    /// `first`, the others with `indent`.
    static func wrap(_ tokens: [String], width: Int, first: String = "", indent: String = "") -> [String] {
        var lines: [String] = []
        var line = first
        var empty = true
        for token in tokens {
            if !empty && line.count + 1 + token.count > width {
                lines.append(line)
                line = indent
                empty = true
            }
            line += (empty ? "" : " ") + token
            empty = false
        }
        lines.append(line)
        return lines
    }

    /// Prose wrapped: `text`'s words, as `wrap` lays them out.
    static func paragraph(_ text: String, width: Int, first: String = "", indent: String = "") -> [String] {
        wrap(text.split(separator: " ").map(String.init), width: width, first: first, indent: indent)
    }

    /// `text` padded with spaces to `column` (at least two spaces after it).
    static func pad(_ text: String, to column: Int) -> String {
        text.count + 2 > column ? text + "  " : text + String(repeating: " ", count: column - text.count)
    }
}
