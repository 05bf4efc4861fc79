import Foundation
import VeilKit
import XCTest

/// `veil serve` writes nothing outside its state folder and `$VEIL_HOME`
/// (issue 28, as `NothingOutsideTheOutputsTests` for the other commands):
/// started with a fresh, empty HOME, it answers a photo covered and a
/// subject lifted, stops on SIGTERM, and HOME is still empty.
final class ServeFreshHomeTests: XCTestCase {
    func testServeLeavesAFreshHomeEmpty() throws {
        let home = try TestData.scratch(self).appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let server = try ServeProcess(self, [], environment: ["HOME": home.path, "VEIL_HOME": VeilHome.default.url.path,
                                                             "XDG_CACHE_HOME": "", "ORT_DISABLE_TELEMETRY": ""])
        let photo = try Data(contentsOf: TestData.astronaut())
        XCTAssertEqual(try server.request("POST", "/v1/blur", body: photo).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/lift", body: photo).status, 200)
        server.process.terminate()
        server.process.waitUntilExit()
        let left = FileManager.default.enumerator(atPath: home.path).map { $0.compactMap { $0 as? String } } ?? []
        XCTAssertEqual(left, [], "veil serve wrote into HOME")
    }
}
