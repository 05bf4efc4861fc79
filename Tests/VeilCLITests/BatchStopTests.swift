import Foundation
import VeilKit
import XCTest

/// A batch stopped by SIGINT or SIGTERM at a moment of chance: the record
/// tells the truth at once (`veil status`: incomplete, with the counts,
/// exit 1), the log ends with whole lines, no temporary file is left, and
/// the same command again completes it.
final class BatchStopTests: XCTestCase {
    /// What a stopped run may leave behind and must not: hidden temporary files.
    static func temporaryFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".part") }
    }

    /// `veil status`'s counts line: inputs, done, missing.
    static func counts(_ status: String) -> (inputs: Int, done: Int, missing: Int)? {
        guard let line = status.split(separator: "\n").first(where: { $0.contains(" inputs: ") }) else { return nil }
        func number(before word: String) -> Int? {
            guard let r = line.range(of: " " + word) else { return nil }
            return Int(line[..<r.lowerBound].split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," }).last ?? "")
        }
        guard let inputs = number(before: "inputs"), let done = number(before: "done,"), let missing = number(before: "missing") else { return nil }
        return (inputs, done, missing)
    }

    /// Starts `args`, waits until the ledger has `lines` lines and then a
    /// little more (a random moment, mid-item or between items), sends `signal`.
    private func stop(_ args: [String], ledger: URL, after lines: Int, signal: Int32) throws -> Shell.Result {
        let run = try Shell.start([Veil.binary.path] + args)
        let deadline = Date().addingTimeInterval(240)
        while Date() < deadline, run.process.isRunning,
              ((try? String(contentsOf: ledger, encoding: .utf8)) ?? "").split(separator: "\n").count < lines { usleep(5_000) }
        usleep(UInt32.random(in: 0...150_000))
        XCTAssertTrue(run.process.isRunning, "the batch ended before it could be stopped")
        kill(run.process.processIdentifier, signal)
        return run.wait()
    }

    private func assertStoppedThenCompleted(_ args: [String], output: URL, total: Int, signal: Int32, after lines: Int,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let ledger = BatchRecord(outputFolder: output).ledger(for: .whole)
        let stopped = try stop(args, ledger: ledger, after: lines, signal: signal)
        XCTAssertEqual(stopped.status, signal == SIGINT ? 130 : 143, stopped.stderr, file: file, line: line)
        XCTAssertTrue(stopped.stderr.contains("stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM")"), stopped.stderr, file: file, line: line)
        XCTAssertTrue(stopped.stdout.hasSuffix("\n"), "the log ends mid-line: \(stopped.stdout.suffix(80))", file: file, line: line)
        XCTAssertGreaterThanOrEqual(stopped.stdout.split(separator: "\n").count, lines, stopped.stdout, file: file, line: line)
        XCTAssertEqual(Self.temporaryFiles(in: output), [], file: file, line: line)

        let status = try Veil.run(["status", output.path])
        XCTAssertEqual(status.status, 1, status.stdout, file: file, line: line)
        XCTAssertTrue(status.stdout.contains("incomplete"), status.stdout, file: file, line: line)
        let counts = try XCTUnwrap(Self.counts(status.stdout), status.stdout, file: file, line: line)
        XCTAssertEqual(counts.inputs, total, status.stdout, file: file, line: line)
        XCTAssertGreaterThanOrEqual(counts.done, lines, status.stdout, file: file, line: line)
        XCTAssertGreaterThan(counts.missing, 0, status.stdout, file: file, line: line)
        XCTAssertEqual(counts.done + counts.missing, total, status.stdout, file: file, line: line)

        let again = try Veil.run(args, timeout: 600)
        XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
        let complete = try Veil.run(["status", output.path])
        XCTAssertEqual(complete.status, 0, complete.stdout, file: file, line: line)
        XCTAssertTrue(complete.stdout.hasSuffix("complete\n"), complete.stdout, file: file, line: line)
        XCTAssertEqual(Self.temporaryFiles(in: output), [], file: file, line: line)
    }

    func testPhotoBatchStoppedBySIGTERMAndSIGINTSaysIncompleteAndRerunCompletes() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in")
        let relatives = try SlurmArrayTests.makePhotos(in: input, count: 30)
        for (round, signal) in [SIGTERM, SIGINT].enumerated() {
            let output = dir.appendingPathComponent("out\(round)")
            try assertStoppedThenCompleted(["blur", input.path, "--out-dir", output.path, "--jobs", "1", "--threads", "1"], output: output,
                                           total: relatives.count, signal: signal, after: Int.random(in: 1...4))
            // Every photo once, each with its state.
            let outputs = try SlurmArrayTests.files(in: output)
            XCTAssertEqual(outputs.filter { !$0.hasSuffix(".veil.json") }.count, relatives.count)
            XCTAssertEqual(outputs.filter { $0.hasSuffix(".veil.json") }.count, relatives.count)
        }
    }

    func testVideoBatchStoppedBySIGTERMSaysIncompleteAndRerunCompletesWithStates() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), output = dir.appendingPathComponent("out")
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 160, height: 160)
        let names = ["a.mp4", "b.mp4", "c.mp4", "d.mp4"]
        for name in names {
            try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
            let clip = try TestClip(path: input.appendingPathComponent(name).path, width: 160, height: 160, fps: 10, audio: .aac)
            for _ in 0..<30 { try clip.add(face) }
            try clip.close()
        }
        try assertStoppedThenCompleted(["video", input.path, "--out-dir", output.path], output: output, total: names.count,
                                       signal: SIGTERM, after: 1)
        // Each output has its editing state, which `veil video tracks` reads (and makes a sheet of).
        for name in names {
            let state = PhotoBlurrer.sidecar(for: output.appendingPathComponent(name))
            XCTAssertTrue(FileManager.default.fileExists(atPath: state.path), name)
            let tracks = try Veil.run(["video", "tracks", state.path, "--sheet", dir.appendingPathComponent("\(name).png").path])
            XCTAssertEqual(tracks.status, 0, tracks.stderr)
            XCTAssertTrue(tracks.stdout.contains("30 frames"), tracks.stdout)
        }
    }

    /// No plan and no ledger under .veil: nothing says the batch is complete.
    func testStatusOfAnEmptyRecordIsIncomplete() throws {
        let dir = try TestData.scratch(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out/.veil"), withIntermediateDirectories: true)
        let status = try Veil.run(["status", dir.appendingPathComponent("out").path])
        XCTAssertEqual(status.status, 1, status.stdout)
        XCTAssertTrue(status.stdout.contains("incomplete"), status.stdout)
    }
}
