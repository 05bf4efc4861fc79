import Foundation

/// The async middle of `VideoAnonymizer.run`: takes what the reader thread
/// decoded, asks the `FrameAnalyzer` which faces to cover, covers them, and
/// hands frames and packets to the writer thread it starts once the input's
/// streams are known.
struct Pipeline {
    let run: VideoRun
    /// The request's settings (`run.request`).
    var anonymizer: VideoAnonymizer { run.request }
    let source: VideoSource
    let writePath: String
    /// The output's container (nil: by the file's extension): the encoder is planned for it once the video's info is known.
    let format: String?
    private let encoded = ThreadChannel<WriteItem>(capacity: 3)
    private var writer: IOThread<Result<WriterLoop.Summary, Error>>?
    private var analyzer: FrameAnalyzer?
    /// The cover, drawn in place in each frame's own pixels (one pass, no image round trip).
    private var renderer: CoverRenderer?
    /// The version of the live cover the renderer was made for, and its shape.
    private var coverVersion = 0
    private var shape: CoverRegion.Shape?
    private var report = VideoAnonymizer.Report()
    private var inputFailure: String?
    private var damagedPackets = 0
    private var endSent = false
    /// Times of the first and last frames read, in seconds.
    private var span: (first: Double, last: Double)?
    /// Which live frames detect, and with which schedule.
    private var pacing: LivePacing
    /// Frames analysed, a segment's pre-roll included (the tracker's clock).
    private var analysed = 0
    /// When the first frame was decoded: fps and progress count from there.
    private(set) var firstFrameAt: Date?

    init(run: VideoRun, source: VideoSource, writePath: String, format: String?) {
        self.run = run
        self.source = source
        self.writePath = writePath
        self.format = format
        var view = false
        if case .view = run.plan { view = true }
        pacing = LivePacing(realtime: run.request.source.realtime, view: view)
    }

    /// Runs until the input ends, the writer fails, or the queue closes (cancellation).
    mutating func run(_ decoded: ThreadChannel<ReadItem>, progress: @Sendable (VideoAnonymizer.Progress) -> Void,
                      record: (@Sendable (VideoAnonymizer.FrameRecord) -> Void)?) async throws {
        loop: while let item = await decoded.receive() {
            // Consumed, so a frame's pixels have one owner and are covered in place.
            switch consume item {
            case let .opened(info, streams):
                report.info = info
                analyzer = FrameAnalyzer(run: run, info: info)
                renderer = try anonymizer.cover.face.renderer()
                var options = VideoWriter.Options(encoder: anonymizer.encoder(for: info, format: format))
                let (path, queue) = (writePath, encoded)
                switch run.plan {
                case let .view(view):
                    writer = IOThread(name: "veil-video-view") { SinkLoop.run(view.sink, width: info.width, height: info.height, from: queue) }
                case .segment:
                    options.muxerOptions = SegmentClock.muxerOptions(for: info)
                    options.copyAudioOnly = true
                    writer = IOThread(name: "veil-video-write") { [options] in WriterLoop.run(path: path, streams: streams, options: options, from: queue) }
                case .detect, .replay, .splice:
                    writer = IOThread(name: "veil-video-write") { [options] in WriterLoop.run(path: path, streams: streams, options: options, from: queue) }
                }
            case let .failed(error):
                // Before any frame there is nothing to keep; after, what was read is
                // kept, but not in a splice, whose every GOP was to be written.
                if case .splice = run.plan { throw named(error) }
                guard report.frames > 0 else { throw named(error) }
                if inputFailure == nil { inputFailure = "\(error)" }
            case let .packet(packet):
                guard await encoded.send(.packet(packet)) else { break loop }
            case let .copied(packet):
                guard await encoded.send(.videoPacket(packet)) else { break loop }
                report.frames += 1
                report.copiedFrames += 1
            case let .restart(index):
                analysed = index
                guard await encoded.send(.restart) else { break loop }
            case let .end(damaged):
                damagedPackets = damaged
                endSent = await encoded.send(.end)
                break loop
            case let .preroll(pixels):
                try Task.checkCancellation()
                _ = try await analyzer!.analyze(pixels, index: analysed, mayDetect: true)
                analysed += 1
            case .frame(var pixels, let pts, let decodedAt, let skipped, let picture):
                try Task.checkCancellation()
                if firstFrameAt == nil { firstFrameAt = Date() }
                let info = report.info!
                let pace = pacing.decide(frame: report.frames, waiting: decoded.count, skipped: skipped, decodedAt: decodedAt, now: Uptime.now())
                let step = try await analyzer!.analyze(pixels, index: analysed, mayDetect: pace.mayDetect, skipped: skipped,
                                                       keepingUp: pace.keepingUp)
                pacing.analysed(frame: report.frames, detected: step.detected, full: step.full, at: Uptime.now())
                // A spliced re-render's frames come in runs: the index is the video's, not the count so far.
                let index: Int
                if case .splice = run.plan { index = analysed } else { index = report.frames }
                analysed += 1
                if step.detected { report.detections += 1 }
                if step.skipped { report.skippedDetections += 1 }
                report.facesCovered += step.boxes.count
                if case let .view(view) = run.plan, let live = view.coverSwitch?.current, live.version != coverVersion {
                    renderer = try live.cover.renderer()
                    (coverVersion, shape) = (live.version, live.shape)
                }
                let regions = step.boxes.map { CoverRegion(rect: $0.box, shape: shape ?? anonymizer.cover.shape) }
                    + step.text.map { CoverRegion(rect: $0.box, shape: .box) }
                try renderer!.render(into: &pixels, width: info.width, height: info.height, bands: 3, regions: regions, strokes: step.strokes)
                let changed = picture == nil ? [] : renderer!.reach(regions: regions, strokes: step.strokes, width: info.width, height: info.height)
                guard await encoded.send(.frame(pixels: pixels, pts: pts, decodedAt: decodedAt, picture: picture, changed: changed)) else { break loop }
                let time = Double(pts) * Double(info.timeBase.num) / Double(max(1, info.timeBase.den))
                span = (span?.first ?? time, time)
                record?(VideoAnonymizer.FrameRecord(index: index, time: time, faces: step.boxes, texts: step.text, embeddings: step.embeddings))
                report.frames += 1
                if report.frames % 25 == 0 { MemoryPolicy.releaseFreePages() }
                progress(VideoAnonymizer.Progress(info: info, frames: report.frames, waiting: decoded.count,
                                                  skippedDetections: report.skippedDetections,
                                                  seconds: Date().timeIntervalSince(firstFrameAt!)))
            }
        }
        try Task.checkCancellation()
    }

    /// Finishes the output (waiting for the writer thread) and says how the input ended.
    mutating func finish(stopped: Bool) async throws -> VideoAnonymizer.Report {
        guard let writer else { throw VeilError.unreadable(path: source.name, reason: "the input ended before its streams were known") }
        if !endSent { endSent = await encoded.send(.end) }
        let summary = try await writer.value.get()
        self.writer = nil
        guard report.frames > 0 else { throw VeilError.unreadable(path: source.name, reason: "no video frames") }
        report.copiedStreams = summary.copied
        report.reencodedStreams = summary.reencoded
        report.latency = summary.latency
        damagedPackets += summary.refused
        report.tracks = analyzer?.trackCount ?? 0
        if stopped {
            report.ending = .stopped
        } else if let failure = inputFailure {
            report.ending = source.isLive ? .streamEnded(reason: Self.liveEnd(failure)) : .truncated(reason: failure)
        } else if !source.isLive, let cut = cutShort() {
            report.ending = .truncated(reason: cut)
        }
        return report
    }

    /// Why a file that read to its end without an error is still cut short:
    /// packets cut inside, or frames ending well before the duration its
    /// header announces (an mp4 whose index was written first, a Matroska
    /// file, cut mid-way).
    private func cutShort() -> String? {
        if damagedPackets > 0 { return "\(damagedPackets) damaged packet(s) were dropped" }
        // A splice's frame count was checked against the previous output's before it began.
        switch run.plan {
        case .segment, .splice: return nil
        case .detect, .replay, .view: break
        }
        guard let info = report.info, let span, info.duration > 0 else { return nil }
        let seconds = span.last - span.first + 1 / info.framesPerSecond
        guard info.duration - seconds > max(1.0, 0.05 * info.duration) else { return nil }
        return String(format: "its frames stop at %.1f s of the %.1f s it announces", seconds, info.duration)
    }

    /// A live source's read error said as what it means: FFmpeg reports a
    /// stream that stopped sending (a UDP stream's `timeout`, its usual end)
    /// as an I/O error.
    static func liveEnd(_ failure: String) -> String {
        failure.contains("Input/output error") ? "it stopped sending: end of stream" : failure
    }

    /// Stops the writer thread without finishing the output, and waits for it.
    func abandon() async {
        encoded.close()
        if let writer { _ = await writer.value }
    }

    private func named(_ error: Error) -> Error {
        error is VeilError ? error : VeilError.unreadable(path: source.name, reason: "\(error)")
    }
}

/// The writer thread: opens the output, then writes what it is handed until
/// the end (finishing the file) or a closed queue (abandoning it).
enum WriterLoop {
    struct Summary: Sendable {
        var copied = 0
        var reencoded = 0
        var delays: [Float] = []
        /// Damaged packets of the other streams the output refused.
        var refused = 0

        var latency: VideoAnonymizer.Latency? {
            guard !delays.isEmpty else { return nil }
            let sorted = delays.sorted()
            return VideoAnonymizer.Latency(median: Double(sorted.nearestRank(0.5)!), p99: Double(sorted.nearestRank(0.99)!), max: Double(sorted.last!))
        }
    }

    static func run(path: String, streams: VideoStreams, options: VideoWriter.Options, from queue: ThreadChannel<WriteItem>) -> Result<Summary, Error> {
        let writer: VideoWriter
        do {
            writer = try VideoWriter(url: path, streams: streams, options: options)
        } catch {
            queue.close()
            return .failure(error)
        }
        // Audio re-encoded part by part would start each part with its own
        // encoder's priming (1,024 samples of AAC) and pad its end: a join
        // would double or drop that at every cut. Parts copy audio or carry none.
        if options.copyAudioOnly, writer.reencodedStreams > 0 {
            queue.close()
            return .failure(VeilError.invalidArgument(
                "the output's container cannot hold the input's audio as it is, and a segment copies its audio, never re-encodes it: write the parts as .mov, or drop the audio with --no-audio"))
        }
        var summary = Summary(copied: writer.copiedStreams, reencoded: writer.reencodedStreams)
        // Frames handed to the encoder since it was opened. The frames it
        // still holds go out before a copied packet: the encoder is flushed
        // (and started afresh) there, and at a restart after frames.
        var encoding = 0
        while let item = queue.receiveBlocking() {
            do {
                switch item {
                case let .videoPacket(packet):
                    if encoding > 0 { try writer.restartVideo() }
                    encoding = 0
                    try writer.write(video: packet)
                case .restart:
                    if encoding > 0 { try writer.restartVideo() }
                    encoding = 0
                case let .frame(pixels, pts, decodedAt, picture, changed):
                    encoding += 1
                    try writer.write(frame: pixels, pts: pts, over: picture, changed: changed)
                    summary.delays.append(Float(Uptime.seconds(since: decodedAt)))
                case let .packet(packet):
                    try writer.write(packet)
                case .end:
                    summary.refused = writer.refusedPackets
                    try writer.finish()
                    return .success(summary)
                }
            } catch {
                queue.close()
                return .failure(error)
            }
        }
        return .failure(CancellationError())
    }
}
