import Foundation
import Synchronization
@testable import VeilKit
import XCTest

final class RecordingStopTests: XCTestCase {
    /// Asked from many threads at once, the actions run once; an action added
    /// after the request runs at once.
    func testActionsRunOnceAndLateActionsAtOnce() {
        let stop = RecordingStop()
        let runs = Mutex(0)
        stop.onRequest { runs.withLock { $0 += 1 } }
        XCTAssertFalse(stop.isRequested)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in stop.request() }
        XCTAssertTrue(stop.isRequested)
        XCTAssertEqual(runs.withLock { $0 }, 1)
        stop.onRequest { runs.withLock { $0 += 10 } }
        XCTAssertEqual(runs.withLock { $0 }, 11)
    }
}
