import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The built `veil serve` as a child process on a free port (--port 0: the
/// server prints the port it bound), stopped with SIGTERM when the test ends.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let stateDir: URL
    private let output = Pipe()

    /// `environment` replaces or adds variables of the test's own.
    init(_ test: XCTestCase, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        try TestData.requireFaceModel()
        let binary = Veil.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw XCTSkip("\(binary.path) not built") }
        stateDir = try TestData.scratch(test).appendingPathComponent("states")
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--state-dir", stateDir.path] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        try process.run()
        // The first line names the URL; wait for it (bounded).
        var line = Data()
        let deadline = Date().addingTimeInterval(20)
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            process.terminate()
            throw XCTSkip("veil serve did not start: \(text)")
        }
        self.port = port
        let process = self.process
        test.addTeardownBlock {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning {
                XCTFail("veil serve did not stop within 10 s of SIGTERM")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// The server's resident memory in kB (VmRSS).
    var residentKB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data = Data(), timeout: Double = 60) throws -> HTTPReply {
        try BlockingHTTP.send(port: port, method: method, path: path, headers: headers, body: body, timeout: timeout)
    }
}
