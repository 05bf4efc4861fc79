import Foundation
@testable import VeilKit
import XCTest

final class ThreadChannelTests: XCTestCase {
    /// A thread sends 500 items into a channel of 3; the async side gets them
    /// all, in order, and the channel never holds more than its capacity.
    func testThreadToTaskInOrderAndBounded() async {
        let channel = ThreadChannel<Int>(capacity: 3)
        let most = Shared(0)
        let sender = IOThread(name: "veil-test-send") { () -> Bool in
            for i in 0..<500 {
                guard channel.sendBlocking(i) else { return false }
                most.withLock { $0 = max($0, channel.count) }
            }
            channel.close()
            return true
        }
        var got: [Int] = []
        while let item = await channel.receive() { got.append(item) }
        let sent = await sender.value
        XCTAssertTrue(sent)
        XCTAssertEqual(got, Array(0..<500))
        XCTAssertLessThanOrEqual(most.withLock { $0 }, 3)
    }

    /// The other way: a task sends, a thread receives, blocking.
    func testTaskToThread() async {
        let channel = ThreadChannel<Int>(capacity: 2)
        let receiver = IOThread(name: "veil-test-receive") { () -> [Int] in
            var got: [Int] = []
            while let item = channel.receiveBlocking() { got.append(item) }
            return got
        }
        for i in 0..<200 { _ = await channel.send(i) }
        channel.close()
        let got = await receiver.value
        XCTAssertEqual(got, Array(0..<200))
    }

    /// `close` wakes a blocked sender (false), and receivers get what is left, then nil.
    func testCloseWakesSendersAndDrains() async throws {
        let channel = ThreadChannel<Int>(capacity: 1)
        XCTAssertTrue(channel.sendBlocking(1))
        let blocked = IOThread(name: "veil-test-blocked") { channel.sendBlocking(2) }
        try await Task.sleep(nanoseconds: 20_000_000)
        channel.close()
        let sent = await blocked.value
        XCTAssertFalse(sent, "a send waiting for room is refused at the close")
        let sentAfter = await channel.send(3)
        XCTAssertFalse(sentAfter)
        let first = await channel.receive(), second = await channel.receive()
        XCTAssertEqual(first, 1)
        XCTAssertNil(second)
    }
}
