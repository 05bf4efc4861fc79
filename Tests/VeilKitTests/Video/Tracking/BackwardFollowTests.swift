@testable import VeilKit
import XCTest

/// The backward pass keeps little of each frame: its windows stay within
/// their budget however large the frame or the box, and reach far enough
/// that a step of the follower never reads past what was kept.
final class BackwardFollowTests: XCTestCase {
    func testWindowsStayWithinTheirBudgetAndHoldTheFollowersReach() {
        let frames = [PixelSize(width: 960, height: 540), PixelSize(width: 3840, height: 2160), PixelSize(width: 8192, height: 4320)]
        for frame in frames {
            for side in [12.0, 40, 300, 2000] where side < Double(frame.height) {
                let box = ImageRect(x: Double(frame.width) / 2, y: Double(frame.height) / 3, width: side, height: side)
                for (velocity, unknown) in [((0.0, 0.0), true), ((-14.5, -4.0), false), ((30.0, 0.0), false)] {
                    let (length, area) = BackwardFollow.window(box: box, velocity: velocity, end: 99, frame: frame, unknownMotion: unknown)
                    XCTAssertGreaterThanOrEqual(length, 1)
                    XCTAssertLessThanOrEqual(length, unknown ? 8 : BackwardFollow.longestWindow)
                    XCTAssertTrue(length == 1 || area.width * area.height * length <= BackwardFollow.windowBytes,
                                  "\(frame) box \(side): \(length) frames of \(area.width)x\(area.height)")
                    let crop = GreyCrop([UInt8](repeating: 0, count: frame.width * frame.height * 3), frame: frame, area: area)
                    XCTAssertTrue(crop.reaches(around: box), "\(frame) box \(side): the first step reads only what was kept")
                }
            }
        }
    }
}
