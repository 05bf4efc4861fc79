import Foundation
import VeilKit
import XCTest

/// Test videos made by the ffmpeg command-line tool (Debian `ffmpeg`,
/// installed by scripts/setup): frames piped in as raw RGB, with an optional
/// 440 Hz tone and a display rotation. Real files from a real encoder, and
/// no test-only code in the library.
public final class TestClip {
    public enum Audio: Sendable { case none, aac, pcm }

    public let path: String, width: Int, height: Int, fps: Int, audio: Audio, rotation: Int
    private var raw = Data()
    private var count = 0

    public init(path: String, width: Int, height: Int, fps: Int, audio: Audio, rotation: Int = 0) throws {
        _ = try FFmpegTool.path("ffmpeg")
        (self.path, self.width, self.height, self.fps, self.audio, self.rotation) = (path, width, height, fps, audio, rotation)
    }

    /// Adds a frame: 8-bit RGB (3 bands) of the clip's size.
    public func add(_ image: VeilImage) throws {
        guard image.width == width, image.height == height, image.bands == 3 else {
            throw VeilError.invalidArgument("a clip's frames are 3-band RGB of its size")
        }
        raw.append(contentsOf: try image.pixelBytes())
        count += 1
    }

    public func close() throws {
        var args = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-r", "\(fps)", "-i", "-"]
        if audio != .none { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-shortest"] }
        args += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        switch audio {
        case .none: break
        case .aac: args += ["-c:a", "aac", "-ac", "1"]
        case .pcm: args += ["-c:a", "pcm_s16le", "-ac", "1"]
        }
        guard rotation != 0 else { try FFmpegTool.run("ffmpeg", args + [path], input: raw); return }
        // ffmpeg 5 sets the display matrix from `rotate` (degrees anticlockwise) when it copies
        // a stream, not when it encodes one.
        let encoded = path + ".unrotated." + URL(fileURLWithPath: path).pathExtension
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        try FFmpegTool.run("ffmpeg", args + [encoded], input: raw)
        try FFmpegTool.run("ffmpeg", ["-i", encoded, "-c", "copy", "-metadata:s:v:0", "rotate=\((360 - rotation) % 360)", path])
    }
}

/// ffmpeg and ffprobe, run as processes.
public enum FFmpegTool {
    public static func path(_ tool: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        throw XCTSkip("\(tool) is not installed (scripts/setup installs Debian's ffmpeg)")
    }

    /// Runs the tool; throws with its stderr when it fails. Returns stdout.
    @discardableResult
    public static func run(_ tool: String, _ args: [String], input: Data? = nil) throws -> String {
        let (status, out, err) = try output(tool, args, input: input)
        guard status == 0 else { throw VeilError.invalidArgument("\(tool) \(args.joined(separator: " ")) failed: \(err.suffix(400))") }
        return out
    }

    public static func output(_ tool: String, _ args: [String], input: Data? = nil) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(tool))
        let common = tool == "ffmpeg" ? ["-v", "error", "-y"] + (input == nil ? ["-nostdin"] : []) : ["-v", "error"]
        process.arguments = common + args
        let stdin = Pipe(), stdout = Pipe()
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        if let input {
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread { try? writer.write(contentsOf: input); try? writer.close() }
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Frames in the first video stream, counted by decoding.
    public static func frameCount(_ path: String) throws -> Int {
        let out = try run("ffprobe", ["-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").first ?? "") ?? -1
    }

    /// What ffmpeg says when it decodes every stream to the end (empty: clean).
    public static func decodeErrors(_ path: String) throws -> String {
        let (status, _, err) = try output("ffmpeg", ["-i", path, "-f", "null", "-"])
        return status == 0 ? err : "exit \(status): \(err)"
    }
}

