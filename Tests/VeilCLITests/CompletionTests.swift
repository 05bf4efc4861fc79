import Foundation
import XCTest

/// `veil completions bash|zsh|fish`: each script is valid in its shell, and
/// completing a command, an option and a value gives what the definitions say.
final class CompletionTests: XCTestCase {
    func script(_ shell: String) throws -> URL {
        let result = try Veil.run(["completions", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = try TestData.scratch(self).appendingPathComponent("veil.\(shell)")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testBashCompletesCommandsOptionsAndValues() throws {
        let file = try script("bash")
        let syntax = try Shell.run(["bash", "-n", file.path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        let cases: [([String], String)] = [
            (["veil", "bl"], "blur"),
            (["veil", "blur", "--thres"], "--threshold"),
            (["veil", "blur", "--shape", "e"], "ellipse"),
            (["veil", "video", "jo"], "join"),
            (["veil", "video", "join", "--output-f"], "--output-format"),
            (["veil", "models", "ins"], "install"),
            (["veil", "completions", "z"], "zsh"),
        ]
        for (words, expected) in cases {
            // COMP_WORDS/COMP_CWORD as bash sets them, then the function bash would call.
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try Shell.run(["bash", "-c", "source \"$0\"; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _veil; "
                                     + "printf '%s\\n' \"${COMPREPLY[@]}\"", file.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, expected + "\n", "\(words)")
        }
    }

    func testZshAndFishScriptsParse() throws {
        var ran = 0
        for (shell, check) in [("zsh", ["zsh", "-n"]), ("fish", ["fish", "--no-execute"])] {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") else { continue }
            let result = try Shell.run(check + [try script(shell).path])
            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)")
            ran += 1
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
            let file = try script("fish")
            let result = try Shell.run(["fish", "-c", "source $argv[1]; complete -C 'veil bl'; complete -C 'veil video --grac'", file.path])
            XCTAssertTrue(result.stdout.hasPrefix("blur\t"), result.stdout + result.stderr)
            XCTAssertTrue(result.stdout.contains("\n--grace\t"), result.stdout)
        }
        if ran == 0 { throw XCTSkip("neither zsh nor fish is installed") }
    }
}
