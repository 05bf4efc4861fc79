@testable import VeilKit
import XCTest

final class CoverSwitchTests: XCTestCase {
    /// Each change is a new version the pipeline sees before its next frame; a style alone keeps the shape.
    func testEveryChangeIsANewVersion() throws {
        let live = CoverSwitch(cover: FaceCover(), shape: .disc)
        XCTAssertEqual(live.current.version, 0)
        live.set(style: .solid(RGB(255, 0, 255)), shape: .box)
        XCTAssertEqual(live.current.version, 1)
        XCTAssertEqual(live.current.shape, .box)
        XCTAssertEqual(live.current.cover.style, .solid(RGB(255, 0, 255)))
        live.set(style: try CoverStyle(spelling: "blur"))
        XCTAssertEqual(live.current.version, 2)
        XCTAssertEqual(live.current.shape, .box, "a style alone keeps the shape")
    }
}
