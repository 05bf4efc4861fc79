import Foundation
@testable import VeilKit
import XCTest

/// `$VEIL_HOME`, then `$XDG_CACHE_HOME/veil`, then `$HOME/.cache/veil`, then the passwd home (issue 12, item 9).
final class VeilHomeTests: XCTestCase {
    func testOrderOfTheEnvironment() {
        XCTAssertEqual(VeilHome.resolve(["VEIL_HOME": "/v", "XDG_CACHE_HOME": "/x", "HOME": "/h"]).url.path, "/v")
        XCTAssertEqual(VeilHome.resolve(["VEIL_HOME": "", "XDG_CACHE_HOME": "/x", "HOME": "/h"]).url.path, "/x/veil")
        XCTAssertEqual(VeilHome.resolve(["XDG_CACHE_HOME": "", "HOME": "/fresh/home"]).url.path, "/fresh/home/.cache/veil")
        XCTAssertEqual(VeilHome.resolve([:]).url.path, VeilHome.passwdHome() + "/.cache/veil")
    }
}
