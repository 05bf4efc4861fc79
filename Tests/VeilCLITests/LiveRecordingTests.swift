import Foundation
@testable import VeilKit
import XCTest

/// Live sources through the real CLI: a paced mpegts stream over loopback UDP
/// (`ffmpeg -re`), its end, SIGINT and SIGTERM mid-recording, kill -9.
final class LiveRecordingTests: XCTestCase {
    /// A clip of the sample photo, 25 fps, with AAC audio.
    private func clip(_ url: URL, seconds: Int, width: Int = 320, height: Int = 240) throws {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let side = min(width, height)
        let background = try VeilImage.constant(RGB(90, 110, 130), size: PixelSize(width: width, height: height))
        let clip = try TestClip(path: url.path, width: width, height: height, fps: 25, audio: .aac)
        for i in 0..<(25 * seconds) {
            try clip.add(background.inserting(photo.resized(width: side, height: side), x: (i * 2) % (width - side + 1), y: 0))
        }
        try clip.close()
    }

    /// Sends `input` paced in real time as mpegts to 127.0.0.1:`port`.
    private func send(_ input: URL, to port: Int, loops: Int = 0, scratch: URL) throws -> BackgroundProcess {
        try .ffmpeg(["-re", "-stream_loop", "\(loops)", "-i", input.path, "-c", "copy", "-f", "mpegts",
                     "udp://127.0.0.1:\(port)?pkt_size=1316"], scratch: scratch)
    }

    func testPacedStreamThatEndsKeepsEveryFrame() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("paced.mp4"), output = dir.appendingPathComponent("live.mp4")
        let json = dir.appendingPathComponent("live.jsonl")
        try clip(input, seconds: 3)
        let port = try LoopbackUDP.freePort()
        let url = "udp://127.0.0.1:\(port)?timeout=2000000"
        let veil = try BackgroundProcess.veil(["video", url, "--input-format", "mpegts", "--realtime", "-o", output.path, "--json", json.path], scratch: dir)
        XCTAssertTrue(LoopbackUDP.waitForListener(port, timeout: 20), "veil did not open the stream")
        // `veil video` refuses transparent huge pages (`MemoryPolicy.refuseHugePages`); kernels before 5.0 do not say.
        let status = (try? String(contentsOfFile: "/proc/\(veil.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("THP_enabled:") }) {
            XCTAssertEqual(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces), "0", "veil video still takes huge pages")
        }
        let sender = try send(input, to: port, scratch: dir)
        XCTAssertEqual(sender.wait(timeout: 30), 0, sender.stderr)
        XCTAssertEqual(veil.wait(timeout: 90), 0, veil.stderr)
        // The stream's end is the recording's end: named, kept, no image wording.
        XCTAssertTrue(veil.stderr.contains(url) && veil.stderr.contains("ended"), veil.stderr)
        XCTAssertFalse(veil.stderr.contains("image"), veil.stderr)
        // It says it waits, then that it records, and a normal end as such
        // (not as "cannot read the input: Input/output error").
        let lines = veil.stderr.split(separator: "\n").map(String.init)
        let waiting = lines.firstIndex { $0.contains("waiting for \(url)") }, recording = lines.firstIndex { $0.contains("recording \(url)") }
        XCTAssertNotNil(waiting, veil.stderr)
        XCTAssertNotNil(recording, veil.stderr)
        if let waiting, let recording { XCTAssertLessThan(waiting, recording) }
        XCTAssertTrue(veil.stderr.contains("end of stream"), veil.stderr)
        XCTAssertFalse(veil.stderr.contains("Input/output error"), veil.stderr)
        let sent = try FFmpegTool.frameCount(input.path)
        XCTAssertEqual(sent, 75)
        XCTAssertEqual(try FFmpegTool.frameCount(output.path), sent, "frames out = frames in: \(veil.stdout)")
        XCTAssertEqual(try FFmpegTool.decodeErrors(output.path), "")
        XCTAssertTrue(veil.stdout.contains("latency p50"), veil.stdout)
        let summary = try VideoCommandTests.summary(json)
        XCTAssertEqual(summary["frames"] as? Int, sent)
        XCTAssertEqual(summary["ending"] as? String, "stream-ended")
        XCTAssertNotNil((summary["latency"] as? [String: Any])?["p99"] as? Double)
        let (_, frames) = try VideoCommandTests.frameLog(json)
        XCTAssertEqual(frames.count, sent)
        XCTAssertGreaterThan(frames.filter { ($0["faces"] as? [Any])?.isEmpty == false }.count, sent * 9 / 10, "faces covered")
    }

    func testSIGINTAndSIGTERMFinaliseALiveRecording() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("loop.mp4")
        try clip(input, seconds: 2)
        for signal in [SIGINT, SIGTERM] {
            let output = dir.appendingPathComponent("stopped-\(signal).mp4"), json = dir.appendingPathComponent("stopped-\(signal).jsonl")
            let port = try LoopbackUDP.freePort()
            // No timeout: only the signal ends this recording.
            let veil = try BackgroundProcess.veil(["video", "udp://127.0.0.1:\(port)", "--input-format", "mpegts", "--realtime",
                                                   "-o", output.path, "--json", json.path], scratch: dir)
            XCTAssertTrue(LoopbackUDP.waitForListener(port, timeout: 20))
            let sender = try send(input, to: port, loops: 20, scratch: dir)
            try waitForFrames(json, count: 10, timeout: 60)
            veil.send(signal)
            XCTAssertEqual(veil.wait(timeout: 30), 0, veil.stderr)
            sender.send(SIGKILL)
            _ = sender.wait(timeout: 10)
            XCTAssertTrue(veil.stderr.contains("stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM")"), veil.stderr)
            let frames = try FFmpegTool.frameCount(output.path)
            XCTAssertGreaterThanOrEqual(frames, 10)
            XCTAssertEqual(try FFmpegTool.decodeErrors(output.path), "", "decodes to the end")
            XCTAssertEqual(try VideoCommandTests.frameLog(json).frames.count, frames)
        }
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
    }

    /// A file is not a recording: a signal abandons it and nothing is left
    /// under the output's name; kill -9 leaves the --json lines valid.
    func testSignalOrKillDuringAFileLeavesNoOutput() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("long.mp4")
        try clip(input, seconds: 12, width: 640, height: 360)
        for (signal, expected) in [(SIGTERM, Int32(143)), (SIGKILL, Int32(128 + 9))] {
            let output = dir.appendingPathComponent("out-\(signal).mp4"), json = dir.appendingPathComponent("out-\(signal).jsonl")
            let veil = try BackgroundProcess.veil(["video", input.path, "-o", output.path, "--json", json.path], scratch: dir)
            try waitForFrames(json, count: 5, timeout: 60)
            veil.send(signal)
            XCTAssertEqual(veil.wait(timeout: 30), expected, veil.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "signal \(signal) left an output")
            if signal == SIGKILL {
                let lines = try String(contentsOf: json, encoding: .utf8).split(separator: "\n")
                XCTAssertGreaterThan(lines.count, 5)
                for line in lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), String(line)) }
            } else {
                XCTAssertTrue(veil.stderr.contains("nothing was written"), veil.stderr)
                XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
            }
        }
    }

    private func waitForFrames(_ json: URL, count: Int, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: json, encoding: .utf8), text.split(separator: "\n").count > count { return }
            usleep(100_000)
        }
        XCTFail("no \(count) frames within \(timeout) s")
    }
}
