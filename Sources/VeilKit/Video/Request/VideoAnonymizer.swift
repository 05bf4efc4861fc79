import Foundation

/// Covers every face in every frame of a video: decode → analyse → render →
/// encode, with the other streams (audio) copied as they are. Frames are
/// never reordered or dropped; memory stays flat whatever the length.
///
/// ## Concurrency: one model
/// - **Two dedicated threads do FFmpeg's blocking C I/O** (`IOThread`): the
///   reader opens, demuxes and decodes; the writer encodes and muxes. Each
///   owns its C object and nothing else touches it; the one call across
///   threads is `VideoReader.interrupt`, an atomic flag FFmpeg polls, which
///   makes a blocked open or read (a silent stream) return.
/// - **Bounded queues join them to structured concurrency** (`ThreadChannel`):
///   the I/O threads block on them, the async pipeline suspends on them; no
///   cooperative thread ever waits on a lock or a semaphore. `run` awaits both
///   threads before it returns, on every path, so no work outlives it.
/// - **The pipeline runs in `run`'s task**: per frame, the `FrameAnalyzer`
///   (detection through ONNX Runtime, async) and the cover.
/// - **What crosses threads has one owner**: pixels are value arrays; other
///   streams' packets (`Packet`) and the decoder's pictures that go with the
///   frames to the writer (`Picture`) are freed by their last holder; the
///   writer gets the streams' parameters copied at open (`VideoStreams`),
///   never the reader.
///
/// ## Stopping
/// A `RecordingStop` request interrupts the reader; the frames already read
/// are covered and the output finished (`Report.ending == .stopped`). For a
/// live source the end of the stream or a read error after frames arrived
/// ends the recording the same way (`.streamEnded`); a file cut short or
/// damaged gives a valid shorter output (`.truncated`). Cancelling the task
/// instead abandons the work and leaves nothing under the output's name.
public struct VideoAnonymizer: Sendable {
    /// How faces and text are covered.
    public var cover: Cover
    /// How faces are found and carried between detections.
    public var detection: Detection
    /// How the output's video stream is encoded.
    public var encoding: EncoderSettings
    /// What is read, and how.
    public var source: Source
    /// A re-render from a state; nil: a first run, the detector finds the faces.
    public var review: Review?

    /// The request, built once from its groups: what a run works out for
    /// itself (its plan, the splice, the boxes followed back, a live view's
    /// ends) is `VideoRun`'s.
    public init(cover: Cover = Cover(), detection: Detection = Detection(), encoding: EncoderSettings = EncoderSettings(),
                source: Source = Source(), review: Review? = nil) {
        self.cover = cover; self.detection = detection; self.encoding = encoding; self.source = source; self.review = review
    }

    /// The schedule for a live source's frames of `size` (upright) while it
    /// is kept up with: `schedule`, with `liveWholePixels` where the frames need tiles.
    func liveSchedule(for size: PixelSize) -> DetectionSchedule {
        guard source.realtime, let live = detection.liveWholePixels, detection.schedule.tiling.needsTiles(size) else { return detection.schedule }
        var s = detection.schedule
        s.wholePixels = min(s.wholePixels, live)
        s.everyPassTileScale = detection.liveFirstTileScale
        return s
    }

    /// How the input ended.
    public enum Ending: Sendable, Equatable {
        /// It ended (a file read to its end, a stream that closed).
        case complete
        /// A `RecordingStop` was requested.
        case stopped
        /// A live source failed after frames arrived (a stream's timeout is
        /// its usual end): the recording holds every frame that arrived.
        case streamEnded(reason: String)
        /// A file was cut short or damaged: the output holds what could be read.
        case truncated(reason: String)
    }

    /// Input-to-output delay of frames: from decoded to handed to the encoder.
    public struct Latency: Sendable {
        public var median: Double
        public var p99: Double
        public var max: Double
    }

    /// What was done.
    public struct Report: Sendable {
        /// Counts: frames, detector runs and runs skipped, faces covered, tracks.
        public var frames = 0, detections = 0, skippedDetections = 0, facesCovered = 0, tracks = 0
        /// Seconds from the first decoded frame to the end (fps = frames / seconds).
        public var seconds = 0.0
        /// Streams kept besides the video, and how many were re-encoded.
        public var copiedStreams = 0
        public var reencodedStreams = 0
        public var info: VideoInfo?
        public var ending = Ending.complete
        public var latency: Latency?
        /// A re-render: frames and GOPs copied from the previous output, GOPs
        /// re-encoded; or why every frame was re-encoded (nil on a first run).
        public var copiedFrames = 0
        public var copiedGOPs = 0, renderedGOPs = 0
        public var fullRender: String?
        /// How the run covered and encoded (a file output's): what its editing state records.
        public var rendered: Rendered?
    }

    /// The choices a finished run made, as its state keeps them.
    public struct Rendered: Sendable {
        public var style: CoverStyle
        public var shape: CoverRegion.Shape
        public var maskScale: Double
        /// Text was covered (`--cover text`): the state keeps the text tracks.
        public var coversText: Bool
        /// The output's video stream: what a re-render must match to copy from it.
        public var encoder: VideoEditingState.EncoderSettings
    }

    /// How far a run is, handed to `run`'s `progress` after each frame.
    public struct Progress: Sendable {
        public var info: VideoInfo
        /// Frames covered and handed to the encoder.
        public var frames: Int
        /// Frames decoded and waiting to be covered (frames in = frames + waiting).
        public var waiting: Int
        public var skippedDetections: Int
        /// Seconds since the first frame was decoded (not since the run began:
        /// a live source may keep it waiting).
        public var seconds: Double
    }

    /// One frame's boxes, for review or re-rendering (`--json`).
    public struct FrameRecord: Sendable {
        public var index: Int
        public var time: Double
        public var faces: [TrackedBox]
        /// The text boxes covered (`--cover text`), by text track id (ids of their own).
        public var texts: [TrackedBox] = []
        /// Faces embedded on this frame, by track id (with `people`): for the
        /// `TrackRecorder`'s proposal of people, never written (not in `--json`'s log either).
        public var embeddings: [(track: Int, embedding: FaceEmbedding)] = []
    }

    /// Anonymizes `input` (a file, a stream URL or a device) into `output`. A
    /// file output is written to a temporary file renamed at the end; a
    /// failure or a cancellation removes it. `stop` ends the reading early
    /// and keeps what was read (a live recording's end). With a `review`
    /// whose `previous` output is given, the run copies the GOPs of it no
    /// edit changes, or, when it cannot, re-encodes every frame and says why
    /// (`Report.fullRender`).
    public func run(input: String, output: String, stop: RecordingStop? = nil,
                    progress: @Sendable (Progress) -> Void = { _ in },
                    record: (@Sendable (FrameRecord) -> Void)? = nil) async throws -> Report {
        try await run(input: VideoSource.checked(input, format: source.format, output: output), output: output,
                      stop: stop, progress: progress, record: record)
    }

    /// The same for an input its caller has classified and checked (`VideoSource.checked`).
    public func run(input source: VideoSource, output: String, stop: RecordingStop? = nil,
                    progress: @Sendable (Progress) -> Void = { _ in },
                    record: (@Sendable (FrameRecord) -> Void)? = nil) async throws -> Report {
        // FFmpeg's tee muxer opens its file branches itself, outside the
        // temporary name and the rename, and wrote a 293-byte file where the
        // summary counted 100 frames: refused rather than half supported.
        if encoding.format == "tee" {
            throw VeilError.invalidArgument("--output-format tee is not supported: write the file with one run and stream with another (or stream, then record the stream)")
        }
        return try await run(source: source, to: .file(OutputTarget(output, explicitFormat: encoding.format)), stop: stop,
                             progress: progress, record: record)
    }

    /// Where a run's covered frames go: a file (through its temporary name), or a live view's viewers.
    enum Destination {
        case file(OutputTarget)
        case view(LiveView)
    }

    /// The run of `run` and `view`: the plan made once from the checked input; then frames flow.
    func run(source: VideoSource, to destination: Destination, stop: RecordingStop?,
             progress: @Sendable (Progress) -> Void, record: (@Sendable (FrameRecord) -> Void)?) async throws -> Report {
        let start = Date()
        let input = source.name
        let reader = VideoReader()
        let target: OutputTarget?, capacity: Int
        switch destination {
        case let .file(file):
            file.sweepStale()
            // A file is written from the decoder's pictures.
            (target, capacity, reader.keepsPictures) = (file, self.source.realtime ? 32 : 3, true)
        case .view:
            // A view shows RGB, and a viewer wants the newest frame: a short
            // queue, and frames that find it full are not shown.
            (target, capacity, reader.keepsPictures) = (nil, 3, false)
        }
        stop?.onRequest { reader.interrupt() }
        let format = encoding.format ?? target?.impliedFormat
        let run = try await plan(input: input, format: format, destination: destination, reader: reader)
        let decoded = ThreadChannel<ReadItem>(capacity: capacity)
        let (url, inputFormat, limit, live) = (input, self.source.format, self.source.maxFramePixels, source.isLive)
        // A live source is opened once the model is ready and has run once:
        // frames that arrived while it loaded waited for it, and the first
        // frames' latency was the model's start (bench/live 1920x1080 on AVX2
        // kernels: p99 median 263 ms, against 223 with the stream started
        // after it). So is a file shown live (the Live tab), read at its own
        // pace into a queue of three: on a cold start (a new build, its
        // prepared models not yet made) its first frames waited for the model
        // and the ones behind them were not shown. A file to write opens
        // while the model does.
        let detects = cover.faces && run.plan.detects
        let viewing: Bool = if case .view = destination { true } else { false }
        if detects, live || viewing { try await detection.detector.warmUp() }
        let readerThread = IOThread(name: "veil-video-read") {
            switch run.plan {
            case let .splice(splice, _):
                SpliceReader(splice: splice, input: (url, inputFormat, limit)).run(reader, into: decoded)
            case let .segment(segment):
                Self.readAll(reader, url: url, format: inputFormat, maxPixels: limit, live: live, segment: segment, into: decoded)
            case let .view(view):
                // A file shown live is read at its own pace, as a camera sends it.
                Self.readAll(reader, url: url, format: inputFormat, maxPixels: limit, live: live, into: decoded, dropping: view.dropped,
                             paced: !live)
            case .detect, .replay:
                Self.readAll(reader, url: url, format: inputFormat, maxPixels: limit, live: live, into: decoded)
            }
        }
        var pipeline = Pipeline(run: run, source: source, writePath: target?.writePath ?? "", format: format)
        let outcome: Result<Report, Error>
        do {
            // The models open while the reader opens a file to write (a view
            // warmed its one detector up above, and reads no lean, no people).
            if detects, !live, !viewing {
                try await detection.detector.prepare()
                if detection.detector.turn != nil { try await leanReader.prepare() }
                if detection.people != nil { _ = try await FaceEmbedder.load(home: detection.detector.home, device: detection.detector.computeDevice) }
            }
            try await withTaskCancellationHandler {
                try await pipeline.run(decoded, progress: progress, record: record)
            } onCancel: {
                reader.interrupt()
                decoded.close()
            }
            outcome = .success(try await pipeline.finish(stopped: stop?.isRequested ?? false))
        } catch {
            outcome = .failure(error)
        }
        reader.interrupt()
        decoded.close()
        await pipeline.abandon()
        _ = await readerThread.value
        switch outcome {
        case var .success(report):
            try target?.commit()
            // From the first decoded frame: a live source's wait is not work.
            report.seconds = Date().timeIntervalSince(pipeline.firstFrameAt ?? start)
            if target != nil, let info = report.info {
                report.rendered = Rendered(style: cover.face.style, shape: cover.shape, maskScale: cover.face.profile.scale, coversText: cover.text != nil,
                                           encoder: encoder(for: info, format: format).record(width: info.width, height: info.height))
            }
            switch run.plan {
            case let .splice(splice, replay):
                (report.copiedGOPs, report.renderedGOPs) = (splice.copiedGOPs, splice.renderedGOPs)
                // Copied frames are covered as the state says: counted as a rendered frame's boxes are
                // (a re-render said 1,138 face-frames covered where its output covered 2,178).
                report.facesCovered += splice.pieces.reduce(0) { total, piece in
                    guard case let .copy(_, frames) = piece else { return total }
                    return total + frames.reduce(0) { $0 + replay.state.regions(at: $1).count }
                }
            case let .replay(replay):
                (report.fullRender, report.renderedGOPs) = (replay.fullRender, replay.renderedGOPs)
            case .detect, .segment, .view:
                break
            }
            return report
        case let .failure(error):
            target?.discard()
            throw error
        }
    }

    /// The run's plan: a live view; a segment; a re-render that copies from
    /// the previous output (or, when it cannot, renders in full, saying why:
    /// `fullRender`); else a first run, the detector's. The boxes of added
    /// regions to follow back are found first (a pass of their own, over the
    /// frames before each region's key). A re-render opens the input here,
    /// in `reader`, to plan the splice from its streams; the reader thread
    /// goes on reading from that open input.
    func plan(input: String, format: String?, destination: Destination, reader: VideoReader) async throws -> VideoRun {
        if case let .view(view) = destination { return VideoRun(request: self, plan: .view(view)) }
        if let segment = source.segment { return VideoRun(request: self, plan: .segment(segment)) }
        guard let review else { return VideoRun(request: self, plan: .detect) }
        var replay = Replay(state: review.state, followedBack: try await followingBack(review.state, input: input))
        guard let previous = review.previous else { return VideoRun(request: self, plan: .replay(replay)) }
        do {
            let splice = try plannedSplice(input: input, format: format, previous: previous, replay: replay, reader: reader)
            // Nothing to copy: the full render makes the same file, reading the input once.
            if splice.copiedGOPs > 0 { return VideoRun(request: self, plan: .splice(splice, replay)) }
            replay.renderedGOPs = splice.renderedGOPs
        } catch {
            replay.fullRender = (error as? VideoSplice.Refusal)?.description ?? "\(error)"
        }
        return VideoRun(request: self, plan: .replay(replay))
    }

    /// How a video of `info` is encoded into `format`, worked out once, in
    /// one place: the run's writer, a splice's and the state all read it.
    func encoder(for info: VideoInfo, format: String?) -> EncoderSettings {
        encoding.resolved(for: info, format: format, realtime: source.realtime, replaying: review != nil)
    }

    /// The splice of the previous output this re-render follows, or a `VideoSplice.Refusal`.
    func plannedSplice(input: String, format: String?, previous: PreviousRender, replay: Replay, reader: VideoReader) throws -> VideoSplice {
        guard review?.copiesUnchangedGOPs ?? false else { throw VideoSplice.Refusal("every frame's boxes are logged (--json)") }
        do { try reader.openOnce(input, format: source.format, maxPixels: source.maxFramePixels) } catch { throw VideoSplice.Refusal("\(error)") }
        let encoder = encoder(for: reader.info, format: format)
        let from = replay.followedBack.mapValues { $0.keys.min() ?? Int.max }
        return try VideoSplice.plan(previous: previous, input: input, streams: reader.streams(),
                                    changed: replay.state.framesChanged(since: previous.state, followedFrom: from),
                                    settings: encoder.record(width: reader.info.width, height: reader.info.height),
                                    options: VideoWriter.Options(encoder: encoder))
    }

    /// The reader thread: opens the input (unless the plan did), then sends what it reads until the
    /// end, an interrupt, or a closed queue. An error mid-way is sent on and
    /// reading goes on (the decoder gives up the frames it holds).
    static func readAll(_ reader: VideoReader, url: String, format: String?, maxPixels: Int, live: Bool, segment: VideoSegment? = nil,
                        into queue: ThreadChannel<ReadItem>, dropping: DroppedFrames? = nil, paced: Bool = false) {
        defer { queue.close() }
        var pace = FramePacing()
        var range = SegmentFilter(segment: segment)
        do {
            try reader.openOnce(url, format: format, maxPixels: maxPixels, live: live)
            if let seek = segment?.seek { try reader.seek(to: seek) }
        } catch {
            queue.sendBlocking(.failed(error))
            return
        }
        guard queue.sendBlocking(.opened(reader.info, reader.streams())) else { return }
        var failures = 0
        // Frames dropped since the last one handed on.
        var skipped = 0
        while failures < 100 {
            let item: ReadItem
            do {
                let event = try reader.next()
                switch (event, range.judge(event, audio: reader.info.hasAudio)) {
                case (_, .drop): continue
                case (.end, _), (_, .end):
                    queue.sendBlocking(.end(damagedPackets: reader.damagedPackets))
                    return
                case let (.frame(pixels, _, _), .preroll): item = .preroll(pixels: pixels)
                case let (.frame(pixels, pts, picture), _):
                    if paced { pace.wait(untilShowing: pts, timeBase: reader.info.timeBase) }
                    item = .frame(pixels: pixels, pts: pts, decodedAt: Uptime.now(), skipped: skipped, picture: picture)
                case let (.packet(packet), _): item = .packet(packet)
                }
            } catch {
                failures += 1
                item = .failed(error)
            }
            if let dropping, case .frame = item {
                switch queue.offer(item) {
                case nil: dropping.count(); skipped += 1
                case false?: return
                case true?: skipped = 0
                }
                continue
            }
            guard queue.sendBlocking(item) else { return }
        }
    }
}

/// What the reader thread hands the pipeline.
enum ReadItem: Sendable {
    case opened(VideoInfo, VideoStreams)
    /// `skipped`: frames decoded just before this one and not handed on (a
    /// live view's drops): the analyser's clock and camera count them.
    /// `picture`: the decoded frame itself, for the writer (`Picture`).
    case frame(pixels: [UInt8], pts: Int64, decodedAt: UInt64, skipped: Int, picture: Picture?)
    /// A frame before a segment's range: analysed, not written.
    case preroll(pixels: [UInt8])
    case packet(Packet)
    /// A spliced re-render (`VideoSplice`): a video packet of the previous
    /// output, copied as it is, and the start of a run of frames to encode
    /// afresh, the first of them frame `at` of the video.
    case copied(Packet)
    case restart(at: Int)
    /// The input failed; more may follow (frames the decoder still held).
    case failed(Error)
    case end(damagedPackets: Int)
}

/// What the pipeline hands the writer thread.
enum WriteItem: Sendable {
    /// `changed`: where the covers were drawn, the only pixels taken from
    /// `pixels` when there is a `picture` (`VideoWriter.write(frame:pts:over:changed:)`).
    case frame(pixels: [UInt8], pts: Int64, decodedAt: UInt64, picture: Picture?, changed: [PixelRect])
    case packet(Packet)
    /// A spliced re-render's copied video packet, and the start of frames
    /// to encode with a new encoder.
    case videoPacket(Packet)
    case restart
    case end
}
