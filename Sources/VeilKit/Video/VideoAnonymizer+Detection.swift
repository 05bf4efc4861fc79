import Foundation

/// What the video pipeline asks of each frame: which faces to cover. It owns
/// the detection schedule and the tracker, so the pipeline (decode, render,
/// encode) knows nothing of how faces are found or carried between detections.
struct FrameAnalyzer {
    struct Step {
        /// Boxes to cover, in the frame's stored pixels, with their track ids.
        var boxes: [(id: Int, box: ImageRect, detected: Bool)]
        var detected = false
        /// A detection was due but skipped (live source falling behind).
        var skipped = false
    }

    let anonymizer: VideoAnonymizer
    let rotation: ImageOrientation
    let uprightSize: PixelSize
    private var tracker: FaceTracker

    init(anonymizer: VideoAnonymizer, info: VideoInfo) {
        self.anonymizer = anonymizer
        rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        uprightSize = info.rotation % 180 == 0 ? PixelSize(width: info.width, height: info.height) : PixelSize(width: info.height, height: info.width)
        tracker = FaceTracker(grace: anonymizer.grace)
    }

    var trackCount: Int { tracker.tracks.count }

    /// Detects (when the schedule says so and `mayDetect`), updates the
    /// tracker, and returns the boxes for frame `index`.
    mutating func analyze(_ frame: VeilImage, index: Int, mayDetect: Bool) async throws -> Step {
        let pass = anonymizer.schedule.pass(for: index, size: uprightSize)
        var step = Step(boxes: [])
        if pass != .none {
            if mayDetect {
                let found = try await anonymizer.detect(pass, in: frame, rotation: rotation)
                tracker.update(frame: index, detections: found)
                step.detected = true
            } else {
                step.skipped = true
            }
        }
        step.boxes = tracker.boxes(at: index)
        return step
    }
}

/// Detection inside a video frame: which pass the schedule asked for, run on
/// the upright frame, mapped back to the frame's stored pixels.
extension VideoAnonymizer {
    /// Faces in a frame, in the frame's stored pixels: found on the upright
    /// frame (shrunk, or one tile of it), then mapped back.
    func detect(_ pass: DetectionSchedule.Pass, in frame: VeilImage, rotation: ImageOrientation) async throws -> [(box: ImageRect, confidence: Float)] {
        let upright = try frame.applying(rotation)
        var found: [DetectedFace] = []
        switch pass {
        case .none:
            return []
        case let .whole(scale):
            found = try await detectWhole(upright, scale: scale)
        case let .tile(rect, inner):
            found = try await detectTile(upright, rect: rect, inner: inner)
        case let .everything(scale, tiles, inner):
            found = try await detectWhole(upright, scale: scale)
            for (rect, edges) in zip(tiles, inner) { found += try await detectTile(upright, rect: rect, inner: edges) }
            found = nonMaximumSuppression(found, iou: 0.3)
        }
        return found.map { (rotation.storedRect(for: $0.box, uprightSize: upright.size), $0.score) }
    }

    /// The whole upright frame shrunk by `scale`; boxes in the frame's pixels.
    func detectWhole(_ upright: VeilImage, scale: Double) async throws -> [DetectedFace] {
        let small = scale < 1 ? try upright.resized(width: Int(Double(upright.width) * scale), height: Int(Double(upright.height) * scale)) : upright
        var request = detector
        request.plan = DetectionPlan(singlePassPixels: small.width * small.height)
        let sx = Double(upright.width) / Double(small.width), sy = Double(upright.height) / Double(small.height)
        return try await request.detect(in: small).map { $0.mapped(dx: 0, dy: 0, sx: sx, sy: sy) }
    }

    /// One full-resolution tile; faces cut by its inner edges are left to its neighbours.
    func detectTile(_ upright: VeilImage, rect: PixelRect, inner: [Bool]) async throws -> [DetectedFace] {
        let tile = try upright.cropped(to: rect)
        var request = detector
        request.plan = DetectionPlan(singlePassPixels: tile.width * tile.height)
        return try await request.detect(in: tile).filter { face in
            let b = face.box, m = 2.0
            return !((inner[0] && b.x <= m) || (inner[1] && b.y <= m)
                || (inner[2] && b.x + b.width >= Double(rect.width) - m) || (inner[3] && b.y + b.height >= Double(rect.height) - m))
        }.map { $0.mapped(dx: Double(rect.x), dy: Double(rect.y), sx: 1, sy: 1) }
    }
}
