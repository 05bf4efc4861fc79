import Foundation

/// The web editor served at `/`: one self-contained page (no CDN, no npm).
/// Its markup, style and script are files in `Editor/` (editor.html, which
/// names editor.css and editor.js, so it also opens from disk), embedded at
/// build time; the page inlines the style and the script where editor.html
/// links them.
enum WebEditor {
    static let page: String = inline(
        text(PackageResources.editor_html),
        css: text(PackageResources.editor_css),
        js: text(PackageResources.editor_js))

    static let styleLink = #"<link rel="stylesheet" href="editor.css">"#
    static let scriptLink = #"<script src="editor.js"></script>"#

    /// `html` with its links to editor.css and editor.js replaced by their text.
    static func inline(_ html: String, css: String, js: String) -> String {
        html.replacingOccurrences(of: styleLink, with: "<style>\n\(css)\n</style>")
            .replacingOccurrences(of: scriptLink, with: "<script>\n\(js)\n</script>")
    }

    /// An embedded file's text without its final newline.
    private static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
