import Foundation
@testable import VeilKit
import XCTest

/// An output folder that cannot be made says why in one line.
final class FolderCreationTests: XCTestCase {
    func testAFileInTheWayIsNamed() throws {
        let dir = try TestData.scratch(self)
        let file = dir.appendingPathComponent("photos")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try FolderCreation.make(file.appendingPathComponent("out/.veil"), for: "a.png")) { error in
            XCTAssertTrue("\(error)".contains("\(file.path) is a file, not a folder"), "\(error)")
        }
    }

    /// As root every folder is writable; as another user a folder of root's is not,
    /// and the message names both uids and the way to run a container as oneself.
    func testAFolderOfAnotherUserIsNamedWithTheWayOut() throws {
        let dir = try TestData.scratch(self)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        guard getuid() != 0 else {
            XCTAssertEqual(FolderCreation.reason(dir.appendingPathComponent("out")), "cannot create the folder \(dir.appendingPathComponent("out").path)")
            return
        }
        XCTAssertTrue(FolderCreation.reason(dir.appendingPathComponent("out")).contains("podman run --user $(id -u):$(id -g)"))
    }
}
