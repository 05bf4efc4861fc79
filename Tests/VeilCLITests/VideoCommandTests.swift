import Foundation
@testable import VeilKit
import XCTest

final class VideoCommandTests: XCTestCase {
    func testCoversAClipAndWritesPerFrameJSON() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let clip = try TestClip(path: input.path, width: 512, height: 512, fps: 25, audio: .aac)
        for _ in 0..<10 { try clip.add(photo) }
        try clip.close()
        let json = dir.appendingPathComponent("frames.json")
        let result = try Veil.run(["video", input.path, "-o", output.path, "--json", json.path, "--detect-every", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("10 frames"), result.stdout)
        let (mask, frames) = try Self.frameLog(json)
        XCTAssertEqual(mask["shape"] as? String, "disc")
        XCTAssertEqual(frames.map { $0["frame"] as? Int }, Array(0..<10))
        for frame in frames {
            let faces = try XCTUnwrap(frame["faces"] as? [[String: Any]])
            XCTAssertEqual(faces.count, 1, "\(frame)")
            XCTAssertEqual(faces[0]["id"] as? Int, 1)
            XCTAssertEqual(faces[0]["detected"] as? Bool, (frame["frame"] as! Int) % 3 == 0)
        }
    }

    /// `--json` is JSON Lines: a mask line, then one object per frame.
    static func frameLog(_ url: URL) throws -> (mask: [String: Any], frames: [[String: Any]]) {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0)) }
        let mask = try XCTUnwrap(objects.first?["mask"] as? [String: Any])
        return (mask, objects.filter { $0["frame"] != nil })
    }

    /// The last line of a finished `--json` log.
    static func summary(_ url: URL) throws -> [String: Any] {
        let last = try XCTUnwrap(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").last)
        return try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["summary"] as? [String: Any])
    }

    func testBadInputsAndFlags() throws {
        let dir = try TestData.scratch(self)
        let text = dir.appendingPathComponent("t.mp4")
        try Data("hello".utf8).write(to: text)
        let broken = try Veil.run(["video", text.path, "-o", dir.appendingPathComponent("o.mp4").path])
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stderr.split(separator: "\n").count, 1, broken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.mp4").path))
        for args in [["video"], ["video", text.path], ["video", text.path, "-o", "x.mp4", "--crf", "99"], ["video", text.path, "-o", text.path]] {
            let r = try Veil.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
    }
}

/// Hostile and careless inputs to `veil video`, each through the real CLI.
final class VideoCommandReliabilityTests: XCTestCase {
    private func smallClip(_ dir: URL, name: String = "in.mp4", seconds: Int = 1) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=440",
                                      "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", url.path])
        return url
    }

    func testOutputThatIsTheInputIsRefused() throws {
        let dir = try TestData.scratch(self)
        let input = try smallClip(dir)
        let before = try Data(contentsOf: input)
        let alias = dir.appendingPathComponent("alias.mp4"), hard = dir.appendingPathComponent("hard.mp4")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: input)
        XCTAssertEqual(link(input.path, hard.path), 0)
        for output in [alias.path, hard.path, dir.path + "/./x/../in.mp4"] {
            let r = try Veil.run(["video", input.path, "-o", output])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("is the input"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: input), before, "the input is untouched")
    }

    func testFIFOAndFolderInputsAreRefusedAtOnce() throws {
        let dir = try TestData.scratch(self)
        let fifo = dir.appendingPathComponent("pipe.mp4")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for input in [fifo.path, dir.path] {
            let start = Date()
            let r = try Veil.run(["video", input, "-o", dir.appendingPathComponent("o.mp4").path], timeout: 20)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(start), 10)
            XCTAssertTrue(r.stderr.contains(input), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }

    func testUnknownCodecIsAnError() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try smallClip(dir)
        let output = dir.appendingPathComponent("o.mp4")
        let r = try Veil.run(["video", input.path, "-o", output.path, "--codec", "nosuchcodec"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("nosuchcodec"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
    }

    /// Odd sizes cannot be 4:2:0: they are written 4:4:4 at their own size.
    func testOddSizesAndOtherChromaFormats() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        for (size, format, codec) in [("321x241", "yuv444p", "libx264"), ("322x242", "yuv422p", "libx264"), ("320x240", "yuv420p10le", "libx264"),
                                      ("319x239", "yuv420p", "ffv1")] {
            let input = dir.appendingPathComponent("in-\(size)-\(format).mkv")
            try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.4",
                                          "-vf", "scale=\(size.replacingOccurrences(of: "x", with: ":")),format=\(format)", "-c:v", codec, input.path])
            let probedInput = try FFmpegTool.run("ffprobe", ["-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0", input.path])
            XCTAssertEqual(probedInput.trimmingCharacters(in: .whitespacesAndNewlines), size.replacingOccurrences(of: "x", with: ",") + ",\(format)")
            let output = dir.appendingPathComponent("out-\(size)-\(format).mp4")
            let r = try Veil.run(["video", input.path, "-o", output.path])
            XCTAssertEqual(r.status, 0, "\(size) \(format): \(r.stderr)")
            XCTAssertEqual(try FFmpegTool.frameCount(output.path), 10, "\(size) \(format)")
            let probed = try FFmpegTool.run("ffprobe", ["-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", output.path])
            XCTAssertEqual(probed.trimmingCharacters(in: .whitespacesAndNewlines), size.replacingOccurrences(of: "x", with: ","))
            XCTAssertEqual(try FFmpegTool.decodeErrors(output.path), "")
        }
    }

    /// Cut at half: a valid shorter output (audio and video decode to the
    /// end), a warning, exit status 3.
    func testTruncatedVideoGivesAValidShorterOutputAndStatus3() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        for (name, flags) in [("indexed.mp4", ["-movflags", "+faststart"]), ("stream.mkv", [])] {
            let whole = dir.appendingPathComponent("whole-" + name)
            try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=440", "-t", "4",
                                          "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"] + flags + [whole.path])
            let bytes = try Data(contentsOf: whole)
            let cut = dir.appendingPathComponent(name)
            try bytes.prefix(bytes.count / 2).write(to: cut)
            let output = dir.appendingPathComponent("out-" + name + ".mp4")
            let r = try Veil.run(["video", cut.path, "-o", output.path])
            XCTAssertEqual(r.status, 3, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("warning") && r.stderr.contains("cut short"), r.stderr)
            let frames = try FFmpegTool.frameCount(output.path)
            XCTAssertGreaterThan(frames, 20)
            XCTAssertLessThan(frames, 100)
            XCTAssertEqual(try FFmpegTool.decodeErrors(output.path), "", "\(name): decodes to the end")
        }
    }

    /// A lossy transport stream (about 1% of its 188-byte packets lost, as
    /// UDP loses them under load) keeps its output: damaged audio packets that
    /// the mp4 muxer refuses are dropped and counted, never the whole file
    /// (one of these losses used to fail the run and leave nothing).
    func testLossyStreamKeepsItsOutputDroppingDamagedPackets() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let clean = dir.appendingPathComponent("clean.ts")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                      "-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-f", "mpegts", clean.path])
        let bytes = [UInt8](try Data(contentsOf: clean))
        for seed in UInt64(1)...3 {
            // Packets after the first 50 (the tables) lost where a fixed generator says.
            var x = seed, kept: [UInt8] = []
            for (i, start) in stride(from: 0, to: bytes.count, by: 188).enumerated() {
                x = x &* 6364136223846793005 &+ 1442695040888963407
                if i >= 50 && (x >> 33) % 100 == 0 { continue }
                kept += bytes[start..<min(bytes.count, start + 188)]
            }
            let lossy = dir.appendingPathComponent("lossy-\(seed).ts"), output = dir.appendingPathComponent("out-\(seed).mp4")
            try Data(kept).write(to: lossy)
            let r = try Veil.run(["video", lossy.path, "-o", output.path])
            XCTAssertTrue([0, 3].contains(r.status), "seed \(seed): \(r.stderr)")
            XCTAssertGreaterThan(try FFmpegTool.frameCount(output.path), 75, "seed \(seed): most of the 100 frames")
            let streams = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", output.path])
            XCTAssertTrue(streams.contains("audio"), "seed \(seed): the audio is kept")
        }
    }

    /// A write that fails mid-way (the file size limit stands in for a full
    /// disk: the same failed write) leaves nothing under the final name.
    func testFailedWriteLeavesNothing() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = try smallClip(dir, seconds: 4)
        let output = dir.appendingPathComponent("o.mp4")
        let script = "ulimit -f 40; trap '' XFSZ; exec \"$0\" video \"$1\" -o \"$2\""
        let shell = try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Veil.binary.path, input.path, output.path], scratch: dir)
        XCTAssertEqual(shell.wait(timeout: 120), 1, shell.stderr)
        XCTAssertTrue(shell.stderr.contains("o.mp4"), shell.stderr)
        XCTAssertEqual(shell.stderr.split(separator: "\n").count, 1, shell.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
    }
}

/// `--style image=` in video (the third seed's picture over each face): it
/// crashed with "Range requires lowerBound <= upperBound" where a face's
/// sticker lay past the frame's edge, and left a `.part` file behind.
final class VideoStickerTests: XCTestCase {
    func testStickersForEveryShapeAtTheFramesEdgesAndOddSizes() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        // A sticker with a transparent border, and the astronaut's face cut by
        // each edge of an odd-sized frame in turn, small and large.
        let sticker = dir.appendingPathComponent("smiley.png")
        var art = [UInt8](repeating: 0, count: 40 * 30 * 4)
        for y in 0..<30 { for x in 0..<40 where (x - 20) * (x - 20) + (y - 15) * (y - 15) < 196 {
            art.replaceSubrange((y * 40 + x) * 4..<(y * 40 + x + 1) * 4, with: [255, 220, 0, 255])
        } }
        try ImageEncoder(format: .png).write(VeilImage(pixels: art, width: 40, height: 30, bands: 4), to: sticker)
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let (width, height) = (322, 242)
        let even = dir.appendingPathComponent("edges-even.mp4"), input = dir.appendingPathComponent("edges.mkv")
        let clip = try TestClip(path: even.path, width: width, height: height, fps: 25, audio: .none)
        let background = try VeilImage.constant(RGB(90, 110, 130), size: PixelSize(width: width, height: height))
        for i in 0..<12 {
            let side = i % 2 == 0 ? 200 : 400
            let face = try photo.resized(width: side, height: side)
            // Left, right, top, bottom: the photo cropped to the part that shows.
            let (x, y): (Int, Int) = [(-side / 3, 10), (width - 2 * side / 3, 10), (20, -side / 3), (20, height - 2 * side / 3)][(i / 2) % 4]
            let visible = PixelRect(x: max(0, -x), y: max(0, -y), width: min(side - max(0, -x), width - max(0, x)), height: min(side - max(0, -y), height - max(0, y)))
            try clip.add(background.inserting(face.cropped(to: visible), x: max(0, x), y: max(0, y)))
        }
        try clip.close()
        // Odd-sized (x264 takes odd sizes in 4:4:4 only).
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", even.path, "-vf", "scale=321:241,format=yuv444p", "-c:v", "libx264", "-preset", "ultrafast", input.path])
        for shape in ["disc", "ellipse", "box"] {
            let output = dir.appendingPathComponent("out-\(shape).mp4"), json = dir.appendingPathComponent("\(shape).jsonl")
            let r = try Veil.run(["video", input.path, "-o", output.path, "--style", "image=\(sticker.path)", "--shape", shape, "--json", json.path])
            XCTAssertEqual(r.status, 0, "\(shape): \(r.stderr)")
            XCTAssertEqual(try FFmpegTool.frameCount(output.path), 12, shape)
            let (_, frames) = try VideoCommandTests.frameLog(json)
            XCTAssertGreaterThan(frames.filter { ($0["faces"] as? [Any])?.isEmpty == false }.count, 8, "\(shape): faces found at the edges")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".part") }
            XCTAssertEqual(leftovers, [], shape)
        }
        // The sticker is there: yellow where the face was.
        let frame = dir.appendingPathComponent("f.png")
        _ = try FFmpegTool.run("ffmpeg", ["-v", "error", "-y", "-i", dir.appendingPathComponent("out-disc.mp4").path, "-frames:v", "1", frame.path])
        let bytes = try ImageDecoder().decode(.url(frame)).image.pixelBytes()
        let yellow = stride(from: 0, to: bytes.count - 2, by: 3).filter { bytes[$0] > 200 && bytes[$0 + 1] > 180 && bytes[$0 + 2] < 80 }.count
        XCTAssertGreaterThan(yellow, 200, "the sticker drawn")
    }

    /// A run that dies cannot remove its temporary file: the next run into the
    /// same output sweeps those of processes that no longer exist.
    func testStalePartFilesOfDeadRunsAreSwept() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let clip = try TestClip(path: input.path, width: 64, height: 48, fps: 25, audio: .none)
        for _ in 0..<3 { try clip.add(try VeilImage.constant(RGB(10, 20, 30), size: PixelSize(width: 64, height: 48))) }
        try clip.close()
        // PID 2^22 + 1 is above Linux's pid_max limit: no such process.
        let stale = dir.appendingPathComponent(".out.mp4.4194305.part"), other = dir.appendingPathComponent(".other.mp4.4194305.part")
        for file in [stale, other] { try Data("x".utf8).write(to: file) }
        let r = try Veil.run(["video", input.path, "-o", output.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path), "another output's files are not touched")
        let tee = try Veil.run(["video", input.path, "-o", "out.mp4|udp://127.0.0.1:9", "--output-format", "tee"])
        XCTAssertNotEqual(tee.status, 0)
        XCTAssertTrue(tee.stderr.contains("tee is not supported"), tee.stderr)
    }
}

final class FFmpegLoadingTests: XCTestCase {
    /// FFmpeg is opened by the first video call, not at every start: a photo
    /// command maps none of its libraries (glibc's loader lists every library
    /// it opens under LD_DEBUG=files), and a video command opens them and works.
    func testOnlyVideoCommandsLoadFFmpeg() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = try Veil.run(["faces", try TestData.astronaut().path], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(photo.status, 0, photo.stderr)
        XCTAssertTrue(photo.stderr.contains("libvips"), "LD_DEBUG lists no libraries here: the test shows nothing")
        XCTAssertFalse(photo.stderr.contains("libavformat") || photo.stderr.contains("libavcodec"), "a photo command loaded FFmpeg")
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let clip = try TestClip(path: input.path, width: 64, height: 48, fps: 25, audio: .none)
        for _ in 0..<3 { try clip.add(try VeilImage.constant(RGB(10, 20, 30), size: PixelSize(width: 64, height: 48))) }
        try clip.close()
        let video = try Veil.run(["video", input.path, "-o", output.path], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(video.status, 0, video.stderr)
        XCTAssertTrue(video.stderr.contains("libavformat"), "the video command did not open FFmpeg")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))
    }

    /// Without FFmpeg's libraries every video command says, in one line,
    /// which is missing and which packages hold them, and ends (C neither
    /// words nor ends anything: the shim takes them as loaded, Swift asks
    /// first); `veil version` says so on FFmpeg's line and goes on. The
    /// library is hidden by a file bound over it in a mount namespace of its own.
    func testWithoutFFmpegVideoCommandsSayWhatIsMissing() throws {
        let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu"]
        let library = folders.lazy.compactMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: folder))?
                .first { $0.range(of: #"^libavformat\.so\.[0-9]+$"#, options: .regularExpression) != nil }
                .map { "\(folder)/\($0)" }
        }.first
        guard let library, try Shell.run(["unshare", "-rm", "true"]).status == 0 else {
            throw XCTSkip("no user and mount namespaces here (unshare -rm), or libavformat not found")
        }
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4")
        let clip = try TestClip(path: input.path, width: 64, height: 48, fps: 25, audio: .none)
        for _ in 0..<3 { try clip.add(try VeilImage.constant(RGB(10, 20, 30), size: PixelSize(width: 64, height: 48))) }
        try clip.close()
        func withoutFFmpeg(_ arguments: [String]) throws -> Shell.Result {
            try Shell.run(["unshare", "-rm", "sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", library, Veil.binary.path] + arguments)
        }
        let name = URL(fileURLWithPath: library).lastPathComponent
        for arguments in [["video", input.path, "-o", dir.appendingPathComponent("out.mp4").path],
                          ["video", "plan", input.path, "--segments", "2"],
                          ["video", input.path, "--segment", "0/2", "-o", dir.appendingPathComponent("part.mp4").path]] {
            let run = try withoutFFmpeg(arguments)
            XCTAssertEqual(run.status, 1, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("FFmpeg's libraries cannot be loaded (\(name) is missing): install Debian's libavformat"),
                          "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(arguments): \(run.stderr)")
        }
        let version = try withoutFFmpeg(["version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.contains("FFmpeg's libraries cannot be loaded (\(name) is missing)"), version.stdout)
        XCTAssertTrue(version.stdout.contains("libvips "), version.stdout)
    }
}
