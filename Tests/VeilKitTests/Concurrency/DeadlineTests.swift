import Foundation
import Synchronization
@testable import VeilKit
import XCTest

final class DeadlineTests: XCTestCase {
    /// Work that ends in time gives its value.
    func testWorkInTimeGivesItsValue() async {
        let value = await withDeadline(5) { 42 }
        XCTAssertEqual(value, 42)
    }

    /// Work past the deadline: nil at the deadline, and the work is cancelled
    /// (it sees it and stops), not left running.
    func testLateWorkIsCancelledAndAnswersNil() async {
        let stopped = OneShot<Bool>()
        let started = Date()
        let value: Int? = await withDeadline(0.1) {
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 5_000_000) }
            stopped.fulfil(true)
            return 1
        }
        XCTAssertNil(value)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        let wasCancelled = await stopped.value
        XCTAssertTrue(wasCancelled)
    }

    /// The timer fires while every thread of the cooperative pool is busy
    /// with CPU-bound work that never suspends (a server saturated by
    /// inference): its queue is its own.
    func testTheDeadlineFiresWhileThePoolIsSaturated() async {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let release = Flag()
        let busy = (0..<cores).map { _ in Task.detached { while !release.isSet { } } }
        let started = Date()
        let value: Int? = await withDeadline(0.2) {
            while !release.isSet { }
            return 1
        }
        release.set()
        for task in busy { await task.value }
        XCTAssertNil(value)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}

/// A flag set from one task and polled by others.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
