import Foundation

/// Covers every face in every frame of a video: decode → detect → track →
/// render → encode, as concurrent stages joined by bounded queues (memory flat
/// whatever the length; frames never reordered or dropped), with the other
/// streams (audio) copied as they are.
public struct VideoAnonymizer: Sendable {
    /// Video favours recall, as photos do: the privacy preset's threshold.
    /// Its tiles stay at full resolution (`schedule`): upsampling every tile
    /// of every frame costs more than video can pay.
    public var detector = DetectFaceRectanglesRequest.privacy
    /// Masks 20% larger than for photos: between detections boxes are predictions.
    public var cover = FaceCover(profile: MaskProfile(scale: 1.2))
    public var shape: CoverRegion.Shape = .disc
    /// Which frames, and which part of them, the detector sees; the tracker
    /// carries faces between.
    public var schedule = DetectionSchedule()
    /// Frames a face stays covered after the detector last saw it: longer than
    /// a full sweep of the tiles, so small faces found in one stay covered
    /// until their tile comes round again.
    public var grace = 25
    /// For live sources: skip detections (never frames) to keep up with the source.
    public var realtime = false
    public var inputFormat: String?
    public var outputFormat: String?
    public var codec: String?
    public var crf = 20
    public var preset = "veryfast"
    public var dropAudio = false

    public init() {}

    /// What was done.
    public struct Report: Sendable {
        public var frames = 0
        public var detections = 0
        public var skippedDetections = 0
        public var facesCovered = 0
        public var tracks = 0
        public var seconds = 0.0
        /// Streams kept besides the video, and how many were re-encoded.
        public var copiedStreams = 0
        public var reencodedStreams = 0
        public var info: VideoInfo?
    }

    /// One frame's boxes, for review or re-rendering (`--json`).
    public struct FrameRecord: Sendable {
        public var index: Int
        public var time: Double
        public var faces: [(id: Int, box: ImageRect, detected: Bool)]
    }

    /// Anonymizes `input` into `output`. A file output is written to a
    /// temporary file renamed at the end; a failure removes it.
    public func run(input: String, output: String, progress: @Sendable (Int, VideoInfo) -> Void = { _, _ in },
                    record: (@Sendable (FrameRecord) -> Void)? = nil) async throws -> Report {
        let start = Date()
        let reader = try VideoReader(url: input, format: inputFormat)
        let info = reader.info
        let target = OutputTarget(output, explicitFormat: outputFormat)
        let writer: VideoWriter
        do {
            writer = try VideoWriter(url: target.writePath, reader: reader, options: .init(
                format: outputFormat ?? target.impliedFormat, codec: codec, crf: crf, preset: preset, dropOtherStreams: dropAudio))
        } catch {
            target.discard()
            throw error
        }
        var report = Report(copiedStreams: writer.copiedStreams, reencodedStreams: writer.reencodedStreams, info: info)

        let decoded = BoundedQueue<Result<VideoEvent, Error>>(capacity: 3)
        let encoded = BoundedQueue<VideoEvent>(capacity: 3)
        let failure = ErrorBox()
        let readerThread = Thread {
            while true {
                do {
                    let event = try reader.next()
                    guard decoded.put(.success(event)) else { return }
                    if case .end = event { return }
                } catch {
                    decoded.put(.failure(error))
                    return
                }
            }
        }
        let writerDone = DispatchSemaphore(value: 0)
        let writerThread = Thread {
            defer { writerDone.signal() }
            while let event = encoded.take() {
                do {
                    switch event {
                    case let .frame(pixels, pts): try writer.write(frame: pixels, pts: pts)
                    case let .packet(packet): try writer.write(packet: packet)
                    case .end: try writer.finish(); return
                    }
                } catch {
                    failure.set(error)
                    decoded.close()
                    return
                }
            }
        }
        readerThread.start()
        writerThread.start()

        var analyzer = FrameAnalyzer(anonymizer: self, info: info)
        let timeBase = Double(info.timeBase.num) / Double(max(1, info.timeBase.den))
        do {
            loop: while true {
                guard let next = decoded.take() else { break }
                let event = try next.get()
                switch event {
                case .packet:
                    encoded.put(event)
                case .end:
                    encoded.put(.end)
                    break loop
                case let .frame(pixels, pts):
                    try Task.checkCancellation()
                    let index = report.frames
                    let frame = try VeilImage(pixels: pixels, width: info.width, height: info.height, bands: 3)
                    // Live: when frames wait, skip this detection; the tracker covers.
                    let mayDetect = !(realtime && decoded.count > 2)
                    let step = try await analyzer.analyze(frame, index: index, mayDetect: mayDetect)
                    if step.detected { report.detections += 1 }
                    if step.skipped { report.skippedDetections += 1 }
                    let boxes = step.boxes
                    report.facesCovered += boxes.count
                    let regions = boxes.map { CoverRegion(rect: $0.box, shape: shape) }
                    let rendered = boxes.isEmpty ? pixels : try cover.apply(to: frame, regions: regions).pixelBytes()
                    encoded.put(.frame(pixels: rendered, pts: pts))
                    record?(FrameRecord(index: index, time: Double(pts) * timeBase, faces: boxes))
                    report.frames += 1
                    progress(report.frames, info)
                }
                if let error = failure.error { throw error }
            }
        } catch {
            decoded.close()
            encoded.close()
            writerDone.wait()
            target.discard()
            throw failure.error ?? error
        }
        writerDone.wait()
        if let error = failure.error {
            target.discard()
            throw error
        }
        if report.frames == 0 {
            target.discard()
            throw VeilError.undecodable(reason: "\(input) has no video frames")
        }
        try target.commit()
        report.tracks = analyzer.trackCount
        report.seconds = Date().timeIntervalSince(start)
        return report
    }
}
