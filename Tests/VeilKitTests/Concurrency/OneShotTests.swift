import Foundation
@testable import VeilKit
import XCTest

final class OneShotTests: XCTestCase {
    /// Waiters from before and after the value is set all get the first value;
    /// a second `fulfil` changes nothing.
    func testFirstFulfilWinsForEveryWaiter() async throws {
        let shot = OneShot<Int>()
        let early = (0..<5).map { _ in Task { await shot.value } }
        try await Task.sleep(nanoseconds: 20_000_000)
        Thread.detachNewThread { shot.fulfil(7) }  // from a thread outside the pool
        for task in early { let value = await task.value; XCTAssertEqual(value, 7) }
        shot.fulfil(8)
        let late = await shot.value
        XCTAssertEqual(late, 7)
    }
}
