import Foundation

/// Carries boxes between detections so none flickers into view (faces, and
/// with `--cover text` the text regions, each with a tracker of its own): each track
/// moves with its measured velocity on frames the detector skips or misses,
/// widens with the uncertainty, and stays for a grace period after the
/// detector last saw it.
///
/// Positions are kept in the current frame's coordinates: each frame the
/// camera's motion (`follow(camera:)`) carries every track first, so a
/// velocity is the face's own motion, not the camera's, and a hand-held
/// shot's jitter moves prediction and face alike. A track's own motion is
/// carried at most `Limits.ownMotionFrames` frames past its last sighting;
/// a cut ends every track (`endShot`); a track more than its size outside
/// the frame ends (a face jittered just past the edge comes back as itself).
///
/// A track's box stays the size of a face: it covers where the face can be
/// and no more (`Limits`). The uncertainty grows a bounded share of the
/// face's size a frame and stops at `maxGrowth`; a change of size is carried
/// on only as fast and as far as a face can change size; and a sighting not
/// seen twice at `carryScore` (nor once at `strongScore`) is a candidate that
/// lives `candidateLife` detections unless sightings confirm it. A track is
/// a face (`isFace`, what the state lists as a track) at a higher bar still,
/// so that a false sighting is neither carried long nor listed as a person,
/// and no box measured between two noisy sightings grows past the face
/// (docs/design/video-tracking.md#boxes-the-size-of-faces,
/// docs/design/video-tracking.md#a-track-is-a-face).
public struct BoxTracker: Sendable {
    /// Frames a confirmed track outlives its last detection.
    public var grace: Int
    public var limits: Limits
    public private(set) var tracks: [Track] = []
    private var nextID = 1
    /// Tracks started so far: the distinct ids a run's frame log holds.
    public var started: Int { nextID - 1 }

    /// The frame's size, where known: a face cut by the frame's edge is
    /// found as its visible part, and keeps the size it had inside.
    public var frame: PixelSize?

    public init(grace: Int = 12, limits: Limits = Limits(), frame: PixelSize? = nil) {
        self.grace = grace; self.limits = limits; self.frame = frame
    }

    /// Takes the detector's boxes for `frame`: matched to tracks by overlap with
    /// their predictions, unmatched ones start new tracks (candidates below
    /// `confirmScore`). Tracks whose own velocity is not known yet, and new
    /// ones, move with the motion most faces share (`commonMotion`): a panning
    /// camera moves every face alike. Returns the id of the track each detection
    /// went to, in the detections' order.
    ///
    /// `everywhere`: the detection looked at the whole frame at full
    /// resolution (`DetectionSchedule.looksEverywhere`). Only such a look
    /// ends a sighting found once (`Limits.onceLife`): a tile or a shrunk
    /// whole pass that did not find it may simply not have looked.
    @discardableResult
    public mutating func update(frame: Int, detections: [(box: ImageRect, confidence: Float)], everywhere: Bool = true) -> [Int] {
        var assigned = [Int](repeating: 0, count: detections.count)
        let shared = BoxTracker.commonMotion(of: tracks, to: detections.map(\.box), at: frame)
        if let shared {
            for t in tracks.indices where tracks[t].hits == 1 { tracks[t].velocity = shared }
        }
        var unmatched = Array(detections.indices)
        var usedTracks = Set<Int>()
        // ByteTrack's two stages: confident detections choose among all
        // tracks first, weak ones only among the tracks left, so a weak
        // sighting beside a face never takes that face's track.
        let predictions = tracks.map { $0.predicted(at: frame, limits: limits) }
        let strong = detections.indices.filter { detections[$0].confidence >= limits.confirmScore }
        let weak = detections.indices.filter { detections[$0].confidence < limits.confirmScore }
        for stage in [strong, weak] {
            var pairs: [(track: Int, det: Int, score: Double)] = []
            for t in tracks.indices where !usedTracks.contains(t) {
                for d in stage { if let score = matchScore(predictions[t], detections[d].box) { pairs.append((t, d, score)) } }
            }
            for pair in pairs.sorted(by: { $0.score > $1.score }) where !usedTracks.contains(pair.track) && unmatched.contains(pair.det) {
                usedTracks.insert(pair.track)
                unmatched.removeAll { $0 == pair.det }
                var seen = detections[pair.det]
                if let size = self.frame { seen.box = BoxTracker.extending(seen.box, to: tracks[pair.track].box, pastEdgesOf: size) }
                seen.box = BoxTracker.shrinking(seen.box, from: tracks[pair.track].box, limits: limits)
                tracks[pair.track].observe(seen, at: frame, limits: limits)
                assigned[pair.det] = tracks[pair.track].id
            }
        }
        for t in tracks.indices where !usedTracks.contains(t) {
            tracks[t].misses += 1
            if everywhere { tracks[t].missesEverywhere += 1 }
        }
        // A track left unmatched whose prediction lies on (IoU > 0.5) a face
        // detected now and matched to another track is that face seen twice:
        // it goes, or a sticker style shows the face with two or three
        // stickers. Neighbours in a crowd overlap less (a looser rule lost a
        // face of crowd-1080p).
        var duplicate = Set<Int>()
        for t in tracks.indices where !usedTracks.contains(t) {
            let p = predictions[t]
            if detections.indices.contains(where: { d in
                let b = detections[d].box
                guard !unmatched.contains(d) else { return false }
                return p.iou(b) > 0.5
            }) { duplicate.insert(tracks[t].id) }
        }
        for d in unmatched {
            let (box, score) = detections[d]
            tracks.append(Track(id: nextID, box: box, velocity: shared ?? (0, 0), lastSeen: frame, confidence: score))
            assigned[d] = nextID
            nextID += 1
        }
        tracks.removeAll { duplicate.contains($0.id) }
        prune(at: frame)
        return assigned
    }

    /// Whether a frame covered as a photo had a face where track `id` was
    /// detected (`Track.wantsPhotoVerdict`): once it had, it stays found.
    public mutating func heardPhoto(found: Bool, about id: Int) {
        guard let t = tracks.firstIndex(where: { $0.id == id }) else { return }
        tracks[t].photoFound = tracks[t].photoFound == true || found
    }

    /// The other model's word on track `id`'s detection of `confidence`
    /// (`Track.wantsOpinion`): `score`, 0 where it found no face.
    public mutating func heard(_ score: Float, about id: Int, at confidence: Float) {
        guard let t = tracks.firstIndex(where: { $0.id == id }) else { return }
        tracks[t].asked += 1
        tracks[t].askedAt = confidence
        tracks[t].opinion = max(tracks[t].opinion, score)
    }

    /// How well a detection fits a track's prediction, nil when it cannot be
    /// that face: boxes that overlap (IoU over 0.1), or whose centres are
    /// within half a face of each other, and in either case no further apart
    /// than `matchReach` faces. Overlap ranks first; among equals the nearer.
    func matchScore(_ prediction: ImageRect, _ detection: ImageRect) -> Double? {
        let size = max(prediction.width, prediction.height, detection.width, detection.height, 1)
        let distance = hypot(prediction.midX - detection.midX, prediction.midY - detection.midY) / size
        guard distance < limits.matchReach else { return nil }
        let iou = prediction.iou(detection)
        let near = abs(prediction.midX - detection.midX) < 0.5 * size && abs(prediction.midY - detection.midY) < 0.5 * size
        guard iou > 0.1 || near else { return nil }
        return max(iou, 0.05) + 0.01 * (1 - distance)
    }

    /// The camera moved (previous frame → this one): every track, its last
    /// sighting and its velocity, moves with it.
    public mutating func follow(camera motion: CameraMotion) {
        let scale = motion.scale
        for t in tracks.indices {
            tracks[t].box = motion.apply(tracks[t].box)
            tracks[t].largest *= scale
            let v = tracks[t].velocity
            tracks[t].velocity = (motion.a * v.0 - motion.b * v.1, motion.b * v.0 + motion.a * v.1)
        }
    }

    /// A new shot begins: no face of the last one is in it.
    public mutating func endShot() { tracks.removeAll() }

    /// The motion per frame that most faces share since their last sighting,
    /// or nil without a clear majority. Every pair of a track and a detection
    /// of about its size, moved by at most its size a frame, votes for its
    /// motion (2-pixel bins); the winning bin and its neighbours must hold at
    /// least 3 votes and 60% of the smaller side. Found on pan-small (a window
    /// panning 14 px a frame over a crowd): with a detection every third
    /// frame, new tracks of 20 px faces that stood still in their prediction
    /// lost their match and their cover.
    static func commonMotion(of tracks: [Track], to detections: [ImageRect], at frame: Int) -> (Double, Double)? {
        guard tracks.count >= 3, detections.count >= 3 else { return nil }
        var votes: [SIMD2<Int>: (count: Int, sum: SIMD2<Double>)] = [:]
        for track in tracks {
            let gap = Double(max(1, frame - track.lastSeen)), size = max(track.box.width, track.box.height)
            for box in detections where box.width > 0.67 * track.box.width && box.width < 1.5 * track.box.width {
                let v = SIMD2((box.midX - track.box.midX) / gap, (box.midY - track.box.midY) / gap)
                guard abs(v.x) <= size, abs(v.y) <= size else { continue }
                let key = SIMD2(Int((v.x / 2).rounded()), Int((v.y / 2).rounded()))
                let old = votes[key] ?? (0, .zero)
                votes[key] = (old.count + 1, old.sum + v)
            }
        }
        var best: (count: Int, sum: SIMD2<Double>) = (0, .zero)
        // In a fixed order (a dictionary's is seeded per process): ties go to the first bin.
        for key in votes.keys.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
            var around: (count: Int, sum: SIMD2<Double>) = (0, .zero)
            for dy in -1...1 { for dx in -1...1 {
                if let v = votes[key &+ SIMD2(dx, dy)] { around = (around.count + v.count, around.sum + v.sum) }
            } }
            if around.count > best.count { best = around }
        }
        guard best.count >= max(3, Int(0.6 * Double(min(tracks.count, detections.count)))) else { return nil }
        let mean = best.sum / Double(best.count)
        return (mean.x, mean.y)
    }

    /// A matched detection narrower or shorter than its track by more than a
    /// face can shrink between sightings (`maxSizeChange`) is part of that
    /// face (hair across it, a head in front, a profile half turned): each
    /// side keeps at least the track's side ÷ `maxSizeChange`, about the
    /// detection's centre. On cuts-dev streamed live at 1080p a 75x87 face
    /// was found as 38x89 on the frame after a cut; the disc of that box left
    /// most of her face bare for a frame.
    static func shrinking(_ box: ImageRect, from previous: ImageRect, limits: Limits) -> ImageRect {
        let floor = 1 / max(1, limits.maxSizeChange)
        let w = max(box.width, previous.width * floor), h = max(box.height, previous.height * floor)
        guard w > box.width || h > box.height else { return box }
        return ImageRect(x: box.midX - w / 2, y: box.midY - h / 2, width: w, height: h)
    }

    /// A detection against the frame's edge that is narrower (or shorter)
    /// than its track: the face goes on past the edge, so the box keeps the
    /// track's size there, its inner side where the detector put it. On
    /// pan-small a 33 px face leaving the frame was found as its visible
    /// 18 px, and the disc of that box left half of what was visible bare.
    static func extending(_ box: ImageRect, to previous: ImageRect, pastEdgesOf size: PixelSize) -> ImageRect {
        var r = box
        let (w, h) = (Double(size.width), Double(size.height))
        if r.width < previous.width {
            if r.x <= 1 { r.x = r.x + r.width - previous.width; r.width = previous.width }
            else if r.x + r.width >= w - 1 { r.width = previous.width }
        }
        if r.height < previous.height {
            if r.y <= 1 { r.y = r.y + r.height - previous.height; r.height = previous.height }
            else if r.y + r.height >= h - 1 { r.height = previous.height }
        }
        return r
    }

    /// Every live track's box at `frame` (detected there, or predicted), with
    /// the score of its last detection.
    /// Boxes wholly off the frame cover nothing and are left out.
    public mutating func boxes(at frame: Int) -> [TrackedBox] {
        prune(at: frame)
        let all = tracks.filter { $0.isCovered(limits) }.map {
            TrackedBox(id: $0.id, box: $0.lastSeen == frame ? $0.box : $0.predicted(at: frame, limits: limits),
                       detected: $0.lastSeen == frame, score: $0.confidence, unsure: !$0.isFace(limits))
        }
        guard let size = self.frame else { return all }
        let whole = ImageRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        return all.filter { $0.box.intersection(whole) != nil }
    }

    /// Ends tracks past the grace period, candidates (not `isCarried`)
    /// missed by more than `candidateLife` detections, and sightings found
    /// once missed by more than `onceLife` detections that looked everywhere.
    private mutating func prune(at frame: Int) {
        let (grace, life, limits, size) = (grace, limits.candidateLife, limits, self.frame)
        tracks.removeAll { track in
            let missed = track.misses > life || (track.hits == 1 && track.missesEverywhere > limits.onceLife)
            if frame - track.lastSeen > grace || (!track.isCarried(limits) && missed) || track.isDisproved(limits) { return true }
            guard let size else { return false }
            // Off the frame by more than its own size: a face a shaking camera
            // puts just past the edge and back keeps its track.
            let p = track.predicted(at: frame, limits: limits), m = max(p.width, p.height)
            return p.x >= Double(size.width) + m || p.y >= Double(size.height) + m || p.x + p.width <= -m || p.y + p.height <= -m
        }
    }
}
