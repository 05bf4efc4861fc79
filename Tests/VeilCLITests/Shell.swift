import Foundation
import XCTest

/// Runs other programs for the tests that drive a cluster engine (sbatch, scancel).
enum Shell {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// A running program whose output goes to files, readable as it comes.
    final class Running {
        let process: Process
        let out: URL, err: URL
        init(process: Process, out: URL, err: URL) { self.process = process; self.out = out; self.err = err }
        func stdoutSoFar() -> String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
        func wait() -> Result {
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
            return Result(status: process.terminationStatus, stdout: stdoutSoFar(),
                          stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        }
    }

    static func start(_ command: [String], environment: [String: String]? = nil, in folder: URL? = nil) throws -> Running {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("veil-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return Running(process: process, out: out, err: err)
    }

    /// Runs `command` to the end (killed after `timeout` seconds: a hang is a failure).
    static func run(_ command: [String], environment: [String: String]? = nil, in folder: URL? = nil, timeout: TimeInterval = 120) throws -> Result {
        let running = try start(command, environment: environment, in: folder)
        let deadline = Date().addingTimeInterval(timeout)
        while running.process.isRunning && Date() < deadline { usleep(50_000) }
        if running.process.isRunning {
            running.process.terminate()
            XCTFail("\(command.joined(separator: " ")) hung for \(timeout) s")
        }
        return running.wait()
    }
}
