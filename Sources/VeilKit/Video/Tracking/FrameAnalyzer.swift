import Foundation

/// What the video pipeline asks of each frame: which faces to cover. It owns
/// the detection schedule and the tracker, so the pipeline (decode, render,
/// encode) knows nothing of how faces are found or carried between detections.
struct FrameAnalyzer {
    struct Step {
        /// Boxes to cover, in the frame's stored pixels, with their track ids.
        var boxes: [TrackedBox]
        /// Text to cover (`--cover text`), in the frame's stored pixels, with the text tracks' ids.
        var text: [TrackedBox] = []
        /// Pen strokes to paint (a state's, on their frames), in the frame's stored pixels.
        var strokes: [Stroke] = []
        var detected = false
        /// A detection was due but skipped (live source falling behind).
        var skipped = false
        /// A new shot begins on this frame (a hard cut): every track ended.
        var cut = false
        /// The detection ran every pass (the first frame, a new shot): the
        /// frames queued behind it are late because of it, not of a machine too slow.
        var full = false
        /// Faces embedded on this frame (`VideoAnonymizer.people`), by track id: kept by the
        /// `TrackRecorder` for the run's proposal of people, never written anywhere.
        var embeddings: [(track: Int, embedding: FaceEmbedding)] = []
    }

    let anonymizer: VideoAnonymizer
    let rotation: ImageOrientation
    /// The frames' size as decoded, and turned upright.
    let storedSize: PixelSize, uprightSize: PixelSize
    private var tracker: BoxTracker
    /// A live source's schedule while it is kept up with (`VideoAnonymizer.liveSchedule(for:)`).
    private let liveSchedule: DetectionSchedule
    /// How the camera moved since the frame before, or that a shot began.
    private var camera = CameraObserver()
    /// The frame analysed last: a jump (a segment's pre-roll) is no camera motion.
    private var lastIndex: Int?
    /// The trackers' clock, in frames of the source: the analysed frames and
    /// those a live view dropped between them (`skipped`). Velocities,
    /// predictions and the grace period are in the source's frames, so a face
    /// is carried as far as the time that passed, not the frames seen.
    private var clock = -1
    /// How far this shot's faces lean (`VideoAnonymizer.lean`): nil until read,
    /// read again after a cut; .some(nil) for an upright shot.
    private var shotLean: Double??
    /// Text regions carried between detections as faces are (a plate passing by).
    private var textTracker: BoxTracker
    /// Re-rendering from a state: its boxes, and the followers of the boxes
    /// a person added to be followed, by region id.
    private let replay: VideoEditingState?
    private var followers: [Int: BoxFollower] = [:]
    /// Where those boxes were followed back to, before their key frame.
    private let followedBack: [Int: [Int: ImageRect]]
    /// Proposing people (`VideoAnonymizer.people`): which sightings to embed, and the
    /// network, loaded on the first face it embeds.
    private var embeddingSchedule: EmbeddingSchedule?
    /// Who confirms RetinaFace's less certain sightings as faces (`BoxTracker.Limits.opinionScore`).
    private let opinion: SecondOpinion?
    /// Where a frame covered as a photo has faces, for the sightings between the weak and
    /// the sure (`BoxTracker.Limits.photoVerdictEvery`).
    private let photoVerdict: PhotoVerdict?
    /// The last detected frame's second looks, answered beside this frame's detection (`SecondLooks`).
    private var pending: PendingLooks?
    private var embedder: FaceEmbedder?

    init(run: VideoRun, info: VideoInfo) {
        let anonymizer = run.request
        self.anonymizer = anonymizer
        rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        storedSize = PixelSize(width: info.width, height: info.height)
        uprightSize = info.rotation % 180 == 0 ? storedSize : PixelSize(width: info.height, height: info.width)
        liveSchedule = anonymizer.liveSchedule(for: uprightSize)
        // The other model's word is asked of RetinaFace's sightings in files only: a live source has no time for
        // it and no state to list tracks in, and CenterFace as the detector would be asked of itself.
        var limits = anonymizer.detection.trackerLimits
        if anonymizer.source.realtime || anonymizer.detection.detector.model != .retinaFace { limits = limits.withoutOtherModel }
        opinion = limits.asksOtherModel ? SecondOpinion(detector: anonymizer.detection.detector) : nil
        photoVerdict = limits.photoVerdictEvery != nil ? PhotoVerdict(detector: anonymizer.detection.detector) : nil
        tracker = BoxTracker(grace: anonymizer.detection.grace, limits: limits, frame: storedSize)
        textTracker = BoxTracker(grace: anonymizer.detection.grace, limits: limits.withoutOtherModel, frame: storedSize)
        switch run.plan {
        case let .replay(replay), let .splice(_, replay):
            self.replay = replay.state
            followedBack = replay.followedBack
        case .detect, .segment, .view:
            (replay, followedBack) = (nil, [:])
        }
        embeddingSchedule = anonymizer.detection.people.map(EmbeddingSchedule.init)
    }

    /// With a state: frame `index`'s boxes (and text boxes) from it, no
    /// detection. Added boxes to follow are where `BackwardFollow` found them
    /// before their key frame, and from it on go on while `BoxFollower` finds them.
    mutating func replaying(_ pixels: [UInt8], index: Int) -> Step? {
        guard let replay else { return nil }
        var boxes = replay.regions(at: index).map { TrackedBox.given(id: $0.id, box: $0.box) }
        let (w, h) = (storedSize.width, storedSize.height)
        for region in replay.manual where region.status == .covered && region.follow && region.followed == nil {
            guard let key = region.keys.first, region.keys.count == 1 else { continue }
            if index < key.frame {
                if let box = followedBack[region.id]?[index] { boxes.append(.given(id: region.id, box: box)) }
            } else if key.frame == index {
                let box = ImageRect(x: key.box.x * Double(w), y: key.box.y * Double(h), width: key.box.width * Double(w), height: key.box.height * Double(h))
                followers[region.id] = BoxFollower(pixels, width: w, height: h, box: box)
                boxes.append(.given(id: region.id, box: box))
            } else if var follower = followers[region.id] {
                if let box = follower.follow(pixels, width: w, height: h) {
                    followers[region.id] = follower
                    boxes.append(.given(id: region.id, box: box))
                } else {
                    followers[region.id] = nil
                }
            }
        }
        return Step(boxes: boxes, text: replay.textRegions(at: index).map { TrackedBox.given(id: $0.id, box: $0.box) },
                    strokes: replay.strokes(at: index))
    }

    /// Tracks started so far (the distinct ids of the frame log).
    var trackCount: Int { tracker.started }

    /// Detects (when the schedule says so and `mayDetect`), updates the
    /// tracker, and returns the boxes for frame `index` (RGB `pixels` of the
    /// stored size). `skipped`: frames of the source dropped just before this
    /// one (a live view falling behind). The pixels are copied into an image
    /// only to detect: the caller's buffer stays unshared, to be covered in place.
    mutating func analyze(_ pixels: [UInt8], index: Int, mayDetect: Bool, skipped: Int = 0, keepingUp: Bool = false) async throws -> Step {
        if let step = replaying(pixels, index: index) { return step }
        if let last = lastIndex, index != last + 1 { camera.reset() }
        // An index that jumps ahead ages the tracks as far as it jumped.
        clock += max(1, index - (lastIndex ?? index - 1)) + max(0, skipped)
        lastIndex = index
        let avoid = tracker.tracks.map { $0.box }
        let change = camera.observe(pixels, width: storedSize.width, height: storedSize.height, avoiding: avoid, gap: 1 + max(0, skipped))
        var step = Step(boxes: [])
        switch change {
        case let .moved(motion):
            tracker.follow(camera: motion)
            textTracker.follow(camera: motion)
        case .cut:
            // The answers are about the shot's tracks: heard before they end.
            try await hearPendingLooks()
            tracker.endShot()
            textTracker.endShot()
            step.cut = true
        case .start, .unknown:
            break
        }
        // A new shot is detected in full, whatever the schedule or the live backlog.
        let schedule = keepingUp ? liveSchedule : anonymizer.detection.schedule
        let passes = schedule.passes(for: index, size: uprightSize, newShot: step.cut)
        if !passes.isEmpty {
            if mayDetect || step.cut {
                let frame = try VeilImage(pixels: pixels, width: storedSize.width, height: storedSize.height, bands: 3)
                // A file's shot whose faces lean together gets the same passes on each frame turned upright;
                // a live source's budget has no room for them.
                if step.cut || shotLean == nil, !anonymizer.source.realtime, anonymizer.cover.faces {
                    shotLean = .some(try await anonymizer.lean(of: frame, rotation: rotation))
                }
                var turned: (degrees: Double, passes: (PixelSize) -> [DetectionPass])?
                if let degrees = shotLean ?? nil {
                    turned = (degrees, { [step] size in schedule.passes(for: index, size: size, newShot: step.cut) })
                }
                let found = anonymizer.cover.faces ? try await anonymizer.detect(passes, in: frame, rotation: rotation, turned: turned) : []
                try await hearPendingLooks()
                let ids = tracker.update(frame: clock, detections: found.map { ($0.box, $0.confidence) },
                                         everywhere: DetectionSchedule.looksEverywhere(passes, size: uprightSize))
                let (now, later) = SecondLooks.asked(about: found, tracks: ids, by: tracker, frame: clock,
                                                     crops: opinion != nil, photo: photoVerdict != nil)
                if !now.isEmpty { hear(try await now.answers(in: frame, rotation: rotation, opinion: opinion, verdict: photoVerdict)) }
                if !later.isEmpty {
                    pending = PendingLooks(later, in: frame, rotation: rotation, opinion: opinion, verdict: photoVerdict)
                }
                if embeddingSchedule != nil { step.embeddings = try await embed(found, tracks: ids, in: pixels) }
                if anonymizer.cover.text != nil {
                    textTracker.update(frame: clock, detections: try await anonymizer.detectText(in: frame, rotation: rotation), everywhere: false)
                }
                step.detected = true
                step.full = schedule.runsEveryPass(index: index, newShot: step.cut)
            } else {
                step.skipped = true
            }
        }
        step.boxes = tracker.boxes(at: clock)
        if anonymizer.cover.text != nil { step.text = textTracker.boxes(at: clock) }
        return step
    }
}

extension FrameAnalyzer {
    /// Hears the answers to the last frame's second looks, if any are in flight.
    private mutating func hearPendingLooks() async throws {
        guard let looks = pending else { return }
        pending = nil
        hear(try await looks.answers())
    }

    private mutating func hear(_ answers: SecondLooks.Answers) {
        for o in answers.opinions { tracker.heard(o.score, about: o.track, at: o.confidence) }
        for p in answers.photo { tracker.heardPhoto(found: p.found, about: p.track) }
    }

    /// The embeddings of the detections the schedule chooses (`EmbeddingSchedule`):
    /// sightings with five landmarks of tracks the tracker holds to be faces, on the
    /// frame's own pixels, all in one run of the network.
    private mutating func embed(_ found: [FaceSighting], tracks ids: [Int], in pixels: [UInt8]) async throws -> [(track: Int, embedding: FaceEmbedding)] {
        guard var schedule = embeddingSchedule else { return [] }
        let faces = Dictionary(uniqueKeysWithValues: tracker.tracks.map { ($0.id, $0.isFace(tracker.limits)) })
        let candidates = found.indices.filter { found[$0].landmarks.count == 5 && faces[ids[$0]] == true }
            .map { (index: $0, track: ids[$0], score: found[$0].confidence, box: found[$0].box) }
        let chosen = schedule.choose(candidates, at: clock)
        embeddingSchedule = schedule
        guard !chosen.isEmpty else { return [] }
        if embedder == nil { embedder = try await FaceEmbedder.load(home: anonymizer.detection.detector.home, device: anonymizer.detection.detector.computeDevice) }
        let embeddings = try await embedder!.embeddings(of: chosen.map { found[$0].landmarks }, in: pixels,
                                                        width: storedSize.width, height: storedSize.height)
        return zip(chosen, embeddings).map { (ids[$0], $1) }
    }
}

/// A face found on a frame, in the frame's stored pixels: its box, score and five landmarks.
typealias FaceSighting = (box: ImageRect, confidence: Float, landmarks: [(x: Double, y: Double)])

/// Detection inside a video frame: the passes the schedule asked for, run on
/// the upright frame, mapped back to the frame's stored pixels. With
/// `turned` (a turn, and the schedule's passes for a canvas of a given size),
/// the frame of a shot whose faces lean together (a phone held at a slant)
/// gets them again on the frame turned until its faces are upright: pan-small
/// turned 35° was 0.974 covered with upright passes alone.
extension VideoAnonymizer {
    func detect(_ passes: [DetectionPass], in frame: VeilImage, rotation: ImageOrientation,
                turned: (degrees: Double, passes: (PixelSize) -> [DetectionPass])? = nil) async throws -> [FaceSighting] {
        let upright = try frame.applying(rotation)
        var found = try await detection.detector.detect(in: upright, passes: passes)
        if let turned {
            let (canvas, plane) = try upright.rotated(clockwise: turned.degrees)
            let again = try await detection.detector.detect(in: canvas, passes: turned.passes(plane.turned))
            found = droppingFacesThatHoldFaces(nonMaximumSuppression(found + again.compactMap { $0.turnedBack(plane) }, iou: 0.3))
        }
        return found.map { face in
            (rotation.storedRect(for: face.box, uprightSize: upright.size), face.score,
             face.landmarks.map { rotation.storedPoint(for: $0, uprightSize: upright.size) })
        }
    }

    /// How far to turn a shot's frames to set its faces upright (nil: they are,
    /// or too few say), read once a shot from CenterFace's whole pass at the
    /// analysis threshold: RetinaFace, video's detector, draws turned faces'
    /// landmarks nearly level (pan-small turned 35°: eye lines of 1–21°).
    func lean(of frame: VeilImage, rotation: ImageOrientation) async throws -> Double? {
        guard let turn = detection.detector.turn else { return nil }
        let upright = try frame.applying(rotation)
        // The whole frame at up to 1.1 megapixels, its faces of every size (shrunk, the pass would keep
        // only 48 px and up; the photo tiler's whole pass shrinks to 0.44 for its tiles, not run here).
        let whole = leanReader.tiling.whole(for: upright.size).map { var pass = $0; pass.minFace = 0; return pass }
        return turn.correction(for: try await leanReader.detect(in: upright, passes: whole))
    }

    /// CenterFace at the analysis preset, on the detector's device, precision and home.
    var leanReader: DetectFaceRectanglesRequest {
        var reader = DetectFaceRectanglesRequest.analysis
        reader.tiling = DetectionTiling()
        return reader.running(like: detection.detector)
    }
}

extension VideoAnonymizer {
    /// The covered text of a frame (upright for the detector), as boxes in the frame's stored pixels.
    func detectText(in frame: VeilImage, rotation: ImageOrientation) async throws -> [(box: ImageRect, confidence: Float)] {
        guard let text = cover.text else { return [] }
        let upright = try frame.applying(rotation)
        return try await text.found(in: upright, device: detection.detector.computeDevice).filter(\.covered).map {
            (rotation.storedRect(for: $0.text.bounds, uprightSize: upright.size), $0.text.score)
        }
    }
}
