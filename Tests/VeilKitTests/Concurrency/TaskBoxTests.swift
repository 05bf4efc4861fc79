import Foundation
import VeilKit
import XCTest

final class TaskBoxTests: XCTestCase {
    /// Cancelled before the task is set: the task is cancelled as it goes in.
    func testCancelBeforeTheTaskIsSet() async {
        let box = TaskBox()
        box.cancel()
        let task = Task { while !Task.isCancelled { await Task.yield() } }
        box.task = task
        await task.value  // returns only because it was cancelled
        XCTAssertTrue(task.isCancelled)
    }

    func testCancelAfterTheTaskIsSet() async {
        let box = TaskBox()
        let task = Task { while !Task.isCancelled { await Task.yield() } }
        box.task = task
        XCTAssertFalse(task.isCancelled)
        box.cancel()
        await task.value
        XCTAssertTrue(task.isCancelled)
    }
}
