import Foundation
import VeilKit
import XCTest

/// `veil blur` as array tasks without a cluster: the engines' environment
/// variables set by hand, a task killed mid-way, the Kubernetes manifest's
/// own command and environment.
final class ShardedBatchTests: XCTestCase {
    private func veil(_ args: [String], env: [String: String] = [:]) throws -> Shell.Result {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX" }
        environment.merge(env) { $1 }
        return try Shell.run([Veil.binary.path] + args, environment: environment, timeout: 300)
    }

    private func compare(_ output: URL, with reference: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let ours = try SlurmArrayTests.files(in: output), theirs = try SlurmArrayTests.files(in: reference)
        XCTAssertEqual(ours, theirs, file: file, line: line)
        for name in ours where !name.hasSuffix(".veil.json") {
            let a = try ImageDecoder().decode(.url(output.appendingPathComponent(name))).image.pixelBytes()
            let b = try ImageDecoder().decode(.url(reference.appendingPathComponent(name))).image.pixelBytes()
            XCTAssertTrue(a == b, "\(name): pixels differ from the single run", file: file, line: line)
        }
    }

    /// Three Slurm array tasks' environments and no flags: between them exactly
    /// one run's outputs, each photo written once; a task run again writes nothing.
    func testThreeSlurmTasksFromTheEnvironmentEqualOneRun() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), reference = dir.appendingPathComponent("ref"), output = dir.appendingPathComponent("out")
        let relatives = try SlurmArrayTests.makePhotos(in: input, count: 12)
        XCTAssertEqual(try veil(["blur", input.path, "--out-dir", reference.path, "--threads", "1"]).status, 0)

        for task in 0..<3 {
            let run = try veil(["blur", input.path, "--out-dir", output.path, "--threads", "1"],
                               env: ["SLURM_ARRAY_TASK_ID": "\(task + 1)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("shard \(task)/3 (from SLURM_ARRAY_TASK_ID=\(task + 1)"), run.stderr)
        }
        try compare(output, with: reference)
        let summary = BatchSummary(record: BatchRecord(outputFolder: output))
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(summary.done.sorted(), relatives)
        XCTAssertTrue(summary.renders.values.allSatisfy { $0 == 1 })

        // Again: nothing rendered, nothing written.
        let before = try modificationDates(output)
        let again = try veil(["blur", input.path, "--out-dir", output.path],
                             env: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 photos"), again.stdout)
        XCTAssertEqual(try modificationDates(output), before)
        XCTAssertEqual(try veil(["status", output.path]).status, 0)

        // --force renders the task's photos again; --shard wins over the environment.
        let forced = try veil(["blur", input.path, "--out-dir", output.path, "--force", "--shard", "0/3"],
                              env: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"])
        XCTAssertTrue(forced.stderr.contains("shard 0/3 (from --shard 0/3)"), forced.stderr)
        let share = relatives.filter { Shard(index: 0, count: 3)!.contains($0) }.count
        XCTAssertTrue(forced.stdout.contains("\(share) photos"), forced.stdout)
    }

    /// A task killed at any moment (SIGKILL, mid-photo) and run again finishes
    /// without redoing finished photos and leaves no partial file under a final name.
    func testKilledTaskResumesWithoutRedoing() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), output = dir.appendingPathComponent("out")
        let relatives = try SlurmArrayTests.makePhotos(in: input, count: 10)
        let manifest = dir.appendingPathComponent("list.txt")
        try relatives.map { "./" + $0 }.joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)

        let args = [Veil.binary.path, "blur", "--inputs-from", manifest.path, "--out-dir", output.path, "--jobs", "1", "--threads", "1"]
        let first = try Shell.start(args, in: input)
        let ledger = BatchRecord(outputFolder: output).ledger(for: .whole)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && ((try? String(contentsOf: ledger, encoding: .utf8)) ?? "").split(separator: "\n").count < 3 { usleep(10_000) }
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.wait()
        let status = try veil(["status", output.path, "--inputs-from", manifest.path])
        XCTAssertEqual(status.status, 1, status.stdout)

        let second = try Shell.run(args, in: input, timeout: 300)
        XCTAssertEqual(second.status, 0, second.stderr)
        let summary = BatchSummary(record: BatchRecord(outputFolder: output), expected: relatives)
        XCTAssertTrue(summary.isComplete, "\(summary.missing) \(summary.failed)")
        XCTAssertEqual(summary.renders.values.filter { $0 != 1 }.count, 0, "rendered twice: \(summary.renders)")
        XCTAssertGreaterThanOrEqual(summary.skipped.count, 3)
        for relative in relatives {  // every final file decodes whole
            XCTAssertNoThrow(try ImageDecoder().decode(.url(output.appendingPathComponent(relative))).image.pixelBytes(), relative)
        }
        let status2 = try Shell.run([Veil.binary.path, "status", output.path, "--inputs-from", manifest.path], in: input)
        XCTAssertEqual(status2.status, 0, status2.stdout)
    }

    /// The Kubernetes Indexed Job in deploy/k8s: its completions, its shard
    /// count and its command, run once per index with the environment
    /// Kubernetes would give each pod, cover every photo exactly once.
    func testKubernetesManifestRunsAsItsIndexedJob() throws {
        try TestData.requireFaceModel()
        let manifest = TestData.repoRoot.appendingPathComponent("deploy/k8s/veil-photos-job.yaml")
        let parsed = try Shell.run(["python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", manifest.path])
        guard parsed.status == 0 else { throw XCTSkip("PyYAML is not installed (python3-yaml): \(parsed.stderr)") }
        let job = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(job["kind"] as? String, "Job")
        let spec = try XCTUnwrap(job["spec"] as? [String: Any])
        XCTAssertEqual(spec["completionMode"] as? String, "Indexed")
        let completions = try XCTUnwrap(spec["completions"] as? Int)
        let podSpec = try XCTUnwrap((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try XCTUnwrap((podSpec["containers"] as? [[String: Any]])?.first)
        let command = try XCTUnwrap(container["command"] as? [String])
        let env = Dictionary(uniqueKeysWithValues: try XCTUnwrap(container["env"] as? [[String: String]]).map { ($0["name"]!, $0["value"]!) })
        XCTAssertEqual(env["VEIL_SHARD_COUNT"], "\(completions)", "VEIL_SHARD_COUNT must equal completions")
        XCTAssertEqual(command.first, "veil")

        let dir = try TestData.scratch(self)
        let data = dir.appendingPathComponent("data")
        let relatives = try SlurmArrayTests.makePhotos(in: data.appendingPathComponent("in"), count: 12)
        let args = command.dropFirst().map { $0.replacingOccurrences(of: "/data/", with: data.path + "/") }
        for index in 0..<completions {
            let run = try veil(Array(args), env: env.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { $1 })
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("shard \(index)/\(completions) (from JOB_COMPLETION_INDEX=\(index) VEIL_SHARD_COUNT=\(completions))"), run.stderr)
        }
        let out = try XCTUnwrap(args.firstIndex(of: "--out-dir").map { URL(fileURLWithPath: args[$0 + 1]) })
        let summary = BatchSummary(record: BatchRecord(outputFolder: out))
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(summary.done.sorted(), relatives)
        XCTAssertEqual(try veil(["status", out.path]).status, 0)
    }

    private func modificationDates(_ folder: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where !path.hasPrefix(".veil") {
            dates[path] = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.modificationDate] as? Date
        }
        return dates
    }
}
