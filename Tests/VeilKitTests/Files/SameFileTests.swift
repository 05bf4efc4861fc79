import Foundation
@testable import VeilKit
import XCTest

final class SameFileTests: XCTestCase {
    func testSymlinksHardLinksAndSpellingsAreTheSameFile() throws {
        let dir = try TestData.scratch(self)
        let file = dir.appendingPathComponent("a.mp4").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let link = dir.appendingPathComponent("link.mp4").path, hard = dir.appendingPathComponent("hard.mp4").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "a.mp4")
        XCTAssertEqual(Foundation.link(file, hard), 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let folderLink = dir.appendingPathComponent("alias").path
        try FileManager.default.createSymbolicLink(atPath: folderLink, withDestinationPath: dir.path)
        for same in [link, hard, dir.path + "/sub/../a.mp4", dir.path + "//./a.mp4", folderLink + "/a.mp4"] {
            XCTAssertTrue(SameFile.test(file, same), same)
            XCTAssertThrowsError(try SameFile.refuse(output: same, input: file)) { error in
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        let cwd = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        XCTAssertTrue(SameFile.test(file, "a.mp4"), "relative spelling")
        for other in [dir.appendingPathComponent("b.mp4").path, dir.appendingPathComponent("sub/a.mp4").path, "udp://127.0.0.1:1234"] {
            XCTAssertFalse(SameFile.test(file, other), other)
            XCTAssertNoThrow(try SameFile.refuse(output: other, input: file))
        }
    }
}
