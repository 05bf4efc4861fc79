import VeilKit
import XCTest

/// Latency quantiles by the nearest-rank rule: on 100 frames p99 is the
/// second slowest, not the slowest (which is reported as the maximum).
final class LatencyQuantileTests: XCTestCase {
    func testNearestRank() {
        let hundred = (1...100).map(Double.init)
        XCTAssertEqual(hundred.nearestRank(0.99), 99)
        XCTAssertEqual(hundred.nearestRank(0.5), 50)
        XCTAssertEqual(hundred.nearestRank(1), 100)
        XCTAssertEqual(hundred.nearestRank(0), 1)
        let thousand = (1...1000).map(Double.init)
        XCTAssertEqual(thousand.nearestRank(0.99), 990)
        XCTAssertEqual([7.0].nearestRank(0.99), 7)
        XCTAssertEqual([3.0, 9.0].nearestRank(0.5), 3)
        XCTAssertNil([Double]().nearestRank(0.5))
    }
}
