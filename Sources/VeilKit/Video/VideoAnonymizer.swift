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
    /// Video favours recall, as photos do, and keeps the picture: RetinaFace
    /// at its privacy threshold (0.08), large faces held to higher scores
    /// (`largeFaceSide` 32), masks 0.95 of photos'. Chosen on
    /// coverage, collateral and speed together
    /// (docs/design/video-tracking.md#boxes-the-size-of-faces): what costs
    /// frame after frame is the network's time per pixel, and RetinaFace
    /// takes about a quarter of CenterFace's. Its tiles stay at full
    /// resolution (`schedule`): upsampling every tile of every frame costs
    /// more than video can pay.
    public var detector: DetectFaceRectanglesRequest = {
        var request = DetectFaceRectanglesRequest.privacy(.retinaFace)
        request.largeFaceSide = 32
        return request
    }()
    /// Masks 0.95 of photos' (1.0): the re-encode's ringing round a cover's
    /// cells changes pixels just past its disc that a photo keeps, and the
    /// smaller disc pays for them; a carried box is already widened by the
    /// tracker's prediction (`FaceTracker.Track.predicted`). Coverage held
    /// on every dev clip (docs/design/video-tracking.md#one-off-sightings).
    public var cover = FaceCover(profile: MaskProfile(scale: 0.95))
    public var shape: CoverRegion.Shape = .disc
    /// Whether faces are covered (`--cover text` alone: no).
    public var coversFaces = true
    /// Text to cover (`--cover faces,text`): found on the detection frames,
    /// carried between them by a tracker of its own, covered as boxes.
    public var text: TextCovering?
    /// Which frames, and which part of them, the detector sees; the tracker
    /// carries faces between.
    public var schedule = DetectionSchedule()
    /// Frames a face stays covered after the detector last saw it: longer than
    /// a full sweep of the tiles, so small faces found in one stay covered
    /// until their tile comes round again.
    public var grace = 25
    /// How far the tracker's boxes may stray from what the detector saw.
    public var trackerLimits = FaceTracker.Limits()
    /// Propose which tracks are one person (nil: not): a few sightings of each
    /// track embedded as the run goes (`FrameRecord.embeddings`), for the
    /// `TrackRecorder` to group. `VideoReview` sets it on a file's first run.
    public var people: PersonProposal?
    /// For live sources: skip detections (never frames) to keep up with the
    /// source, and let up to `liveQueue` decoded frames wait.
    public var realtime = false
    /// Live (`realtime`), frames too large for one whole-frame pass (1080p)
    /// have it shrunk to this many pixels while the source is kept up with
    /// (nil: the schedule's `wholePixels` always). A live source skips the
    /// detections it has no time for, and the whole pass is most of a 1080p
    /// detection's cost: a cheaper one leaves time for twice the detections
    /// and covers more. Once frames are very late the schedule's own pass
    /// comes back, which covers more on a machine too slow for the stream
    /// (docs/design/video-tracking.md#the-detection-schedule).
    public var liveWholePixels: Int? = 400_000

    /// The schedule for a live source's frames of `size` (upright) while it
    /// is kept up with: `schedule`, with `liveWholePixels` where the frames need tiles.
    func liveSchedule(for size: PixelSize) -> DetectionSchedule {
        guard realtime, let live = liveWholePixels, schedule.tiling.needsTiles(size) else { return schedule }
        var s = schedule
        s.wholePixels = min(s.wholePixels, live)
        return s
    }
    public var inputFormat: String?
    public var outputFormat: String?
    public var codec: String?
    public var crf = 20
    /// x264's preset; nil: veryfast, or ultrafast with `realtime`. Live,
    /// the encoder's time is taken from detection: at 1280x720 on 2 cores
    /// veryfast alone runs at 26 fps without any detection, ultrafast at
    /// 53 (files 1.7x larger than superfast's at the same CRF).
    public var preset: String?
    /// x264's tune (e.g. "zerolatency") and extra parameters ("key=value:...").
    public var tune: String?
    /// A 5-frame lookahead, not veryfast's 10, and no frames buffered ahead
    /// of it: less memory and CPU for nearly the same quality, and less
    /// latency live. With `ultrafast` (live), no lookahead at all: that
    /// preset uses none (x264's own `rc-lookahead` 0 there), so 5 only held
    /// frames back, behind a live stream's slowest frame, its first
    /// (docs/design/video-tracking.md#a-streams-first-second).
    /// nil: `defaultX264Params(preset:)`; "" for x264's own.
    public var x264Params: String?
    ///
    /// Files are encoded without x264's adaptive quantization (`aq-mode=0`):
    /// at CRF 20 it took bits from textured areas, the crowds Veil covers, and
    /// the re-encode alone changed 0.6% of cuts-dev's and cuts-dense's pixels
    /// away from every face by more than 12 grey levels; without it 0.03–0.04%,
    /// at about the input's size (1.5–1.7x the output's size with it). Live
    /// (ultrafast) keeps x264's own, for speed.
    public static func defaultX264Params(preset: String) -> String {
        preset == "ultrafast" ? "rc-lookahead=0:sync-lookahead=0" : "rc-lookahead=5:sync-lookahead=0:aq-mode=0"
    }
    /// One encoder thread: beside detection's two on two cores, a second x264
    /// frame thread only competed for them (crowd-1080p, paired: wall 1.12x
    /// faster with one, the same CPU, peak RSS -35 MB).
    public var encoderThreads = 1
    /// `--no-audio`: the output carries the video stream alone (no audio, no subtitles).
    public var dropAudio = false
    /// Frames larger than this are refused from the header. Peak memory grows
    /// with the frame: RGB frames in the queues (six at most) with their
    /// decoded pictures (half an RGB frame each, held for the writer), the decoder's
    /// and x264's pictures (a 5-frame lookahead, one thread); detection's
    /// working memory is bounded by the largest pass (0.62 MP), not the
    /// frame. Measured peak RSS (2026-11-30, RetinaFace): 194 MiB at 960x540, 357 MiB at
    /// 1920x1080 (bench/crowd); 8K frames take several GB.
    public var maxFramePixels = 8192 * 4320
    /// One time range of the input (`VideoSegments.plan`), or nil for all of it.
    public var segment: VideoSegment?
    /// Re-render from this state: its tracks and added regions are covered,
    /// and the detector does not run (frame indices are the output's; not
    /// with a `segment`).
    public var replay: VideoEditingState?
    /// Whether a re-render may copy from the previous output (false: every
    /// frame is rendered, and `record` sees each, as `--json` needs).
    public var copiesUnchangedGOPs = true
    /// Seconds between keyframes (x264's keyint, unless `x264Params` sets
    /// one): GOPs a re-render can copy, for some file size and no measurable
    /// encoding time
    /// (docs/design/splice-and-segments.md#re-rendering-only-what-an-edit-changes).
    public var keyframeSeconds = 2.0

    /// Settings only: what a run works out for itself (its plan, the splice,
    /// the boxes followed back, a live view's ends) is `VideoRun`'s.
    public init() {}

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
    /// and keeps what was read (a live recording's end). `previous`: with
    /// `replay`, the output that state was last rendered into
    /// (`VideoReview.previousRender`): the run copies the GOPs of it no edit
    /// changes, or, when it cannot, re-encodes every frame and says why
    /// (`Report.fullRender`).
    public func run(input: String, output: String, previous: PreviousRender? = nil, stop: RecordingStop? = nil,
                    progress: @Sendable (Progress) -> Void = { _ in },
                    record: (@Sendable (FrameRecord) -> Void)? = nil) async throws -> Report {
        try await run(input: VideoSource.checked(input, format: inputFormat, output: output), output: output, previous: previous,
                      stop: stop, progress: progress, record: record)
    }

    /// The same for an input its caller has classified and checked (`VideoSource.checked`).
    public func run(input source: VideoSource, output: String, previous: PreviousRender? = nil, stop: RecordingStop? = nil,
                    progress: @Sendable (Progress) -> Void = { _ in },
                    record: (@Sendable (FrameRecord) -> Void)? = nil) async throws -> Report {
        try await run(source: source, output: output, previous: previous, view: nil, stop: stop, progress: progress, record: record)
    }

    /// The run of `run` and `view`: the plan made once from the checked input; then frames flow.
    func run(source: VideoSource, output: String, previous: PreviousRender?, view: LiveView?, stop: RecordingStop?,
             progress: @Sendable (Progress) -> Void, record: (@Sendable (FrameRecord) -> Void)?) async throws -> Report {
        let start = Date()
        let input = source.name
        // FFmpeg's tee muxer opens its file branches itself, outside the
        // temporary name and the rename, and wrote a 293-byte file where the
        // summary counted 100 frames: refused rather than half supported.
        if outputFormat == "tee" {
            throw VeilError.invalidArgument("--output-format tee is not supported: write the file with one run and stream with another (or stream, then record the stream)")
        }
        // A live view writes no file.
        let target = view == nil ? OutputTarget(output, explicitFormat: outputFormat) : nil
        target?.sweepStale()
        let reader = VideoReader()
        // A view shows RGB; a file is written from the decoder's pictures.
        reader.keepsPictures = view == nil
        stop?.onRequest { reader.interrupt() }
        let (run, planned) = try await plan(input: input, format: outputFormat ?? target?.impliedFormat, previous: previous, view: view, reader: reader)
        // A viewer wants the newest frame: a short queue, and frames that find it full are not shown.
        let decoded = ThreadChannel<ReadItem>(capacity: view != nil ? 3 : realtime ? 32 : 3)
        let (url, format, limit, live) = (input, inputFormat, maxFramePixels, source.isLive)
        // A live source is opened once the model is ready and has run once:
        // frames that arrived while it loaded waited for it, and the first
        // frames' latency was the model's start (bench/live 1920x1080 on AVX2
        // kernels: p99 median 263 ms, against 223 with the stream started
        // after it). A file opens while the model does.
        if coversFaces, replay == nil, live { try await detector.warmUp() }
        let readerThread = IOThread(name: "veil-video-read") {
            switch run.plan {
            case let .splice(splice):
                SpliceReader(splice: splice, input: (url, format, limit)).run(reader, into: decoded)
            case let .segment(segment):
                Self.readAll(reader, url: url, format: format, maxPixels: limit, live: live, segment: segment, into: decoded)
            case let .view(view):
                // A file shown live is read at its own pace, as a camera sends it.
                Self.readAll(reader, url: url, format: format, maxPixels: limit, live: live, into: decoded, dropping: view.dropped,
                             paced: !live)
            case .plain:
                Self.readAll(reader, url: url, format: format, maxPixels: limit, live: live, into: decoded)
            }
        }
        var pipeline = Pipeline(run: run, source: source, writePath: target?.writePath ?? "", format: outputFormat ?? target?.impliedFormat)
        let outcome: Result<Report, Error>
        do {
            // The model opens while the reader opens a file.
            if coversFaces, replay == nil, !live {
                try await detector.prepare()
                if detector.turn != nil { try await leanReader.prepare() }
                if people != nil { _ = try await FaceEmbedder.load(home: detector.home, device: detector.computeDevice) }
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
            report.fullRender = planned.fullRender
            if let target, let info = report.info {
                report.rendered = Rendered(style: cover.style, shape: shape, maskScale: cover.profile.scale, coversText: text != nil,
                                           encoder: encoderPlan(format: outputFormat ?? target.impliedFormat, info: info).settings)
            }
            (report.copiedGOPs, report.renderedGOPs) = run.splice.map { ($0.copiedGOPs, $0.renderedGOPs) } ?? planned.gops
            // Copied frames are covered as the state says: counted as a rendered frame's boxes are
            // (a re-render said 1,138 face-frames covered where its output covered 2,178).
            if let splice = run.splice, let replay {
                report.facesCovered += splice.pieces.reduce(0) { total, piece in
                    guard case let .copy(_, frames) = piece else { return total }
                    return total + frames.reduce(0) { $0 + replay.regions(at: $1).count }
                }
            }
            return report
        case let .failure(error):
            target?.discard()
            throw error
        }
    }

    /// What a re-render that copies nothing says of itself.
    struct Planned { var fullRender: String?; var gops = (0, 0) }

    /// The run's plan: a live view; a segment; a re-render that copies from
    /// `previous` (or, when it cannot, renders in full, saying why: `fullRender`);
    /// else the plain run. The boxes of added regions to follow back are found
    /// first (a pass of their own, over the frames before each region's key).
    /// A re-render opens the input here, in `reader`, to plan the splice from
    /// its streams; the reader thread goes on reading from that open input.
    func plan(input: String, format: String?, previous: PreviousRender?, view: LiveView?, reader: VideoReader) async throws -> (VideoRun, Planned) {
        if let view { return (VideoRun(request: self, plan: .view(view), followedBack: [:]), Planned()) }
        if let segment { return (VideoRun(request: self, plan: .segment(segment), followedBack: [:]), Planned()) }
        let followedBack = try await followingBack(input: input)
        var planned = Planned()
        guard let previous else { return (VideoRun(request: self, plan: .plain, followedBack: followedBack), planned) }
        do {
            let splice = try plannedSplice(input: input, format: format, previous: previous, followedBack: followedBack, reader: reader)
            // Nothing to copy: the plain render makes the same file, reading the input once.
            if splice.copiedGOPs > 0 { return (VideoRun(request: self, plan: .splice(splice), followedBack: followedBack), planned) }
            planned.gops = (0, splice.renderedGOPs)
        } catch {
            planned.fullRender = (error as? VideoSplice.Refusal)?.description ?? "\(error)"
        }
        return (VideoRun(request: self, plan: .plain, followedBack: followedBack), planned)
    }

    /// How a video of `info` is encoded into `format`, worked out once, in
    /// one place: the writer's options, x264's keyframe interval set for the
    /// rate, and what the state records of them (the encoder `EncoderChoice`
    /// takes — the one asked for, else this FFmpeg's libx264, H.264 or MPEG-4 —
    /// not the name asked for, so a state made where libx264 is missing says
    /// what wrote the file). The run's writer, a splice's and the state all read it.
    struct EncoderPlan { var options: VideoWriter.Options; var settings: VideoEditingState.EncoderSettings }

    func encoderPlan(format: String?, info: VideoInfo) -> EncoderPlan {
        let preset = preset ?? (realtime ? "ultrafast" : "veryfast")
        let params = x264Params(for: info, preset: preset)
        let options = VideoWriter.Options(format: format, codec: codec, crf: crf, preset: preset, tune: tune,
                                          x264Params: params, encoderThreads: encoderThreads, dropAudio: dropAudio)
        let encoder = (try? EncoderChoice.encoder(asked: codec)) ?? codec ?? "libx264"
        return EncoderPlan(options: options, settings: .init(format: format, codec: encoder, crf: options.crf, preset: options.preset, tune: options.tune,
                                                             x264Params: params, width: info.width, height: info.height))
    }

    /// x264's parameters for a video of `info`'s rate: `x264Params` (or the
    /// preset's default, given explicitly or not) with a keyframe every
    /// `keyframeSeconds` unless they set keyint themselves.
    private func x264Params(for info: VideoInfo, preset: String) -> String {
        let given = x264Params ?? Self.defaultX264Params(preset: preset)
        if given.contains("keyint=") { return given }
        let keyint = "keyint=\(max(1, Int((keyframeSeconds * info.framesPerSecond).rounded())))"
        return given.isEmpty ? keyint : "\(given):\(keyint)"
    }

    /// The splice of the previous output this re-render follows, or a `VideoSplice.Refusal`.
    func plannedSplice(input: String, format: String?, previous previousRender: PreviousRender,
                       followedBack: [Int: [Int: ImageRect]], reader: VideoReader) throws -> VideoSplice {
        guard let replay else { throw VideoSplice.Refusal("there is no previous output") }
        guard copiesUnchangedGOPs else { throw VideoSplice.Refusal("every frame's boxes are logged (--json)") }
        do { try reader.openOnce(input, format: inputFormat, maxPixels: maxFramePixels) } catch { throw VideoSplice.Refusal("\(error)") }
        let encoder = encoderPlan(format: format, info: reader.info)
        let from = followedBack.mapValues { $0.keys.min() ?? Int.max }
        return try VideoSplice.plan(previous: previousRender, input: input, streams: reader.streams(),
                                    changed: replay.framesChanged(since: previousRender.state, followedFrom: from),
                                    settings: encoder.settings, options: encoder.options)
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
