import Foundation
import VeilKit
import XCTest

/// The definitions behind every command (`veil help --json`): each command's
/// help lists what it parses, each listed option parses, and the README,
/// the man page and `--version` say what the binary says.
final class CommandDefinitionTests: XCTestCase {
    struct Definitions: Decodable {
        struct Command: Decodable { var path: [String]; var options: [Option]; var examples: [Example] }
        struct Example: Decodable { var line: String; var what: String }
        struct Option: Decodable { var names: [String]; var value: String?; var sample: String? }
        struct Exit: Decodable { var code: Int; var meaning: String }
        var commands: [Command]
        var exitCodes: [Exit]
    }

    static func definitions() throws -> Definitions {
        let result = try Veil.run(["help", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(Definitions.self, from: Data(result.stdout.utf8))
    }

    func testEveryCommandAnswersHelpListingEveryOption() throws {
        let commands = try Self.definitions().commands
        XCTAssertEqual(Set(commands.map { $0.path.joined(separator: " ") }).isSuperset(of: [
            "faces", "blur", "video", "video join", "lift", "serve", "status", "models", "models install", "help", "version", "completions", "man",
        ]), true)
        for command in commands {
            let help = try Veil.run(command.path + ["--help"])
            let name = command.path.joined(separator: " ")
            XCTAssertEqual(help.status, 0, "\(name) --help: \(help.stderr)")
            XCTAssertTrue(help.stdout.hasPrefix("usage: veil \(command.path[0])"), "\(name): \(help.stdout.prefix(80))")
            for option in command.options {
                for spelling in option.names { XCTAssertTrue(help.stdout.contains(spelling), "\(name) --help lacks \(spelling)") }
            }
            XCTAssertEqual(try Veil.run(command.path + ["-h"]).stdout, help.stdout, "\(name) -h")
            XCTAssertEqual(try Veil.run(["help"] + command.path).stdout, help.stdout, "veil help \(name)")
        }
    }

    /// Every option a command lists parses with its sample value (`VEIL_PARSE_ONLY=1`
    /// stops after the command's own parsing, before any work).
    func testEveryListedOptionParses() throws {
        for command in try Self.definitions().commands where !command.options.isEmpty {
            var words = command.path
            var expected: [String] = []
            for option in command.options {
                let spelling = option.names[0]
                if option.value != nil {
                    let sample = try XCTUnwrap(option.sample, "\(spelling) of \(command.path) has no sample value")
                    words += [spelling, sample]
                    expected.append("option \(spelling)=\(sample)")
                } else {
                    words.append(spelling)
                    expected.append("flag \(spelling)")
                }
            }
            let result = try Shell.run([Veil.binary.path] + words, environment: ProcessInfo.processInfo.environment.merging(["VEIL_PARSE_ONLY": "1"]) { $1 })
            XCTAssertEqual(result.status, 0, "\(words.joined(separator: " ")): \(result.stderr)")
            let lines = Set(result.stdout.split(separator: "\n").map(String.init))
            for line in expected { XCTAssertTrue(lines.contains(line), "\(command.path): \(line) not parsed; got \(result.stdout)") }
        }
    }

    /// Each command that works on inputs has examples, in its help and as
    /// data; every example that is a plain `veil` line parses as written
    /// (`VEIL_PARSE_ONLY=1`), so none goes stale. `veil help CMD --json` is
    /// that command's definition alone.
    func testExamplesParseAndHelpJSONIsTheCommandsOwn() throws {
        let commands = try Self.definitions().commands
        for path in [["faces"], ["text"], ["blur"], ["video"], ["lift"], ["serve"], ["video", "tracks"]] {
            let command = try XCTUnwrap(commands.first { $0.path == path })
            XCTAssertFalse(command.examples.isEmpty, "\(path) has no examples")
            let help = try Veil.run(path + ["--help"]).stdout
            XCTAssertTrue(help.contains("examples:\n  \(command.examples[0].line)"), "\(path)'s help shows no examples")
            let own = try Veil.run(["help"] + path + ["--json"])
            XCTAssertEqual(own.status, 0, own.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(object["path"] as? [String], path)
        }
        var parsed = 0
        for example in commands.flatMap(\.examples) where example.line.hasPrefix("veil ")
            && !example.line.contains(where: { "$\"'{}<>|".contains($0) }) {
            let words = example.line.split(separator: " ").dropFirst().map(String.init)
            let result = try Shell.run([Veil.binary.path] + words, environment: ProcessInfo.processInfo.environment.merging(["VEIL_PARSE_ONLY": "1"]) { $1 })
            XCTAssertEqual(result.status, 0, "\(example.line): \(result.stderr)")
            parsed += 1
        }
        XCTAssertGreaterThan(parsed, 15)
    }

    func testVersionNamesTheLibraries() throws {
        for words in [["--version"], ["version"]] {
            let result = try Veil.run(words)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("veil "), result.stdout)
            for library in ["ONNX Runtime", "libvips", "FFmpeg"] { XCTAssertTrue(result.stdout.contains(library), "\(library): \(result.stdout)") }
        }
    }

    /// The CPU kind and precision `veil version` names follow the features the
    /// process may use: with glibc told AVX-512 is off (as a VM without its
    /// state would say), an AVX2 machine, whatever CPUID reports; or, where the
    /// CPU has AVX-VNNI too (its VEX form needs no AVX-512 state, and glibc has
    /// no tunable to hide it), an AVX-VNNI one.
    func testVersionNamesTheCPUKindTheProcessMayUse() throws {
        #if arch(x86_64) && os(Linux)
        let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
        let features = flags.split(separator: " ")
        guard features.contains("avx2") else { throw XCTSkip("no AVX2 here") }
        let masked = try Veil.run(["version"], environment: ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX512F"])
        XCTAssertEqual(masked.status, 0, masked.stderr)
        let kind = features.contains("avx_vnni") ? "AVX-VNNI" : "AVX2 (no VNNI)"
        XCTAssertTrue(masked.stdout.contains("CPU \(kind): models in int8 by default"), masked.stdout)
        let plain = try Veil.run(["version"])
        XCTAssertTrue(plain.stdout.contains("CPU \(CPUKind.current):"), plain.stdout)
        #else
        throw XCTSkip("x86-64 Linux only")
        #endif
    }

    func testMisspellingsGetTheNearestName() throws {
        let cases: [([String], String)] = [
            (["blur", "--treshold", "0.3", "a.jpg"], "unknown option --treshold (did you mean --threshold?)"),
            (["video", "--tile-pixel", "5", "a.mp4"], "unknown option --tile-pixel (did you mean --tile-pixels?)"),
            (["faces", "--jsno", "a.jpg"], "unknown option --jsno (did you mean --json?)"),
            (["blurr", "a.jpg"], "unknown command 'blurr' (did you mean blur?)"),
            (["faces", "--zzzzzz", "a.jpg"], "unknown option --zzzzzz (see"),
        ]
        for (words, says) in cases {
            let result = try Veil.run(words)
            XCTAssertEqual(result.status, 2, "\(words): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(words): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(says), "\(words): \(result.stderr)")
        }
    }

    func testOverviewListsCommandsAndExitStatuses() throws {
        let result = try Veil.run(["--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for code in try Self.definitions().exitCodes { XCTAssertTrue(result.stdout.contains("\n  \(code.code) "), "exit \(code.code)") }
        XCTAssertEqual(try Veil.run(["help"]).stdout, result.stdout)
    }

    /// The README's synopsis block (under "## Commands") is `veil help --synopsis`,
    /// its other synopsis blocks are those commands' lines, and its table of
    /// exit statuses is the binary's.
    func testReadmeSaysWhatTheDefinitionsSay() throws {
        let readme = try String(contentsOf: TestData.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let synopsis = try Veil.run(["help", "--synopsis"]).stdout.trimmingCharacters(in: .newlines)
        let blocks = Self.fencedBlocks(readme)
        let commands = try XCTUnwrap(readme.range(of: "## Commands\n"))
        let first = try XCTUnwrap(Self.fencedBlocks(String(readme[commands.upperBound...])).first)
        XCTAssertEqual(first, synopsis, "README's synopsis differs: run `veil help --synopsis` and paste it under ## Commands")
        // A block opening with a command's synopsis line holds exactly that command's lines.
        let lines = synopsis.split(separator: "\n").map(String.init)
        for block in blocks where block != first {
            guard let start = lines.firstIndex(where: { $0 == block.split(separator: "\n").first.map(String.init) }) else { continue }
            let own = [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix(" ") }
            XCTAssertEqual(block, own.joined(separator: "\n"))
        }
        for exit in try Self.definitions().exitCodes {
            XCTAssertTrue(readme.contains("| \(exit.code) | \(exit.meaning) |"), "README's exit status \(exit.code) differs from: \(exit.meaning)")
        }
    }

    /// docs/veil.1 is what `veil man` prints, and man renders it.
    func testManPageIsCommittedAndRenders() throws {
        let page = try Veil.run(["man"])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertEqual(try Veil.run(["help", "--man"]).stdout, page.stdout)
        let committed = TestData.repoRoot.appendingPathComponent("docs/veil.1")
        XCTAssertEqual(try String(contentsOf: committed, encoding: .utf8), page.stdout, "docs/veil.1 is stale: run `veil man > docs/veil.1`")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { throw XCTSkip("man is not installed (apt-get install man-db)") }
        let rendered = try Shell.run(["sh", "-c", "MANWIDTH=80 man -l \"$0\" 2>&1", committed.path])
        XCTAssertEqual(rendered.status, 0, rendered.stdout)
        for text in ["VEIL(1)", "SYNOPSIS", "veil blur INPUT...", "--threshold", "EXIT STATUS"] {
            XCTAssertTrue(rendered.stdout.contains(text), "\(text) not in the rendered page: \(rendered.stdout.prefix(400))")
        }
        XCTAssertFalse(rendered.stdout.contains("warning"), rendered.stdout)
    }

    /// The text between each pair of ``` lines.
    static func fencedBlocks(_ text: String) -> [String] {
        var blocks: [String] = [], current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let open = current { blocks.append(open.joined(separator: "\n")); current = nil } else { current = [] }
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }
}
