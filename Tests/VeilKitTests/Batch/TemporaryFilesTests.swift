import Foundation
@testable import VeilKit
import XCTest

/// Temporary files of dead runs are swept; a live writer's, or a fresh one's, are not.
final class TemporaryFilesTests: XCTestCase {
    func testSweepRemovesOnlyStaleFilesOfDeadProcesses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("veil-tmpfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A process id that is not running: a child that has exited.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let names = ["a/.photo.jpg.\(dead).12345.tmp", "a/b/.clip.mp4.\(dead).part", ".veil/.shard-0-of-1.txt.\(dead).tmp",
                     "a/.fresh.jpg.\(dead).777.tmp", "a/.live.jpg.\(getpid()).1.tmp", "a/photo.jpg", "a/.hidden-but-ours-not.txt"]
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".veil"), withIntermediateDirectories: true)
        let old = Date().addingTimeInterval(-120)
        for name in names {
            let url = dir.appendingPathComponent(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("x".utf8)))
            if !name.contains("fresh") { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path) }
        }
        XCTAssertEqual(TemporaryFiles.sweepStale(in: dir), 3)
        let left = Set(try FileManager.default.subpathsOfDirectory(atPath: dir.path))
        let files: Set<String> = left.filter { !$0.hasSuffix("a") && !$0.hasSuffix("b") && $0 != ".veil" }
        XCTAssertEqual(files, ["a/.fresh.jpg.\(dead).777.tmp", "a/.live.jpg.\(getpid()).1.tmp", "a/photo.jpg", "a/.hidden-but-ours-not.txt"])
    }
}
