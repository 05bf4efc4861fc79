import Foundation
import Synchronization
import VeilKit
import VeilVocabulary

/// `veil video`: cover every face of a file, stream or camera.
enum VideoCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        let cover = try CoverOptions(args, allowingFiles: true)
        try cover.requireVideo()
        let (run, streams, encoding) = (try VideoRunOptions(args), try SourceOptions(args), try EncodingOptions(args))
        var detection = try DetectionOptions(args).video(cover.detection())
        if let device = try PerformanceOptions(args).computeDevice { detection.detector.computeDevice = device }
        if run.outDir != nil, run.segment != nil { throw InputError("--segment splits one INPUT written with -o, not a batch (--out-dir)") }
        if let outDir = run.outDir {
            return try await VideoBatch.run(args, run: run, cover: cover, detection: detection, encoding: encoding.settings(format: streams.outputFormat),
                                            source: streams.video(segment: nil), outDir: URL(fileURLWithPath: outDir, isDirectory: true))
        }
        guard args.positionals.count == 1 else { throw InputError("veil video takes one INPUT (file, URL or device), or many with --out-dir") }
        guard let output = run.output else { throw InputError("veil video needs -o OUTPUT (or --out-dir DIR)") }
        let input = args.positionals[0]
        // Classified and checked once, here: a usage mistake before any work (exit 2); the run takes it as it is.
        let source: VideoSource
        do { source = try VideoSource.checked(input, format: streams.inputFormat, output: output) } catch let VeilError.invalidInput(error) { throw error }
        let segment = try VideoJoinCommand.segment(run.segment, input: input, live: source.isLive)

        let review = try VideoReviewOptions.prepare(args, input: input, output: output, source: source, segment: segment,
                                                    format: streams.outputFormat, cover: cover.video(), home: detection.detector.home)
        if let preview = run.preview {
            guard review != nil, segment == nil else { throw InputError("--preview needs a file INPUT and a file OUTPUT of the whole video (not live, no --segment)") }
            do { try SameFile.refuse(output: preview, input: input); try SameFile.refuse(output: preview, input: output) } catch let VeilError.invalidInput(error) { throw error }
        }
        detection.people = review?.people
        // The request, built once: a re-render keeps the state's cover where none is given, and
        // copies no frame when --json logs them (a copied frame is not seen, and its line would be missing).
        let anonymizer = VideoAnonymizer(cover: cover.video(over: review?.previous), detection: detection,
                                         encoding: encoding.settings(format: streams.outputFormat), source: streams.video(segment: segment),
                                         review: review?.replay(copiesUnchangedGOPs: run.json == nil))
        let log = try run.json.map { try FrameLog(path: $0, shape: anonymizer.cover.shape, profile: anonymizer.cover.face.profile) }
        let bar = VideoProgress(live: source.isLive ? input : nil)
        let recorder = review?.recorder
        let record: @Sendable (VideoAnonymizer.FrameRecord) -> Void = { frame in
            log?.write(frame)
            recorder?.record(frame)
        }
        let progress: @Sendable (VideoAnonymizer.Progress) -> Void = { bar.update($0) }
        bar.start()
        // SIGINT/SIGTERM: a live recording stops and is kept; a file's run is abandoned.
        let stop = RecordingStop()
        let signals = TerminationSignals()
        let work = Task { try await anonymizer.run(input: source, output: output, stop: stop, progress: progress, record: record) }
        let caught = Task { () -> String in
            let name = await signals.wait()
            if source.isLive { stop.request() } else { work.cancel() }
            return name
        }
        let report: VideoAnonymizer.Report
        do {
            report = try await work.value
        } catch {
            bar.finish()
            log?.discard()
            if work.isCancelled {
                let name = await caught.value
                printError("veil video: stopped by \(name); \(input) is a file, so nothing was written to \(output)")
                return name == "SIGINT" ? 130 : 143
            }
            throw error
        }
        bar.finish()
        if review?.previous != nil { printError(Self.spliceLine(report, output: output)) }
        try log?.close(with: report)
        let state = try review?.finish(report, input: URL(fileURLWithPath: input), output: URL(fileURLWithPath: output))
        if let preview = run.preview, let state {
            try VideoPreview.write(state, video: URL(fileURLWithPath: input), to: URL(fileURLWithPath: preview))
            printError("veil video: review video \(preview): each track's box and id on the input's frames, the faces NOT covered (mode 0600); do not publish it")
        }
        let fps = report.seconds > 0 ? Double(report.frames) / report.seconds : 0
        let latency = report.latency.map { String(format: ", latency p50 %.0f ms p99 %.0f ms", $0.median * 1000, $0.p99 * 1000) } ?? ""
        // A re-render detects nothing: its tracks are the state's.
        let tracks = review?.previous.map { "\($0.tracks.count) tracks from its state" } ?? "\(report.tracks) tracks"
        print(String(format: "%@ -> %@  %d frames, %d face-frames covered, %@, %d detections (%d skipped), %.1f fps, %.1f s%@%@",
                     input, output, report.frames, report.facesCovered, tracks, report.detections, report.skippedDetections,
                     fps, report.seconds, latency,
                     report.copiedStreams > 0 ? ", \(report.copiedStreams) other stream(s) kept (\(report.reencodedStreams) re-encoded)" : ""))
        switch report.ending {
        case .complete:
            return 0
        case .stopped:
            printError("veil video: recording of \(input) stopped by \((await caught.value)); \(report.frames) frames kept in \(output)")
            return 0
        case let .streamEnded(reason):
            printError("veil video: \(input) ended (\(reason)); \(report.frames) frames kept in \(output)")
            return 0
        case let .truncated(reason):
            printError("veil video: warning: \(input) is cut short or damaged (\(reason)); \(output) holds the \(report.frames) frames that could be read")
            return 3
        }
    }
}

extension VideoCommand {
    /// What a re-render copied from the previous output, or why it re-encoded every frame (one line).
    static func spliceLine(_ report: VideoAnonymizer.Report, output: String) -> String {
        let name = URL(fileURLWithPath: output).lastPathComponent
        if let reason = report.fullRender { return "veil video: re-encoded every frame: \(reason)" }
        return "veil video: copied \(report.copiedGOPs) of \(report.copiedGOPs + report.renderedGOPs) GOPs (\(report.copiedFrames) of \(report.frames) frames) "
            + "from the previous \(name), re-encoded \(report.renderedGOPs) (\(report.frames - report.copiedFrames) frames) that the edits change"
    }
}

/// Frames, fps and ETA on a terminal. A live source has no end to show:
/// it is said to be waiting until its first frame, then recording (once on
/// stderr, terminal or not), and on a terminal a line counts frames in,
/// out, waiting and detections skipped as it records.
final class VideoProgress: Sendable {
    private struct State {
        var bar: ProgressBar?
        var last = 0
        var lastDraw = 0.0
    }

    /// Held while a line is drawn: updates come from the pipeline's task, the end from the command.
    private let state = Mutex(State())
    private let live: String?

    init(live: String?) { self.live = live }

    func start() {
        if let live { printError("veil video: waiting for \(live) ...") }
    }

    func update(_ p: VideoAnonymizer.Progress) {
        state.withLock { draw(p, &$0) }
    }

    private func draw(_ p: VideoAnonymizer.Progress, _ s: inout State) {
        if let live {
            if s.last == 0 { printError("veil video: recording \(live) (\(p.info.width)x\(p.info.height)); SIGINT or SIGTERM stops and keeps it") }
            s.last = p.frames
            guard isatty(STDERR_FILENO) != 0, p.seconds - s.lastDraw >= 0.25 else { return }
            s.lastDraw = p.seconds
            let fps = p.seconds > 0.5 ? String(format: "%.1f fps", Double(p.frames) / p.seconds) : "-- fps"
            let line = String(format: "\r%@  %d frames in, %d out, %d waiting, %d detections skipped, %@ ", ProgressBar.clock(p.seconds),
                              p.frames + p.waiting, p.frames, p.waiting, p.skippedDetections, fps)
            FileHandle.standardError.write(Data(line.utf8))
            return
        }
        if s.bar == nil { s.bar = ProgressBar(total: max(p.info.frameCount, 0), unit: "frames") }
        while s.last < p.frames { s.bar?.advance(); s.last += 1 }
    }

    func finish() {
        state.withLock { s in
            s.bar?.finish()
            if live != nil, s.last > 0, isatty(STDERR_FILENO) != 0 { ProgressBar.eraseLine() }
        }
    }
}

/// `--json`: JSON Lines, written as frames come (memory stays flat): a first
/// line naming the masks' shape and profile (`{"mask":{...}}`), one line per
/// frame (`{"frame":0,"time":0,"faces":[...]}`), and, when the output is
/// finished, a summary (`{"summary":{"frames":..,"latency":{"p50":..}}}`).
/// Each line is written whole, so every complete line stays valid JSON
/// whatever stops the process.
final class FrameLog: Sendable {
    /// Held while a line is written, so lines never interleave.
    private let handle: Mutex<FileHandle>
    private let path: String

    init(path: String, shape: CoverRegion.Shape, profile: MaskProfile) throws {
        self.path = path
        let mask = JSONText.object([("shape", .string(shape.rawValue)), ("scale", .number(profile.scale)),
                                    ("inner", .number(profile.inner)), ("outer", .number(profile.outer))])
        guard FileManager.default.createFile(atPath: path, contents: Data((JSONText.object([("mask", mask)]).rendered + "\n").utf8)) else {
            throw VeilError.unwritable(path: path, reason: "cannot create the file")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        self.handle = Mutex(handle)
    }

    /// A frame's line; `texts` (the text tracks' boxes, ids of their own) only where text was covered.
    func write(_ record: VideoAnonymizer.FrameRecord) {
        func boxes(_ list: [TrackedBox]) -> JSONText {
            .array(list.map { face in
                .object([("id", .int(face.id)), ("x", .number(face.box.x)), ("y", .number(face.box.y)),
                         ("width", .number(face.box.width)), ("height", .number(face.box.height)), ("detected", .bool(face.detected)),
                         ("score", .number(Double(face.score)))] + (face.unsure ? [("unsure", .bool(true))] : []))
            })
        }
        var fields: [(String, JSONText)] = [("frame", .int(record.index)), ("time", .number(record.time)), ("faces", boxes(record.faces))]
        if !record.texts.isEmpty { fields.append(("texts", boxes(record.texts))) }
        let line = JSONText.object(fields).rendered
        handle.withLock { $0.write(Data((line + "\n").utf8)) }
    }

    /// The last line: what the run did (`{"summary":{...}}`), latency in seconds.
    func close(with report: VideoAnonymizer.Report) throws {
        var fields: [(String, JSONText)] = [("frames", .int(report.frames)), ("detections", .int(report.detections)),
                                            ("skippedDetections", .int(report.skippedDetections)), ("tracks", .int(report.tracks)),
                                            ("seconds", .number(report.seconds)), ("ending", .string(report.ending.name))]
        if let latency = report.latency {
            fields.append(("latency", .object([("p50", .number(latency.median)), ("p99", .number(latency.p99)), ("max", .number(latency.max))])))
        }
        try handle.withLock { handle in
            handle.write(Data((JSONText.object([("summary", .object(fields))]).rendered + "\n").utf8))
            try handle.close()
        }
    }

    /// The run left no video: its boxes go too.
    func discard() {
        handle.withLock { try? $0.close() }
        unlink(path)
    }
}

extension VideoAnonymizer.Ending {
    /// complete, stopped, stream-ended or truncated.
    var name: String {
        switch self {
        case .complete: return "complete"
        case .stopped: return "stopped"
        case .streamEnded: return "stream-ended"
        case .truncated: return "truncated"
        }
    }
}
