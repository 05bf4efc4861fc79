import Foundation
@testable import VeilKit
import XCTest

final class IOThreadTests: XCTestCase {
    /// Six bodies that each block until all six are running at once: they
    /// can only meet on threads of their own (the cooperative pool has one
    /// thread per core, two here), and each result is awaited.
    func testBlockingBodiesRunOnThreadsOfTheirOwn() async {
        let count = max(6, ProcessInfo.processInfo.activeProcessorCount + 2)
        let arrived = Shared(0)
        let threads = (0..<count).map { i in
            IOThread(name: "veil-test-io-\(i)") { () -> Bool in
                arrived.withLock { $0 += 1 }
                for _ in 0..<500 {  // 5 s at most
                    if arrived.withLock({ $0 }) == count { return true }
                    usleep(10_000)  // a blocking call, harmless here
                }
                return false
            }
        }
        for thread in threads {
            let met = await thread.value
            XCTAssertTrue(met)
        }
    }
}
