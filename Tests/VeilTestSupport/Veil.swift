import Foundation
import XCTest

/// Runs the built `veil` binary as a user would.
public enum Veil {
    /// `$VEIL_TEST_BINARY` when set (scripts/test sets the release build it
    /// has just made: the same sources, a few times faster on video), else the
    /// `veil` built beside the test bundle (`swift build --build-tests` builds both).
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["VEIL_TEST_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            TestData.repoRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("veil") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    public struct Result: Sendable { public var status: Int32; public var stdout: String; public var stderr: String }

    /// Runs veil with `arguments`, killing it after `timeout` seconds (a hang is a failure);
    /// `environment` replaces or adds variables of the test's own.
    public static func run(_ arguments: [String], timeout: TimeInterval = 120, environment: [String: String] = [:]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("\(binary.path) not built: run `swift build` first")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("veil-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        // Strict: an option read that its definition does not declare stops veil (a test failure).
        process.environment = ProcessInfo.processInfo.environment.merging(["VEIL_STRICT_OPTIONS": "1"].merging(environment) { $1 }) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            XCTFail("veil \(arguments.joined(separator: " ")) hung for \(timeout) s")
        }
        let stdout = try Data(contentsOf: outURL), stderr = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
