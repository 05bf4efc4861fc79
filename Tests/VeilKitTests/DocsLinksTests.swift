import Foundation
import XCTest

/// Every relative link in the documentation resolves: README.md,
/// ARCHITECTURE.md, CHANGELOG.md and docs/**/*.md, and the comments of every
/// Swift file under Sources/. A markdown link `[text](path)` or
/// `[text](path#anchor)` must name a file or folder that exists (relative to
/// the markdown file; in a Swift comment, to the package root), and its
/// anchor must be one of that markdown file's headings as GitHub spells them
/// (lowercased, spaces to `-`, punctuation other than `-` and `_` dropped, a
/// repeated heading suffixed `-1`, `-2`, ...). In Swift comments a mention
/// `docs/some.md#anchor` is checked the same way. Links with a scheme
/// (`https:`, `mailto:`) and links inside fenced code blocks or code spans are
/// not checked.
final class DocsLinksTests: XCTestCase {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // VeilKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    func testEveryRelativeLinkResolves() throws {
        let broken = try DocsLinks.brokenLinks(root: Self.packageRoot)
        XCTAssertTrue(broken.isEmpty, "\(broken.count) broken link(s):\n" + broken.joined(separator: "\n"))
    }

    /// The checker itself: a missing file, a missing anchor, a repeated
    /// heading's suffix and a mention in a Swift comment are told apart from
    /// what resolves, and code is not read as links.
    func testTheCheckerReportsWhatDoesNotResolve() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("DocsLinksTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs/design"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        try write("README.md", """
            # Veil
            ## At scale
            ## Notes
            ## Notes
            ### Photos: detection where faces *can* be (`bench/photos`, 2026-12-04)
            [ok](docs/design/faces.md#the-network) [ok](#at-scale) [ok](#notes-1)
            [ok](#photos-detection-where-faces-can-be-benchphotos-2026-12-04) [ok](docs/design/)
            [web](https://example.com/x.md#nowhere) [mail](mailto:someone@example.com)
            [gone](docs/gone.md) [no anchor](#notes-2) [no anchor](docs/design/faces.md#nowhere)
            `[code span](nowhere.md)`
            ```
            [fenced](nowhere.md)
            ```
            """)
        try write("ARCHITECTURE.md", "# Architecture\n")
        try write("CHANGELOG.md", "# Changelog\n## Benchmark history\n")
        try write("docs/design/faces.md", """
            # Faces
            ## The network
            [up](../../README.md#at-scale) [up](../../CHANGELOG.md#benchmark-history) [wrong](../README.md)
            """)
        try write("Sources/Kit/A.swift", """
            /// See docs/design/faces.md#the-network and README.md#at-scale.
            /// Not there: docs/design/faces.md#the-model, docs/design/lift.md#how.
            let url = "https://example.com/README.md#anything"
            """)
        let broken = try DocsLinks.brokenLinks(root: root)
        XCTAssertEqual(broken, [
            "README.md:9: docs/gone.md",
            "README.md:9: #notes-2",
            "README.md:9: docs/design/faces.md#nowhere",
            "docs/design/faces.md:3: ../README.md",
            "Sources/Kit/A.swift:2: docs/design/faces.md#the-model",
            "Sources/Kit/A.swift:2: docs/design/lift.md#how",
        ])
        XCTAssertEqual(DocsLinks.slug("Live sources and `--realtime`"), "live-sources-and---realtime")
        XCTAssertEqual(DocsLinks.slug("The privacy threshold, 0.12"), "the-privacy-threshold-012")
        XCTAssertEqual(DocsLinks.slug("A phone held at a slant: shots turned 35°"), "a-phone-held-at-a-slant-shots-turned-35")
    }
}

/// The link check, on Foundation alone.
private enum DocsLinks {
    /// Each broken link as `file:line: target`: the markdown files first, then
    /// the Swift files, each in path order.
    static func brokenLinks(root: URL) throws -> [String] {
        var anchors = AnchorCache()
        var broken: [String] = []
        let markdown = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"].filter { exists(root, $0) }
            + files(under: root, "docs", ending: ".md")
        for path in markdown {
            let base = (path as NSString).deletingLastPathComponent
            for (number, line) in outsideFences(try lines(root, path)) {
                let text = line.replacing(codeSpan, with: "")
                for target in unique(captures(link, in: text)) {
                    let target = target.hasPrefix("<") && target.hasSuffix(">") ? String(target.dropFirst().dropLast()) : target
                    if !resolves(target, from: path, base: base, root: root, anchors: &anchors) {
                        broken.append("\(path):\(number): \(target)")
                    }
                }
            }
        }
        for path in files(under: root, "Sources", ending: ".swift") {
            for (index, line) in try lines(root, path).enumerated() {
                guard let comment = comment(in: line) else { continue }
                let mentions = captures(mention, in: comment).filter { !$0.hasPrefix("//") }
                for target in unique(captures(link, in: comment) + mentions)
                where !resolves(target, from: path, base: "", root: root, anchors: &anchors) {
                    broken.append("\(path):\(index + 1): \(target)")
                }
            }
        }
        return broken
    }

    /// GitHub's anchor for a heading's text.
    static func slug(_ heading: String) -> String {
        var text = heading.replacing(inlineLink) { $0.output.1 }
        text = text.replacing(htmlTag, with: "")
        text = text.replacingOccurrences(of: "`", with: "")
        var slug = ""
        for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            } else if character == " " {
                slug.append("-")
            }
        }
        return slug
    }

    /// `](target)` or `](target "title")`.
    private static var link: Regex<(Substring, Substring)> { #/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/# }
    /// `some/file.md#anchor`, in a comment.
    private static var mention: Regex<(Substring, Substring)> { #/([A-Za-z0-9_.\/-]*[A-Za-z0-9_-]\.md#[A-Za-z0-9_-]+)/# }
    private static var codeSpan: Regex<Substring> { #/`[^`]*`/# }
    private static var inlineLink: Regex<(Substring, Substring)> { #/!?\[([^\]]*)\]\([^)]*\)/# }
    private static var htmlTag: Regex<Substring> { #/<[^>]+>/# }
    private static var heading: Regex<(Substring, Substring)> { #/^#{1,6}\s+(.*?)\s*#*\s*$/# }
    private static var scheme: Regex<Substring> { #/^[a-zA-Z][a-zA-Z0-9+.\-]*:/# }

    private static func captures(_ regex: Regex<(Substring, Substring)>, in text: String) -> [String] {
        text.matches(of: regex).map { String($0.output.1) }
    }

    private static func unique(_ targets: [String]) -> [String] {
        var seen = Set<String>()
        return targets.filter { seen.insert($0).inserted }
    }

    /// The comment of a Swift line: from the first `//` that is not a URL's.
    private static func comment(in line: String) -> String? {
        var from = line.startIndex
        while let slashes = line.range(of: "//", range: from..<line.endIndex) {
            if slashes.lowerBound == line.startIndex || line[line.index(before: slashes.lowerBound)] != ":" {
                return String(line[slashes.lowerBound...])
            }
            from = slashes.upperBound
        }
        return nil
    }

    private static func resolves(_ target: String, from path: String, base: String, root: URL,
                                 anchors: inout AnchorCache) -> Bool {
        if target.firstMatch(of: scheme) != nil { return true }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : ""
        var resolved = path
        if !file.isEmpty {
            resolved = normalize(base.isEmpty ? file : base + "/" + file)
            guard exists(root, resolved) else { return false }
        }
        guard !anchor.isEmpty, resolved.hasSuffix(".md") else { return true }
        return anchors.anchors(of: resolved, root: root).contains(anchor)
    }

    /// `a/b/../c/./d` as `a/c/d`; a path that leaves the root keeps its `..`.
    private static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    private static func exists(_ root: URL, _ path: String) -> Bool {
        !path.hasPrefix("..") && FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    fileprivate static func lines(_ root: URL, _ path: String) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The lines outside fenced code blocks (``` or ~~~), numbered from 1.
    fileprivate static func outsideFences(_ lines: [String]) -> [(Int, String)] {
        var fence: String?
        var kept: [(Int, String)] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let backticks = trimmed.prefix { $0 == "`" }, tildes = trimmed.prefix { $0 == "~" }
            let marker = backticks.count >= 3 ? String(backticks) : tildes.count >= 3 ? String(tildes) : nil
            if let marker {
                if let open = fence {
                    if marker.first == open.first, marker.count >= open.count { fence = nil; continue }
                } else {
                    fence = marker
                    continue
                }
            }
            if fence == nil { kept.append((index + 1, line)) }
        }
        return kept
    }

    /// Files under `folder` whose names end in `suffix`, relative to the root, sorted.
    private static func files(under root: URL, _ folder: String, ending suffix: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.map { folder + "/" + $0 }.sorted()
    }

    /// Each markdown file's anchors, read once.
    struct AnchorCache {
        private var known: [String: Set<String>] = [:]

        mutating func anchors(of path: String, root: URL) -> Set<String> {
            if let set = known[path] { return set }
            var set = Set<String>(), seen: [String: Int] = [:]
            for (_, line) in DocsLinks.outsideFences((try? DocsLinks.lines(root, path)) ?? []) {
                guard let match = line.firstMatch(of: DocsLinks.heading) else { continue }
                let slug = DocsLinks.slug(String(match.output.1))
                let count = seen[slug, default: 0]
                set.insert(count == 0 ? slug : "\(slug)-\(count)")
                seen[slug] = count + 1
            }
            known[path] = set
            return set
        }
    }
}
