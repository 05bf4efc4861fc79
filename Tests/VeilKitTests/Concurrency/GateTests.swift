import Foundation
import VeilKit
import XCTest

final class GateTests: XCTestCase {
    /// One slot, one waiter allowed: the second caller waits and gets the
    /// slot when it is released; a third, with a waiter already queued, is
    /// refused at once.
    func testSlotsWaitersAndRefusals() async throws {
        let gate = Gate(limit: 1, maxWaiting: 1)
        let first = await gate.acquire(wait: 0)
        XCTAssertTrue(first)
        let second = Task { await gate.acquire(wait: 10) }
        try await Task.sleep(nanoseconds: 20_000_000)
        let third = await gate.acquire(wait: 10)
        XCTAssertFalse(third, "too many waiting: refused without waiting")
        await gate.release()
        let secondGot = await second.value
        XCTAssertTrue(secondGot)
        let none = await gate.acquire(wait: 0)
        XCTAssertFalse(none, "the slot passed to the waiter, not back to the pool")
    }

    /// A waiter gives up after its wait, and the slot it did not get stays with its holder.
    func testWaitExpires() async {
        let gate = Gate(limit: 1, maxWaiting: 4)
        _ = await gate.acquire(wait: 0)
        let start = Date()
        let got = await gate.acquire(wait: 0.05)
        XCTAssertFalse(got)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.04)
        await gate.release()
        let again = await gate.acquire(wait: 0)
        XCTAssertTrue(again, "released with no waiter: back to the pool")
    }

    /// With the slot's hold measured (10 s), a caller whose turn would come
    /// within its wait (15 s) waits; the next, whose turn would come after
    /// 20 s, is refused at once, and told how long the queue is.
    func testATurnThatCannotComeWithinTheWaitIsRefusedAtOnce() async throws {
        let gate = Gate(limit: 1, maxWaiting: 64)
        let unmeasured = await gate.expectedWait()
        XCTAssertEqual(unmeasured, 0, "a free slot: no wait")
        _ = await gate.acquire(wait: 0)
        let before = await gate.expectedWait()
        XCTAssertNil(before, "nothing measured yet")
        await gate.release(heldFor: 10)
        _ = await gate.acquire(wait: 0)
        let expected = await gate.expectedWait()
        XCTAssertEqual(expected, 10)
        let second = Task { await gate.acquire(wait: 15) }
        try await Task.sleep(nanoseconds: 50_000_000)
        let queued = await gate.expectedWait()
        XCTAssertEqual(queued, 20, "one waiting before it: two turns")
        let start = Date()
        let third = await gate.acquire(wait: 15)
        XCTAssertFalse(third, "its turn would come after 20 s")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "refused at once, not after its wait")
        await gate.release(heldFor: 10)
        let secondGot = await second.value
        XCTAssertTrue(secondGot, "the one whose turn could come got the slot")
    }
}
