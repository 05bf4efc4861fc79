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
    /// How far a prediction may stray from what was seen. Each rule's worth,
    /// in coverage and collateral on both dev clips, is in
    /// docs/design/video-tracking.md#boxes-the-size-of-faces.
    public struct Limits: Sendable, Hashable {
        /// Widening a frame since the last sighting, as a share of the face's
        /// size: with a measured velocity, and for a face seen once (no
        /// velocity of its own yet: a walker crossing close to the camera
        /// moves about half a face a frame; crowd-1080p's fastest, 35 px on a
        /// 78 px face). 0.5 for the latter (as far as `maxGrowth` lets a box
        /// grow) holds that walker's centre in the full-strength part of
        /// video's disc (0.95 of photos'; 0.3 when masks were 1.1x, 0.45 at 1.0).
        public var growth = 0.05
        public var unmeasuredGrowth = 0.5
        /// The widest a prediction gets, as a share of the face's size added:
        /// 0.5 is at most 1.5x the face, however long it is carried.
        public var maxGrowth = 0.5
        /// A face's change of size a frame that is carried on (a walker
        /// coming at the camera at 1.4 m/s from 3 m grows ~2% a frame at 25
        /// fps), and the most it is carried in all (x1.25 or /1.25).
        public var maxSizeRate = 0.02
        public var maxSizeChange = 1.25
        /// Detections at or above this score choose among all tracks first
        /// (ByteTrack's first stage); weaker ones among the tracks left.
        public var confirmScore: Float = 0.5
        /// Detections a candidate outlives without a second sighting: counted
        /// in the detector's looks, not in frames, so a schedule that detects
        /// every third frame gives a candidate the same chances. With every
        /// frame detected, 3 keeps a false sighting up for 3 frames after it.
        public var candidateLife = 3
        /// Detections that looked everywhere (`update(…, everywhere:)`) a
        /// sighting found once, and not again, outlives: none. It is covered
        /// on the frame it was found and not carried: most are
        /// RetinaFace's one-off sightings at its low privacy threshold (a
        /// hand, a pattern in a crowd's clothes), and carried they made 41% of
        /// cuts-dense's collateral while being the only cover of 0.7% of its
        /// face-frames; a face found again within `candidateLife` detections
        /// is a candidate as before (docs/design/video-tracking.md#one-off-sightings).
        public var onceLife = 0
        /// Frames a track's own velocity is carried past its last sighting:
        /// past that it moves with the camera alone. A face that is not
        /// found keeps no momentum: carried on, a jittered estimate flies
        /// off the face within a few frames.
        public var ownMotionFrames = 5
        /// How far apart a track's prediction and a detection may be to match
        /// when their boxes barely overlap, in the larger box's sides.
        public var matchReach = 0.75
        /// When a sighting is a face (`Track.isFace`): found on this many
        /// detections with a best score of at least `faceScore`, or once at
        /// `strongScore`. Until then it is covered while seen, but it is not
        /// a track to review: the state lists it apart, as unsure. On the dev
        /// clips the best score decides and the number of detections counts
        /// little (docs/design/video-tracking.md#a-track-is-a-face).
        public var faceDetections = 2
        public var faceScore: Float = 0.5
        public var strongScore: Float = 0.9
        /// A sighting the score confirms but never saw at `sureScore`, nor on
        /// `sureDetections` detections, is a face only once the other model,
        /// given a crop of it, finds a face there at `opinionScore` or more
        /// (`Track.opinion`; nil: no other model asked, the score alone
        /// confirms). RetinaFace takes a hand beside a face for one at
        /// 0.5–0.9, CenterFace sees nothing there; weak real faces in a crowd
        /// are seen again and again (docs/design/video-tracking.md#hands-are-not-faces).
        public var sureScore: Float = 0.8
        public var sureDetections = 10
        public var opinionScore: Float? = 0.1
        /// Crops of one sighting given to the other model at most, each at a
        /// better score than the last.
        public var opinionAsks = 3
        /// A sighting that never scored `weakScore` is covered only where the
        /// other model, given a crop of it, finds a face there at
        /// `coverOpinionScore` (photos' own threshold: a frame covered as a
        /// photo would not cover it otherwise). RetinaFace at video's low
        /// threshold sees hands on knees, a shoulder or a wall beside a face,
        /// again and again at 0.09–0.3. At most `coverAsksPerFrame` such crops
        /// a frame, the rest covered while seen: a crowd's weak sightings are
        /// its small faces, and a crop each cost cuts-dense 3.5x its time
        /// (nil: every sighting covered while seen)
        /// (docs/design/video-tracking.md#weak-sightings-covered-where-a-photo-would-be).
        public var weakScore: Float = 0.3
        public var coverOpinionScore: Float? = 0.12
        public var coverAsksPerFrame = 4
        /// A sighting carried the grace period once seen this often at this
        /// score (or once at `strongScore`); any other is a candidate, covered
        /// `candidateLife` more detections. Lower than `faceScore`: tracks of
        /// weak small faces seen again and again are carried all the same.
        public var carryScore: Float = 0.3
        /// A sighting never seen at `sureScore` ends, whatever the grace,
        /// once the detector, looking at the whole frame in full, has missed it
        /// since its last detection more than this many times its detections
        /// (nil: carried the grace period). A face is found again; RetinaFace
        /// took a scarf and folded arms below a face (boxes of 155x236 px) for
        /// faces 2 and 3 times at 0.46–0.57, never again, and the grace
        /// carried them 25 frames more: a held-out clip's collateral went
        /// from 1.51x its frames as photos' to 1.08x (704 face-frames
        /// covered against 707, its photos 698), the dev clips' and the other
        /// held-out clips' faces covered as before
        /// (docs/design/video-tracking.md#sightings-the-detector-no-longer-finds).
        public var missesPerDetection: Int? = 3

        public init() {}

        /// Whether the other model is asked anything (`opinionScore`, `coverOpinionScore`).
        public var asksOtherModel: Bool { opinionScore != nil || coverOpinionScore != nil }

        /// The same limits with no other model asked: the score alone confirms, every sighting is covered while seen.
        public var withoutOtherModel: Limits {
            var limits = self
            (limits.opinionScore, limits.coverOpinionScore) = (nil, nil)
            return limits
        }
    }

    public struct Track: Sendable, Equatable {
        public var id: Int
        /// The last detected box.
        public var box: ImageRect
        /// Motion of the box's centre per frame (x, y).
        public var velocity: (Double, Double)
        /// Relative change of size per frame, within ±`Limits.maxSizeRate`.
        public var sizeRate = 0.0
        public var lastSeen: Int
        public var confidence: Float
        /// Detections matched to this track so far.
        public var hits = 1
        /// Detections since the last sighting that did not find it.
        public var misses = 0
        /// Of those, the ones that looked at the whole frame at full
        /// resolution: a face there would have been found again.
        public var missesEverywhere = 0
        /// The largest side any of its detections had: no prediction grows past
        /// `1 + maxGrowth` times it.
        public var largest: Double
        /// The best score any of its detections had.
        public var best: Float
        /// The other model's best score on crops of it (`Limits.opinionScore`),
        /// how often it was asked, and the detection score it was last asked at.
        public var opinion: Float = 0
        public var asked = 0
        public var askedAt: Float = 0

        public init(id: Int, box: ImageRect, velocity: (Double, Double) = (0, 0), lastSeen: Int, confidence: Float) {
            self.id = id; self.box = box; self.velocity = velocity; self.lastSeen = lastSeen
            self.confidence = confidence
            largest = max(box.width, box.height)
            best = confidence
        }

        /// Whether the detector has confirmed it as a face (`Limits.faceDetections`, `faceScore`, `strongScore`),
        /// and, below `sureScore` and `sureDetections`, the other model too: once it is, it stays one.
        public func isFace(_ limits: Limits) -> Bool {
            guard confirmed(limits, at: limits.faceScore) else { return false }
            guard let bar = limits.opinionScore else { return true }
            return best >= limits.sureScore || hits >= limits.sureDetections || opinion >= bar
        }

        /// Whether to give the other model a crop of this track's detection of
        /// `confidence` on this frame: it would be a face but for the other
        /// model's word, and the detection is its most confident yet asked.
        public func wantsOpinion(at confidence: Float, _ limits: Limits) -> Bool {
            limits.opinionScore != nil && confidence >= limits.faceScore && asksAgain(at: confidence, limits)
                && confirmed(limits, at: limits.faceScore) && !isFace(limits)
        }

        /// Whether to ask the other model whether this weak sighting is covered
        /// (`Limits.coverOpinionScore`): it never scored `weakScore`, and this
        /// detection is its most confident yet asked.
        public func wantsCoverOpinion(at confidence: Float, _ limits: Limits) -> Bool {
            limits.coverOpinionScore != nil && best < limits.weakScore && asksAgain(at: confidence, limits)
        }

        /// The other model is asked again only at a better score than last time, and `Limits.opinionAsks` times at most.
        private func asksAgain(at confidence: Float, _ limits: Limits) -> Bool { confidence > askedAt && asked < limits.opinionAsks }

        /// Whether it is covered: any sighting but a weak one the other model, asked, did not find.
        public func isCovered(_ limits: Limits) -> Bool {
            guard let bar = limits.coverOpinionScore, best < limits.weakScore, asked > 0 else { return true }
            return opinion >= bar
        }

        /// Whether looks at the whole frame have missed it more often than a
        /// face, found as often as it was, is missed (`Limits.missesPerDetection`).
        public func isDisproved(_ limits: Limits) -> Bool {
            guard let k = limits.missesPerDetection, best < limits.sureScore else { return false }
            return missesEverywhere > k * hits
        }

        /// Kept for the whole grace period (`Limits.carryScore`), else a candidate.
        public func isCarried(_ limits: Limits) -> Bool { confirmed(limits, at: limits.carryScore) }

        private func confirmed(_ limits: Limits, at score: Float) -> Bool {
            (hits >= limits.faceDetections && best >= score) || best >= limits.strongScore
        }

        public static func == (a: Track, b: Track) -> Bool { a.id == b.id && a.box == b.box && a.lastSeen == b.lastSeen }

        /// Where the face should be at `frame`: moved by its velocity, its
        /// size changed as a face can, widened by the uncertainty, never past
        /// `1 + maxGrowth` times the face (last seen or largest seen).
        public func predicted(at frame: Int, limits: Limits = Limits()) -> ImageRect {
            let n = Double(max(0, frame - lastSeen))
            guard n > 0 else { return box }
            let sized = min(max(1 + sizeRate * n, 1 / limits.maxSizeChange), limits.maxSizeChange)
            let widen = 1 + min(limits.maxGrowth, (hits > 1 ? limits.growth : limits.unmeasuredGrowth) * n)
            let cap = (1 + limits.maxGrowth) * largest / max(box.width, box.height, 1)
            let scale = min(sized * widen, cap, 1 + limits.maxGrowth)
            let w = max(1, box.width * scale), h = max(1, box.height * scale)
            let moved = min(n, Double(limits.ownMotionFrames))
            return ImageRect(x: box.midX + velocity.0 * moved - w / 2, y: box.midY + velocity.1 * moved - h / 2, width: w, height: h)
        }
    }

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

extension BoxTracker.Track {
    /// A detection matched to this track: the velocity measured outright on
    /// the second sighting (the first had none), then smoothed half and half;
    /// the size rate measured the same way, within what a face can do.
    mutating func observe(_ detection: (box: ImageRect, confidence: Float), at frame: Int, limits: BoxTracker.Limits) {
        let new = detection.box, gap = Double(max(1, frame - lastSeen))
        let measured = ((new.midX - box.midX) / gap, (new.midY - box.midY) / gap)
        let old = max(box.width, box.height, 1), size = max(new.width, new.height)
        let rate = min(max((size / old - 1) / gap, -limits.maxSizeRate), limits.maxSizeRate)
        if hits == 1 {
            velocity = measured; sizeRate = rate
        } else {
            velocity = ((velocity.0 + measured.0) / 2, (velocity.1 + measured.1) / 2)
            sizeRate = (sizeRate + rate) / 2
        }
        hits += 1
        misses = 0
        missesEverywhere = 0
        box = new
        largest = max(largest, size)
        lastSeen = frame
        confidence = detection.confidence
        best = max(best, detection.confidence)
    }
}

