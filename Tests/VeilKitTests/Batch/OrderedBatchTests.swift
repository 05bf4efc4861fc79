import VeilKit
import XCTest

final class OrderedBatchTests: XCTestCase {
    actor Gauge {
        var now = 0, peak = 0
        func enter() { now += 1; peak = max(peak, now) }
        func leave() { now -= 1 }
    }

    /// Results arrive in input order although later inputs finish first, never
    /// more than `jobs` run at once, and a failure does not stop the others.
    func testInputOrderBoundedConcurrencyAndFailuresCarriedOn() async throws {
        let gauge = Gauge()
        var delivered: [Int] = []
        var failed: [Int] = []
        try await processInOrder(Array(0..<24), jobs: 3, work: { i -> Int in
            await gauge.enter()
            // Early inputs are slow, so later ones overtake them.
            try await Task.sleep(nanoseconds: UInt64((24 - i) % 5) * 3_000_000)
            await gauge.leave()
            if i == 7 { throw VeilError.invalidArgument("bad input 7") }
            return i * i
        }, deliver: { index, input, result in
            XCTAssertEqual(index, input)
            switch result {
            case let .success(value): XCTAssertEqual(value, input * input); delivered.append(index)
            case .failure: failed.append(index)
            }
        })
        XCTAssertEqual(delivered + failed, Array(0..<24).filter { $0 != 7 } + [7])
        XCTAssertEqual(delivered, Array(0..<24).filter { $0 != 7 })
        let peak = await gauge.peak
        XCTAssertLessThanOrEqual(peak, 3)
        XCTAssertGreaterThan(peak, 1, "ran one at a time")
    }
}
