import Foundation
import VeilKit
import XCTest

/// Veil as the array task of a real Slurm cluster: a single node brought up
/// by scripts/slurm-local from Debian's packages. Skips where that cannot be
/// done (not root, no packages, daemons refuse to start).
final class SlurmArrayTests: XCTestCase {
    private var cluster: URL?
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        try TestData.requireFaceModel()
        guard getuid() == 0 else { throw XCTSkip("Slurm test: needs root to run munged and slurmd") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("veil-slurm-\(UUID().uuidString.prefix(8))")
        let up = try Shell.run([TestData.repoRoot.appendingPathComponent("scripts/slurm-local").path, "up", dir.path])
        guard up.status == 0, let conf = up.stdout.split(separator: "=").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) else {
            throw XCTSkip("Slurm test: a local cluster could not be set up here: \(up.stderr.split(separator: "\n").last ?? "")")
        }
        cluster = dir
        environment = ProcessInfo.processInfo.environment.merging(["SLURM_CONF": conf, "VEIL": Veil.binary.path]) { $1 }
        for key in environment.keys where key.hasPrefix("SLURM_") && key != "SLURM_CONF" { environment[key] = nil }
    }

    override func tearDownWithError() throws {
        if let cluster { _ = try Shell.run([TestData.repoRoot.appendingPathComponent("scripts/slurm-local").path, "down", cluster.path]) }
    }

    /// 40 photos in nested folders, four array tasks, one task cancelled
    /// mid-way and the array resubmitted: the outputs are exactly those of one
    /// process, every photo was rendered once, `veil status` says complete.
    func testPhotoArrayEqualsOneRunAndResumesAfterScancel() throws {
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), reference = dir.appendingPathComponent("ref"), output = dir.appendingPathComponent("out")
        let relatives = try SlurmArrayTests.makePhotos(in: input, count: 40)

        let single = try Veil.run(["blur", input.path, "--out-dir", reference.path, "--threads", "1", "--jobs", "2"], timeout: 600)
        XCTAssertEqual(single.status, 0, single.stderr)

        // First submission; one task is cancelled once it has finished a photo.
        let script = TestData.repoRoot.appendingPathComponent("deploy/slurm/photos.sbatch").path
        let submit = ["sbatch", "--array=0-3", "--wait", "--parsable", "--cpus-per-task=1", "--chdir", dir.path,
                      "--output", dir.appendingPathComponent("task-%a.log").path, script, input.path, output.path]
        let victim = 3
        let first = try Shell.start(submit, environment: environment, in: dir)
        let ledger = BatchRecord(outputFolder: output).ledger(for: Shard(index: victim, count: 4)!)
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline && lines(ledger) < 1 { usleep(20_000) }
        let job = first.stdoutSoFar().trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(job.isEmpty, "sbatch printed no job id")
        let cancel = try Shell.run(["scancel", "\(job)_\(victim)"], environment: environment)
        XCTAssertEqual(cancel.status, 0, cancel.stderr)
        let firstResult = first.wait()
        XCTAssertNotEqual(firstResult.status, 0, "sbatch --wait should report the cancelled task")
        let mine = relatives.filter { Shard(index: victim, count: 4)!.contains($0) }, share = mine.count
        // What the cancelled task finished: its outputs and states in place. The kill may land
        // after a photo's files and before its ledger line; the resubmission must skip it too.
        let fm = FileManager.default
        let finished = Set(mine.filter {
            fm.fileExists(atPath: output.appendingPathComponent($0).path) && fm.fileExists(atPath: output.appendingPathComponent($0 + ".veil.json").path)
        })
        let doneBeforeCancel = finished.count
        XCTAssertGreaterThanOrEqual(doneBeforeCancel, min(1, lines(ledger)))
        XCTAssertLessThan(doneBeforeCancel, share, "the cancel came after the task had finished; nothing was resumed")
        let status1 = try Veil.run(["status", output.path, input.path])
        XCTAssertEqual(status1.status, 1, "incomplete after the cancel: \(status1.stdout)")

        // Resubmitted as it was: the other tasks write nothing, the cancelled one finishes.
        let second = try Shell.run(submit, environment: environment, in: dir, timeout: 600)
        let log = (try? String(contentsOf: dir.appendingPathComponent("task-\(victim).log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(second.status, 0, second.stderr + log)

        // Every photo rendered exactly once over both submissions, and nothing more.
        let summary = BatchSummary(record: BatchRecord(outputFolder: output), expected: relatives)
        XCTAssertTrue(summary.isComplete, "failed \(summary.failed), missing \(summary.missing)")
        XCTAssertEqual(Set(summary.renders.keys).union(finished), Set(relatives), "photos neither rendered nor finished before the cancel")
        XCTAssertEqual(summary.renders.values.filter { $0 != 1 }.count, 0, "rendered twice: \(summary.renders.filter { $0.value != 1 })")
        XCTAssertEqual(summary.skipped.count, 40 - share + doneBeforeCancel, "later submission redid work")

        // The union of the tasks' outputs is the single run's: same files, same pixels.
        let ours = try SlurmArrayTests.files(in: output), theirs = try SlurmArrayTests.files(in: reference)
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(ours.filter { !$0.hasSuffix(".veil.json") }.count, 40)
        for name in ours where !name.hasSuffix(".veil.json") {
            let a = try ImageDecoder().decode(.url(output.appendingPathComponent(name))).image.pixelBytes()
            let b = try ImageDecoder().decode(.url(reference.appendingPathComponent(name))).image.pixelBytes()
            XCTAssertTrue(a == b, "\(name): pixels differ from the single run")
        }
        let status2 = try Veil.run(["status", output.path])
        XCTAssertEqual(status2.status, 0, status2.stdout)
        XCTAssertTrue(status2.stdout.contains("complete") && !status2.stdout.contains("incomplete"), status2.stdout)
    }

    /// A clip with audio as four segment tasks and their join (deploy/slurm/video-split):
    /// the joined file has every frame at its time and the audio of one run.
    func testVideoSegmentsThenJoin() throws {
        let dir = try TestData.scratch(self)
        let input = try VideoSegmentTests.clip(dir, gop: 1000)  // one keyframe: split into 4 all the same
        let single = dir.appendingPathComponent("single.mp4"), joined = dir.appendingPathComponent("joined.mp4")
        let one = try Veil.run(["video", input.path, "-o", single.path, "--threads", "1"], timeout: 600)
        XCTAssertEqual(one.status, 0, one.stderr)
        let split = TestData.repoRoot.appendingPathComponent("deploy/slurm/video-split").path
        let run = try Shell.run([split, input.path, joined.path, "4", "--wait", "--cpus-per-task=1", "--mem=1500M", "--chdir", dir.path,
                                 "--output", dir.appendingPathComponent("task-%A-%a.log").path], environment: environment, in: dir, timeout: 600)
        let logs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".log") }
            .map { (try? String(contentsOfFile: dir.appendingPathComponent($0).path, encoding: .utf8)) ?? "" }.joined()
        XCTAssertEqual(run.status, 0, run.stderr + logs)
        let parts = try FileManager.default.contentsOfDirectory(atPath: joined.path + ".parts").sorted()
        // Each part with the state that says which part it is; the joined output with the parts' states joined.
        XCTAssertEqual(parts, (0..<4).flatMap { ["part-\($0).mp4", "part-\($0).mp4.veil.json"] })
        XCTAssertEqual(try VideoEditingState.load(from: PhotoBlurrer.sidecar(for: joined)).source.frames, 75)
        XCTAssertEqual(try FFmpegTool.frameCount(joined.path), 75)
        XCTAssertEqual(try VideoSegmentTests.frameTimes(joined), try VideoSegmentTests.frameTimes(single))
        XCTAssertEqual(try VideoSegmentTests.audioPackets(joined), try VideoSegmentTests.audioPackets(single))
        for i in 0..<4 { XCTAssertTrue(logs.contains("segment \(i)/4 (from SLURM_ARRAY_TASK_ID=\(i)"), logs) }
    }

    private func lines(_ url: URL) -> Int {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// `count` different photos made from the sample one (crops and scales), in nested folders.
    static func makePhotos(in folder: URL, count: Int) throws -> [String] {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        var relatives: [String] = []
        for i in 0..<count {
            let side = 360 + (i % 7) * 20
            let crop = try photo.cropped(to: PixelRect(x: (i % 5) * 30, y: (i / 5 % 4) * 30, width: side, height: side))
            let scaled = try crop.resized(width: 360 + i * 4, height: 360 + i * 4)
            let relative = "set\(i % 4)/\(i % 3 == 0 ? "" : "day\(i % 3)/")photo-\(i).\(i % 2 == 0 ? "jpg" : "png")"
            let url = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try ImageEncoder(format: i % 2 == 0 ? .jpeg : .png).write(scaled, to: url)
            relatives.append(relative)
        }
        return relatives.sorted()
    }

    /// The files under `folder` (Veil's bookkeeping and temporary files aside).
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            !path.split(separator: "/").contains { $0.hasPrefix(".") }
                && !((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.type] as? FileAttributeType) == .typeDirectory)
        }.sorted()
    }
}
