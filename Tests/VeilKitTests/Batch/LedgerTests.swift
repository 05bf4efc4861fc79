import Foundation
@testable import VeilKit
import XCTest

final class LedgerTests: XCTestCase {
    /// A line cut short by a kill is ended by the next writer and skipped by
    /// readers; the lines around it are kept.
    func testTornLineIsSkippedAndLaterLinesParse() throws {
        let dir = try TestData.scratch(self)
        let record = BatchRecord(outputFolder: dir)
        let shard = Shard(index: 1, count: 2)!
        try LedgerWriter(record.ledger(for: shard)).append(LedgerEntry(input: "a.jpg", output: "/o/a.jpg", status: .done, seconds: 1, shard: shard))
        let handle = try FileHandle(forWritingTo: record.ledger(for: shard))
        try handle.seekToEnd()
        handle.write(Data(#"{"input":"b.jpg","out"#.utf8))
        try handle.close()
        try LedgerWriter(record.ledger(for: shard)).append(LedgerEntry(input: "c.jpg", output: nil, status: .failed, error: "bad", seconds: 0, shard: shard))
        XCTAssertEqual(LedgerReader.entries(in: record).map(\.input), ["a.jpg", "c.jpg"])
    }

    /// Status from the plans: an input with no line is missing, a shard with no
    /// published plan is unlisted, the latest line of an input wins.
    func testSummaryFromPlans() throws {
        let dir = try TestData.scratch(self)
        let inputs = (0..<20).map { "d/\($0).jpg" }
        for index in 0..<2 {
            let task = try BatchTask(shard: Shard(index: index, count: 3)!, outputFolder: dir)
            let kept = inputs.filter { task.take($0) }
            try task.publish(plan: kept)
            for input in kept {
                try task.record(LedgerEntry(input: input, output: "/o/\(input)", status: input == "d/0.jpg" ? .failed : .done,
                                            seconds: 0.1, shard: task.shard))
            }
        }
        var summary = BatchSummary(record: BatchRecord(outputFolder: dir))
        XCTAssertEqual(summary.unlisted, [Shard(index: 2, count: 3)!])
        XCTAssertFalse(summary.isComplete)
        let third = try BatchTask(shard: Shard(index: 2, count: 3)!, outputFolder: dir)
        let mine = inputs.filter { third.take($0) }
        // Started, its plan not yet published: still unlisted.
        XCTAssertEqual(BatchSummary(record: BatchRecord(outputFolder: dir)).unlisted, [Shard(index: 2, count: 3)!])
        try third.publish(plan: mine)
        summary = BatchSummary(record: BatchRecord(outputFolder: dir))
        XCTAssertEqual(Set(summary.missing), Set(mine))
        XCTAssertEqual(summary.done.count + summary.failed.count + summary.missing.count, 20)
        XCTAssertEqual(summary.failed.map(\.input), mine.contains("d/0.jpg") ? [] : ["d/0.jpg"])
        summary = BatchSummary(record: BatchRecord(outputFolder: dir), expected: ["d/1.jpg", "elsewhere.jpg"])
        XCTAssertEqual(summary.missing, mine.contains("d/1.jpg") ? ["d/1.jpg", "elsewhere.jpg"] : ["elsewhere.jpg"])
    }
}
