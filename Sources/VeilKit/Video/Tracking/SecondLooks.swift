import Foundation

/// What the other model is asked about one frame's sightings (`SecondOpinion`'s
/// crops, `PhotoVerdict`'s photo of the frame), and its answers.
///
/// Most are answered while the next frame is detected (`PendingLooks`), and
/// heard before that frame's detections reach the tracker: the tracker then
/// decides as it did when each frame waited for its answers, but the frame
/// asked about is drawn as it stood before them (a sighting they reject is
/// covered one frame longer). RetinaFace's run on the next frame and
/// CenterFace's runs on this one share the cores; each alone left a core
/// idle for part of its run. Crops of weak sightings are answered before
/// their frame is drawn (`SecondLooks.asked`)
/// (docs/design/video-tracking.md#second-looks-beside-the-next-frame).
struct SecondLooks: Sendable {
    /// Crops for the other model: a track's detection and its score.
    var crops: [(track: Int, box: ImageRect, confidence: Float)] = []
    /// Sightings looked for among the faces of the frame covered as a photo.
    var photo: [(track: Int, box: ImageRect)] = []

    var isEmpty: Bool { crops.isEmpty && photo.isEmpty }

    struct Answers: Sendable {
        var opinions: [(track: Int, score: Float, confidence: Float)] = []
        var photo: [(track: Int, found: Bool)] = []
    }

    /// The answers, on `frame` (stored pixels, turned upright by `rotation`).
    func answers(in frame: VeilImage, rotation: ImageOrientation, opinion: SecondOpinion?, verdict: PhotoVerdict?) async throws -> Answers {
        var answers = Answers()
        if let opinion {
            for crop in crops {
                answers.opinions.append((crop.track, try await opinion.score(of: crop.box, in: frame, rotation: rotation), crop.confidence))
            }
        }
        if let verdict, !photo.isEmpty {
            let found = try await verdict.finds(photo.map(\.box), in: frame, rotation: rotation)
            answers.photo = zip(photo, found).map { ($0.track, $1) }
        }
        return answers
    }
}

extension SecondLooks {
    /// What to ask the other model about one frame's detections, once
    /// `tracker` has taken them (`ids`: each detection's track; `clock`: the
    /// tracker's frame): crops of the tracks that wait for its word
    /// (`Track.wantsOpinion`, at most `coverAsksPerFrame` for covering) when
    /// `crops`, and, when `photo`, on every `photoVerdictEvery`-th frame, the
    /// sightings that want the photo's (`Track.wantsPhotoVerdict`): one photo
    /// for all of them, none when none wants it. The crops of sightings whose
    /// cover awaits the answer (`Track.coverAwaitsOpinion`) are answered
    /// `now`, before the frame is drawn: the answer is whether they are
    /// covered at all, and most are seen once (drawn before their answer,
    /// seed 13 of bench/held-out went from 1.02x its photos' collateral to
    /// 1.15x). The rest `later`, beside the next frame (`PendingLooks`).
    static func asked(about found: [FaceSighting], tracks ids: [Int], by tracker: BoxTracker, frame clock: Int,
                      crops: Bool, photo: Bool) -> (now: SecondLooks, later: SecondLooks) {
        var now = SecondLooks(), later = SecondLooks()
        let limits = tracker.limits
        let tracks = Dictionary(uniqueKeysWithValues: tracker.tracks.map { ($0.id, $0) })
        if crops {
            var coverAsks = 0
            for (d, id) in ids.enumerated() {
                guard let track = tracks[id] else { continue }
                let forCover = coverAsks < limits.coverAsksPerFrame && track.wantsCoverOpinion(at: found[d].confidence, limits)
                guard track.wantsOpinion(at: found[d].confidence, limits) || forCover else { continue }
                if forCover { coverAsks += 1 }
                let crop = (id, found[d].box, found[d].confidence)
                if track.coverAwaitsOpinion(limits) { now.crops.append(crop) } else { later.crops.append(crop) }
            }
        }
        if photo, let every = limits.photoVerdictEvery, clock % every == 0 {
            later.photo = ids.indices.filter { tracks[ids[$0]]?.wantsPhotoVerdict(limits) == true }.map { (ids[$0], found[$0].box) }
        }
        return (now, later)
    }
}

/// One frame's second looks in flight: a task of its own, so that the
/// analysis of the next frame goes on beside it. It is awaited before the
/// next frame's detections are tracked, or before a cut ends the tracks it
/// asked about; a cancelled wait cancels it.
struct PendingLooks {
    private let task: Task<SecondLooks.Answers, Error>

    init(_ looks: SecondLooks, in frame: VeilImage, rotation: ImageOrientation, opinion: SecondOpinion?, verdict: PhotoVerdict?) {
        task = Task { try await looks.answers(in: frame, rotation: rotation, opinion: opinion, verdict: verdict) }
    }

    func answers() async throws -> SecondLooks.Answers {
        try await withTaskCancellationHandler { try await task.value } onCancel: { [task] in task.cancel() }
    }
}
