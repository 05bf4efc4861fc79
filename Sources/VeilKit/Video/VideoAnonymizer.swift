import Foundation

/// Covers every face in every frame of a video: decode → detect → track →
/// render → encode, as concurrent stages joined by bounded queues (memory flat
/// whatever the length; frames never reordered or dropped), with the other
/// streams (audio) copied as they are.
public struct VideoAnonymizer: Sendable {
    public var detector = DetectFaceRectanglesRequest()
    public var cover = FaceCover()
    public var shape: CoverRegion.Shape = .disc
    /// Run the detector on every k-th frame; the tracker carries faces between.
    public var detectEvery = 2
    /// Frames a face stays covered after the detector last saw it.
    public var grace = 12
    /// Detection runs on the frame shrunk to at most this many pixels.
    public var detectionPixels = 1_100_000
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
        public var copiedStreams = 0
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
        var report = Report(copiedStreams: writer.copiedStreams, info: info)

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

        var tracker = FaceTracker(grace: grace)
        let rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        let timeBase = Double(info.timeBase.num) / Double(max(1, info.timeBase.den))
        var skipDetectionUntil = 0
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
                    var due = index % max(1, detectEvery) == 0
                    // Live: when frames wait, skip this detection; the tracker covers.
                    if realtime && due && (decoded.count > 2 || index < skipDetectionUntil) {
                        due = false
                        report.skippedDetections += 1
                    }
                    if due {
                        let found = try await detect(in: frame, rotation: rotation)
                        tracker.update(frame: index, detections: found)
                        report.detections += 1
                    }
                    let boxes = tracker.boxes(at: index)
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
        report.tracks = tracker.tracks.count
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// Faces in a frame, in the frame's stored pixels: found on the upright,
    /// shrunk frame, then mapped back.
    private func detect(in frame: VeilImage, rotation: ImageOrientation) async throws -> [(box: ImageRect, confidence: Float)] {
        let upright = try frame.applying(rotation)
        let scale = min(1, (Double(detectionPixels) / Double(upright.width * upright.height)).squareRoot())
        let small = scale < 1 ? try upright.resized(width: Int(Double(upright.width) * scale), height: Int(Double(upright.height) * scale)) : upright
        var request = detector
        request.plan = DetectionPlan(singlePassPixels: max(detectionPixels, small.width * small.height), tileSize: 1024, overlap: 256)
        let faces = try await request.detect(in: small)
        let sx = Double(upright.width) / Double(small.width), sy = Double(upright.height) / Double(small.height)
        return faces.map { face in
            let r = ImageRect(x: face.box.x * sx, y: face.box.y * sy, width: face.box.width * sx, height: face.box.height * sy)
            return (rotation.storedRect(for: r, uprightSize: upright.size), face.score)
        }
    }
}

/// The first error any stage met.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ error: Error) { lock.lock(); if stored == nil { stored = error }; lock.unlock() }
}

/// A file output goes through a temporary name beside it; URLs and devices are written directly.
struct OutputTarget {
    let finalPath: String
    let writePath: String
    let impliedFormat: String?

    init(_ output: String, explicitFormat: String?) {
        finalPath = output
        let isFile = !output.contains("://") && explicitFormat == nil && !output.hasPrefix("/dev/")
        if isFile {
            let url = URL(fileURLWithPath: output)
            writePath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).part").path
            impliedFormat = VideoFormats.muxer(forExtension: url.pathExtension)
        } else {
            writePath = output
            impliedFormat = nil
        }
    }

    func commit() throws {
        guard writePath != finalPath else { return }
        guard rename(writePath, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw VeilError.unwritable(path: finalPath, reason: reason)
        }
    }

    func discard() {
        if writePath != finalPath { unlink(writePath) }
    }
}

enum VideoFormats {
    /// FFmpeg muxer names for common extensions (the temporary name hides them).
    static func muxer(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "mp4", "m4v": return "mp4"
        case "mov": return "mov"
        case "mkv": return "matroska"
        case "webm": return "webm"
        case "avi": return "avi"
        case "ts": return "mpegts"
        default: return nil
        }
    }
}

extension ImageOrientation {
    /// The orientation that turns frames upright given a display rotation.
    init(clockwiseDegrees degrees: Int) {
        switch (degrees % 360 + 360) % 360 {
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: self = .up
        }
    }

    /// A rectangle of the upright image mapped back onto the stored pixels.
    func storedRect(for rect: ImageRect, uprightSize: PixelSize) -> ImageRect {
        let W = Double(uprightSize.width), H = Double(uprightSize.height)
        switch self {
        case .right:  // stored (x, y) -> upright (Hs - y, x): inverse (x', y') -> (y', W - x')
            return ImageRect(x: rect.y, y: W - rect.x - rect.width, width: rect.height, height: rect.width)
        case .left:   // inverse of a quarter turn anticlockwise
            return ImageRect(x: H - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        case .down:
            return ImageRect(x: W - rect.x - rect.width, y: H - rect.y - rect.height, width: rect.width, height: rect.height)
        default:
            return rect
        }
    }
}
