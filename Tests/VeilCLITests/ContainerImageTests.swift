import Foundation
import XCTest

/// The container image built for real (scripts/image: podman, a base made of
/// Debian's packages) and run: `veil blur` on a photo from a mounted folder,
/// and `veil serve` answering /healthz and /v1/blur from the host. Skips with
/// a message where podman cannot run here.
final class ContainerImageTests: XCTestCase {
    private func run(_ tool: String, _ args: [String], timeout: TimeInterval = 600) throws -> (status: Int32, out: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + args
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINERS_CONF"] = TestData.repoRoot.appendingPathComponent(".build/image/containers.conf").path
        process.environment = environment
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        let handle = try FileHandle(forWritingTo: out)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
    }

    func testTheImageBlursAMountedPhotoAndServes() throws {
        try TestData.requireFaceModel()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/podman") else {
            throw XCTSkip("podman is not installed (scripts/test installs podman, runc and mmdebstrap where it can)")
        }
        let built = try run(TestData.repoRoot.appendingPathComponent("scripts/image").path, ["--no-setup"], timeout: 900)
        XCTAssertEqual(built.status, 0, built.out)
        guard built.status == 0 else { return }
        XCTAssertTrue(built.out.contains("localhost/veil:latest"), built.out)

        // An ordinary folder (755, the invoking user's): the image's own user cannot
        // write there and says how to run as oneself in one line; run as the
        // invoking user (the README's line), the batch writes its outputs there.
        let dir = try TestData.scratch(self)
        try FileManager.default.copyItem(at: try TestData.astronaut(), to: dir.appendingPathComponent("photo.png"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        if getuid() != 999 {
            let refused = try run("podman", ["run", "--rm", "-v", "\(dir.path):/data:Z", "localhost/veil:latest", "blur", "/data", "--out-dir", "/data/out"])
            XCTAssertNotEqual(refused.status, 0, refused.out)
            XCTAssertTrue(refused.out.contains("podman run --user $(id -u):$(id -g)"), refused.out)
        }
        let me = "\(getuid()):\(getgid())"
        let blur = try run("podman", ["run", "--rm", "--user", me, "-v", "\(dir.path):/data:Z", "localhost/veil:latest", "blur", "/data", "--out-dir", "/data/out"])
        XCTAssertEqual(blur.status, 0, blur.out)
        let written = dir.appendingPathComponent("out/photo.png").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: written), blur.out)
        let owner = try FileManager.default.attributesOfItem(atPath: written)[.ownerAccountID] as? NSNumber
        XCTAssertEqual(owner?.uint32Value, getuid(), "the output belongs to the invoking user")
        let user = try run("podman", ["run", "--rm", "--entrypoint", "id", "localhost/veil:latest", "-u"])
        XCTAssertNotEqual(user.out.trimmingCharacters(in: .whitespacesAndNewlines), "0", "runs as a non-root user")

        // veil serve in the container, on a loopback port of the host.
        let port = 20000 + Int(getpid() % 20000)
        let name = "veil-test-\(getpid())"
        // In the foreground of a child process (a detached `podman run -d` left a
        // zombie Foundation's Process never reaped), stopped with `podman rm -f`.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/podman")
        server.arguments = ["run", "--rm", "--name", name, "-p", "127.0.0.1:\(port):8080", "localhost/veil:latest",
                            "serve", "--host", "0.0.0.0", "--port", "8080", "--token", "t0k"]
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINERS_CONF"] = TestData.repoRoot.appendingPathComponent(".build/image/containers.conf").path
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            _ = try? run("podman", ["rm", "-f", name], timeout: 60)
            let deadline = Date().addingTimeInterval(20)
            while server.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            if server.isRunning { server.terminate() }
        }
        var health = HTTPReplyLite(status: 0, body: Data())
        for _ in 0..<100 {
            if let reply = try? HTTPReplyLite.fetch(port: port, method: "GET", path: "/healthz"), reply.status == 200 { health = reply; break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(health.status, 200)
        let blurred = try HTTPReplyLite.fetch(port: port, method: "POST", path: "/v1/blur", headers: ["Authorization: Bearer t0k", "Content-Type: image/png"],
                                              body: try Data(contentsOf: try TestData.astronaut()))
        XCTAssertEqual(blurred.status, 200)
        XCTAssertEqual(Array(blurred.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
    }
}

/// A minimal HTTP/1.1 client over loopback (one request, Connection: close).
struct HTTPReplyLite {
    var status: Int
    var body: Data

    static func fetch(port: Int, method: String, path: String, headers: [String] = [], body: Data = Data()) throws -> HTTPReplyLite {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n".utf8)
        for h in headers { request.append(Data("\(h)\r\n".utf8)) }
        request.append(Data("\r\n".utf8))
        request.append(body)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var reply = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply.append(contentsOf: buffer[0..<n])
        }
        guard let split = reply.range(of: Data("\r\n\r\n".utf8)), let line = String(data: reply[..<split.lowerBound], encoding: .utf8)?.split(separator: " "),
              line.count >= 2, let status = Int(line[1]) else { throw POSIXError(.EPROTO) }
        return HTTPReplyLite(status: status, body: Data(reply[split.upperBound...]))
    }
}
