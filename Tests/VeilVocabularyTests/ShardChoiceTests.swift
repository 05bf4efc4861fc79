import VeilKit
import VeilVocabulary
import XCTest

/// Options read from a dictionary, as the CLI's `Arguments` would give them.
private struct Given: OptionSource {
    var options: [String: String] = [:]
    func values(_ name: String) -> [String] { options[name].map { [$0] } ?? [] }
    func flag(_ name: String) -> Bool { false }
    func spelling(_ name: String) -> String { "--" + name }
}

final class ShardChoiceTests: XCTestCase {
    func testFlagParsesAndWinsOverTheEnvironment() throws {
        let env = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]
        let choice = try XCTUnwrap(ShardChoice.resolve(Given(options: ["shard": "1/4"]), environment: env))
        XCTAssertEqual(choice.shard, Shard(index: 1, count: 4))
        XCTAssertEqual(choice.origin, "--shard 1/4")
        XCTAssertNil(try ShardChoice.resolve(Given(), environment: [:]))
    }

    func testBadSpecsAreOneLineInputErrors() {
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/4/2", "1/", "/4", "nan/4", "1/1e9"] {
            XCTAssertThrowsError(try ShardChoice.resolve(Given(options: ["shard": bad]), environment: [:]), bad) { error in
                XCTAssertTrue(error is InputError, bad)
                XCTAssertTrue("\(error)".hasPrefix("--shard"), "\(error)")
            }
        }
    }

    func testEngines() throws {
        func shard(_ env: [String: String]) throws -> Shard? { try ShardChoice.resolve(Given(), environment: env)?.shard }
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"]), Shard(index: 3, count: 4))
        // --array=1-4: numbered from 1.
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"]), Shard(index: 0, count: 4))
        // --array=0-6:2 → tasks 0, 2, 4, 6.
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6"]),
                       Shard(index: 2, count: 4))
        XCTAssertEqual(try shard(["JOB_COMPLETION_INDEX": "2", "VEIL_SHARD_COUNT": "5"]), Shard(index: 2, count: 5))
        XCTAssertEqual(try shard(["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "2"]), Shard(index: 0, count: 2))
        for bad in [["SLURM_ARRAY_TASK_ID": "1"], ["JOB_COMPLETION_INDEX": "0"], ["JOB_COMPLETION_INDEX": "5", "VEIL_SHARD_COUNT": "5"],
                    ["AWS_BATCH_JOB_ARRAY_INDEX": "x", "AWS_BATCH_JOB_ARRAY_SIZE": "2"], ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "4"]] {
            XCTAssertThrowsError(try shard(bad), "\(bad)") { XCTAssertTrue($0 is InputError) }
        }
    }

    /// Membership depends on the path only: the same path lands in the same
    /// shard whatever else is listed, every path in exactly one shard, and the
    /// shards are about even.
    func testAssignmentIsStableAndEven() {
        let paths = (0..<4000).map { "street/\($0 / 100)/IMG_\($0).jpg" }
        var sizes = [0, 0, 0, 0]
        for path in paths {
            let owners = (0..<4).filter { Shard(index: $0, count: 4)!.contains(path) }
            XCTAssertEqual(owners.count, 1)
            sizes[owners[0]] += 1
        }
        XCTAssertTrue(sizes.allSatisfy { abs($0 - 1000) < 100 }, "\(sizes)")
        // Pinned: the first 8 bytes of sha256("street/3/IMG_317.jpg") mod 1000, as any
        // sha256 tool gives it. A change here would move finished work between
        // the tasks of a job resubmitted with a newer Veil.
        XCTAssertEqual(Shard.bucket(of: "street/3/IMG_317.jpg", among: 1000), 139)
        XCTAssertTrue(Shard.whole.contains("anything"))
    }
}
