import Foundation
@testable import VeilKit
import XCTest

final class DroppedFramesTests: XCTestCase {
    /// Counted from many threads, read from another: none lost.
    func testCountsFromManyThreads() {
        let dropped = DroppedFrames()
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in dropped.count() }
        XCTAssertEqual(dropped.total, 1000)
    }
}
