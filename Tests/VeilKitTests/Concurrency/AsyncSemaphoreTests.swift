import Foundation
@testable import VeilKit
import XCTest

final class AsyncSemaphoreTests: XCTestCase {
    /// Two permits, twelve tasks: never more than two inside at once, and two
    /// are inside at some point (the permits are really shared out).
    func testAtMostValueHoldersAtOnce() async throws {
        let semaphore = AsyncSemaphore(2)
        let inside = Shared((now: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await semaphore.withPermit {
                        inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try await Task.sleep(nanoseconds: 5_000_000)
                        inside.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        XCTAssertEqual(inside.withLock { $0.most }, 2)
        XCTAssertEqual(semaphore.available, 2, "every permit came back")
    }

    /// A waiter cancelled while it waits throws CancellationError at once and
    /// takes no permit: the permit given back goes to the pool, not to it.
    func testCancelledWaiterThrowsAndTakesNoPermit() async throws {
        let semaphore = AsyncSemaphore(1)
        try await semaphore.wait()
        let waiter = Task { try await semaphore.wait() }
        try await Task.sleep(nanoseconds: 20_000_000)  // let it queue
        waiter.cancel()
        do {
            try await waiter.value
            XCTFail("a cancelled waiter got a permit")
        } catch is CancellationError {}
        XCTAssertEqual(semaphore.available, 0)
        semaphore.signal()
        XCTAssertEqual(semaphore.available, 1, "the permit went back to the pool, not to the cancelled waiter")
    }

    /// A task cancelled before it asks does not take a free permit.
    func testAlreadyCancelledTaskTakesNothing() async throws {
        let semaphore = AsyncSemaphore(1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await semaphore.wait()
        }
        do {
            try await task.value
            XCTFail("a cancelled task got a permit")
        } catch is CancellationError {}
        XCTAssertEqual(semaphore.available, 1)
    }

    /// Waiters are served first come, first served; a cancelled one in the
    /// middle is skipped.
    func testWaitersServedInOrderSkippingCancelled() async throws {
        let semaphore = AsyncSemaphore(0)
        let order = Shared<[Int]>([])
        var tasks: [Task<Void, Error>] = []
        for i in 0..<4 {
            tasks.append(Task {
                try await semaphore.wait()
                order.withLock { $0.append(i) }
            })
            try await Task.sleep(nanoseconds: 10_000_000)  // queue them in this order
        }
        tasks[1].cancel()
        try await Task.sleep(nanoseconds: 10_000_000)
        for _ in 0..<3 {
            semaphore.signal()
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        for (i, task) in tasks.enumerated() where i != 1 { try await task.value }
        XCTAssertEqual(order.withLock { $0 }, [0, 2, 3])
        XCTAssertEqual(semaphore.available, 0)
    }
}
