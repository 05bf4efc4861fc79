import Foundation
@testable import VeilServe
import XCTest

/// The editor's files (Sources/VeilServe/Editor): inlined into one
/// self-contained page, and its script linted where a linter is installed.
final class EditorAssetTests: XCTestCase {
    let editor = TestData.repoRoot.appendingPathComponent("Sources/VeilServe/Editor")

    func testThePageInlinesTheStyleAndTheScript() throws {
        let page = WebEditor.page
        XCTAssertFalse(page.contains(WebEditor.styleLink), "the style is still linked, not inlined")
        XCTAssertFalse(page.contains(WebEditor.scriptLink), "the script is still linked, not inlined")
        let css = try String(contentsOf: editor.appendingPathComponent("editor.css"), encoding: .utf8)
        let js = try String(contentsOf: editor.appendingPathComponent("editor.js"), encoding: .utf8)
        XCTAssertTrue(page.contains("<style>\n\(css)</style>"))
        XCTAssertTrue(page.contains("<script>\n\(js)</script>"))
        XCTAssertTrue(page.hasPrefix("<!doctype html>\n") && page.hasSuffix("</html>"))
    }

    /// ESLint (Debian's `eslint`) with its recommended rules for a browser
    /// script (Browser/eslintrc.json; off: require-atomic-updates, whose false
    /// alarms on awaited assignments took it out of ESLint 7's recommended set;
    /// allowed: an empty catch, and a function named like a window property);
    /// without it, Node's syntax check; without Node, skipped.
    func testTheScriptLints() throws {
        let script = editor.appendingPathComponent("editor.js").path
        let config = TestData.repoRoot.appendingPathComponent("Tests/VeilServeTests/Browser/eslintrc.json").path
        if let eslint = executable("eslint") {
            // Debian's eslint finds its modules in /usr/share/nodejs, which a Node from elsewhere does not search.
            let (status, output) = try run(eslint, ["-f", "unix", "--no-eslintrc", "-c", config, script],
                                           environment: ["NODE_PATH": "/usr/share/nodejs"])
            XCTAssertEqual(status, 0, output)
        } else if let node = executable("node") {
            let (status, output) = try run(node, ["--check", script])
            XCTAssertEqual(status, 0, output)
            print("editor.js: syntax checked with node only (apt-get install eslint for the lint)")
        } else {
            throw XCTSkip("neither eslint nor node installed: apt-get install eslint")
        }
    }

    private func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
