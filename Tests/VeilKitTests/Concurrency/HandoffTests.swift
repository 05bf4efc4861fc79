import Foundation
@testable import VeilKit
import XCTest

final class HandoffTests: XCTestCase {
    /// A hundred racers from as many tasks: exactly one is handed the value.
    func testOnlyTheFirstTakerGetsTheValue() async {
        let box = Handoff(42)
        let winners = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<100 { group.addTask { box.take() } }
            return await group.reduce(into: [Int]()) { if let v = $1 { $0.append(v) } }
        }
        XCTAssertEqual(winners, [42])
    }

    /// Taken, the value is no longer held by the box: a box that outlives its
    /// answer (a timer's capture) does not keep the answer alive.
    func testTheBoxLetsGoOfTheValueWhenTaken() {
        final class Payload {}
        var payload: Payload? = Payload()
        weak let watched = payload
        let box = Handoff(payload!)
        payload = nil
        XCTAssertNotNil(watched, "the box holds the value until it is taken")
        var taken = box.take()
        XCTAssertNotNil(taken)
        taken = nil
        XCTAssertNil(watched, "the box still held the value after handing it out")
        XCTAssertNil(box.take())
    }
}
