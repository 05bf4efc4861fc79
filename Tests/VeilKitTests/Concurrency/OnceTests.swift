import Foundation
@testable import VeilKit
import XCTest

final class OnceTests: XCTestCase {
    /// A hundred racers from as many tasks: one body runs, one caller is told it was first.
    func testOnlyTheFirstBodyRuns() async {
        let once = Once()
        let ran = Shared(0)
        let firsts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 { group.addTask { once.run { ran.withLock { $0 += 1 } } } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(ran.withLock { $0 }, 1)
        XCTAssertEqual(firsts, 1)
    }
}
