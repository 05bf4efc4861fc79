import Foundation
import XCTest

/// A `veil` (or ffmpeg) process running in the background, for tests that
/// signal or kill it mid-run.
public final class BackgroundProcess {
    public let process = Process()
    private let out: URL, err: URL

    public init(_ executable: URL, _ arguments: [String], scratch: URL) throws {
        out = scratch.appendingPathComponent("bg-\(UUID().uuidString).out")
        err = scratch.appendingPathComponent("bg-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    public static func veil(_ arguments: [String], scratch: URL) throws -> BackgroundProcess {
        guard FileManager.default.isExecutableFile(atPath: Veil.binary.path) else { throw XCTSkip("veil is not built") }
        return try BackgroundProcess(Veil.binary, arguments, scratch: scratch)
    }

    public static func ffmpeg(_ arguments: [String], scratch: URL) throws -> BackgroundProcess {
        try BackgroundProcess(URL(fileURLWithPath: try FFmpegTool.path("ffmpeg")), ["-nostdin", "-v", "error"] + arguments, scratch: scratch)
    }

    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status (128 + n for a signal), or nil if it is still running after `timeout` (then it is killed).
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            send(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    public var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    deinit { if process.isRunning { send(SIGKILL); process.waitUntilExit() } }
}

/// Loopback UDP ports for the live-stream tests.
public enum LoopbackUDP {
    /// A port nothing listens on now (the kernel's pick for a socket closed at once).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("no UDP socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot bind a loopback UDP socket") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something listens on `port` (from /proc/net/udp).
    public static func waitForListener(_ port: Int, timeout: TimeInterval) -> Bool {
        let needle = String(format: ":%04X ", port)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let table = try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8), table.contains(needle) { return true }
            usleep(50_000)
        }
        return false
    }
}
