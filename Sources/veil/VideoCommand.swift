import Foundation
import VeilKit
import VeilVocabulary

/// `veil video`: cover every face of a file, stream or camera.
enum VideoCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, valued: ["-o", "--input-format", "--output-format", "--style", "--shape", "--mask-scale", "--threshold",
                                                 "--detect-every", "--grace", "--detect-pixels", "--tile-pixels", "--crf", "--preset", "--codec", "--json", "--threads"],
                                 switches: ["--no-audio", "--realtime"])
        guard args.positionals.count == 1 else { throw InputError("veil video takes one INPUT (file, URL or device)") }
        guard let output = args.value("-o") else { throw InputError("veil video needs -o OUTPUT") }
        let input = args.positionals[0]
        var anonymizer = VideoAnonymizer()
        try CoverOptions(args, allowingFiles: true).apply(to: &anonymizer)
        if let n = try args.int("--threads", in: 1...256) { anonymizer.detector.computeDevice = .cpu(threads: n) }
        anonymizer.schedule.every = try args.int("--detect-every", in: 1...100) ?? anonymizer.schedule.every
        anonymizer.grace = try args.int("--grace", in: 0...1000) ?? anonymizer.grace
        anonymizer.schedule.wholePixels = try args.int("--detect-pixels", in: 10_000...100_000_000) ?? anonymizer.schedule.wholePixels
        anonymizer.schedule.tilePixels = try args.int("--tile-pixels", in: 10_000...100_000_000) ?? anonymizer.schedule.tilePixels
        anonymizer.crf = try args.int("--crf", in: 0...51) ?? anonymizer.crf
        anonymizer.preset = args.value("--preset") ?? anonymizer.preset
        anonymizer.codec = args.value("--codec")
        anonymizer.inputFormat = args.value("--input-format")
        anonymizer.outputFormat = args.value("--output-format")
        anonymizer.dropAudio = args.flag("--no-audio")
        anonymizer.realtime = args.flag("--realtime")
        if URL(fileURLWithPath: output).standardizedFileURL.path == URL(fileURLWithPath: input).standardizedFileURL.path {
            throw InputError("the output would overwrite the input")
        }

        let log = try args.value("--json").map { try FrameLog(path: $0, shape: anonymizer.shape, profile: anonymizer.cover.profile) }
        let bar = VideoProgress()
        var record: (@Sendable (VideoAnonymizer.FrameRecord) -> Void)?
        if let log { record = { log.write($0) } }
        let progress: @Sendable (Int, VideoInfo) -> Void = { frames, info in bar.update(frames: frames, info: info) }
        let report = try await anonymizer.run(input: input, output: output, progress: progress, record: record)
        bar.finish()
        try log?.close()
        let fps = report.seconds > 0 ? Double(report.frames) / report.seconds : 0
        print(String(format: "%@ -> %@  %d frames, %d face-frames covered, %d tracks, %d detections (%d skipped), %.1f fps, %.1f s%@",
                     input, output, report.frames, report.facesCovered, report.tracks, report.detections, report.skippedDetections,
                     fps, report.seconds, report.copiedStreams > 0 ? ", \(report.copiedStreams) other stream(s) kept (\(report.reencodedStreams) re-encoded)" : ""))
        return 0
    }
}

/// Frames, fps and ETA on a terminal.
final class VideoProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var bar: ProgressBar?
    private var last = 0

    func update(frames: Int, info: VideoInfo) {
        lock.lock(); defer { lock.unlock() }
        if bar == nil { bar = ProgressBar(total: max(info.frameCount, 0), unit: "frames") }
        while last < frames { bar?.advance(); last += 1 }
    }

    func finish() { lock.lock(); bar?.finish(); lock.unlock() }
}

/// `--json`: per-frame boxes written as they come, so memory stays flat.
final class FrameLog: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var first = true

    /// The header names the masks' shape and profile, so a reader can tell what was covered.
    init(path: String, shape: CoverRegion.Shape, profile: MaskProfile) throws {
        let mask = JSONText.object([("shape", .string(shape.rawValue)), ("scale", .number(profile.scale)),
                                    ("inner", .number(profile.inner)), ("outer", .number(profile.outer))])
        guard FileManager.default.createFile(atPath: path, contents: Data("{\"mask\":\(mask.rendered),\n\"frames\":[\n".utf8)) else {
            throw VeilError.unwritable(path: path, reason: "cannot create the file")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    func write(_ record: VideoAnonymizer.FrameRecord) {
        let faces: [JSONText] = record.faces.map { face in
            .object([("id", .int(face.id)), ("x", .number(face.box.x)), ("y", .number(face.box.y)),
                     ("width", .number(face.box.width)), ("height", .number(face.box.height)), ("detected", .bool(face.detected))])
        }
        let line = JSONText.object([("frame", .int(record.index)), ("time", .number(record.time)), ("faces", .array(faces))]).rendered
        lock.lock(); defer { lock.unlock() }
        handle.write(Data(((first ? "" : ",\n") + line).utf8))
        first = false
    }

    func close() throws {
        handle.write(Data("\n]}\n".utf8))
        try handle.close()
    }
}
