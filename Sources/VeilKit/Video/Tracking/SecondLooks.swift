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
/// their frame is drawn (`FrameAnalyzer.secondLooks`)
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
