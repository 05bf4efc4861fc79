@testable import VeilKit
import XCTest

/// What the reader decides from a stream's header, in Swift: the rate a
/// video is taken at and the quarter turn that shows it upright.
final class VideoInfoPolicyTests: XCTestCase {
    func testTheRateIsTheAverageElseTheBaseElse25() {
        XCTAssertTrue(VideoReader.rate(average: (30000, 1001), base: (30, 1)) == (30000, 1001))
        XCTAssertTrue(VideoReader.rate(average: (0, 0), base: (50, 1)) == (50, 1))
        XCTAssertTrue(VideoReader.rate(average: (0, 1), base: (0, 0)) == (25, 1))
    }

    func testADisplayAngleIsTheNearestQuarterTurn() {
        XCTAssertEqual(VideoReader.quarterTurns(.nan), 0, "no display matrix")
        XCTAssertEqual(VideoReader.quarterTurns(90), 90)
        XCTAssertEqual(VideoReader.quarterTurns(-90), 270, "a phone held the other way")
        XCTAssertEqual(VideoReader.quarterTurns(179.6), 180)
        XCTAssertEqual(VideoReader.quarterTurns(44), 0)
        XCTAssertEqual(VideoReader.quarterTurns(46), 90)
        XCTAssertEqual(VideoReader.quarterTurns(-360), 0)
        XCTAssertEqual(VideoReader.quarterTurns(450), 90)
    }
}
