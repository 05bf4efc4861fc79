import Foundation

/// Which of a video's tracks are one person, proposed from the faces
/// themselves: while `veil video` runs, a few sightings of each track a face
/// are embedded by SFace (`FaceEmbedder`, on the frame at hand, on this
/// machine), averaged per track, and the tracks grouped by their averages
/// (`PersonGrouping`). The state keeps each track's person, never an
/// embedding; the reviewer confirms, splits or merges the proposal
/// (docs/design/video-tracking.md#the-same-person-across-cuts).
public struct PersonProposal: Sendable, Hashable {
    /// Sightings embedded a track, at most.
    public var perTrack = 5
    /// Frames between a track's first two embeddings; each later gap twice the
    /// one before (8, 16, 32, 64 frames at the default): a short track gets
    /// its few, a long one is sampled over a few seconds, at a bounded cost.
    public var spacing = 8
    /// Embeddings a frame, at most: a crowd's new tracks are embedded over the
    /// next detections, not all at once on one frame.
    public var perFrame = 4
    /// The smallest face embedded (its box's shorter side, in pixels of the frame):
    /// smaller faces give SFace too little to tell people apart (two people's
    /// 32–40 px faces scored up to 0.58 on cuts-dev).
    public var minSide = 40.0
    /// The least detection score embedded: a face seen clearly, with its landmarks where they are.
    public var minScore: Float = 0.6
    /// Two groups of tracks are one person while the mean cosine between their
    /// tracks' embeddings is at least this: above OpenCV's 0.363 for SFace, where
    /// two people's tracks in talk-like clips scored 0.37–0.39 across a cut and
    /// a person's own tracks 0.90 and more (docs/design/video-tracking.md#the-same-person-across-cuts).
    /// A wrong join is the costly mistake: `--uncover-person` would uncover the other face too.
    public var threshold: Float = 0.40

    public init() {}
}

/// The analyser's side of a proposal: which of a frame's detections to embed.
struct EmbeddingSchedule: Sendable {
    let proposal: PersonProposal
    /// For each track embedded so far: how many times, and the first frame it may be again.
    private var taken: [Int: (count: Int, next: Int)] = [:]

    init(_ proposal: PersonProposal) { self.proposal = proposal }

    /// Of `candidates` (a detection's index, its track, its score and box, on frame
    /// `clock`), those to embed now: tracks due, fewest embeddings first, at most `perFrame`.
    mutating func choose(_ candidates: [(index: Int, track: Int, score: Float, box: ImageRect)], at clock: Int) -> [Int] {
        let due = candidates.filter { c in
            guard c.score >= proposal.minScore, min(c.box.width, c.box.height) >= proposal.minSide else { return false }
            guard let t = taken[c.track] else { return true }
            return t.count < proposal.perTrack && clock >= t.next
        }
        let chosen = due.sorted { (taken[$0.track]?.count ?? 0, -$0.score) < (taken[$1.track]?.count ?? 0, -$1.score) }.prefix(proposal.perFrame)
        for c in chosen {
            let count = (taken[c.track]?.count ?? 0) + 1
            taken[c.track] = (count, clock + proposal.spacing << (count - 1))
        }
        return chosen.map(\.index)
    }
}

/// Tracks grouped into people by their faces' embeddings.
enum PersonGrouping {
    /// One track as grouping sees it: the frames the detector saw it on (in
    /// order) and the mean of its embeddings, if any.
    struct Member {
        var id: Int
        var detected: [Int]
        var embedding: FaceEmbedding?
    }

    /// A person for each of `tracks` (by id), numbered from 1 in the order the
    /// people are first seen. Average-linkage agglomerative clustering: the two
    /// groups whose tracks' embeddings have the highest mean cosine are joined,
    /// while that mean is at least `threshold`; two groups with tracks the
    /// detector saw on one frame are never joined (one person is in one place).
    /// A track without an embedding is a person of its own.
    static func group(_ tracks: [Member], threshold: Float) -> [Int: Int] {
        let embedded = tracks.filter { $0.embedding != nil }
        let n = embedded.count
        var clusters: [[Int]] = (0..<n).map { [$0] }
        var alive = [Bool](repeating: true, count: n)
        var sim = [Float](repeating: 0, count: n * n)
        var apart = [Bool](repeating: false, count: n * n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let s = embedded[i].embedding!.similarity(to: embedded[j].embedding!)
                sim[i * n + j] = s; sim[j * n + i] = s
                let together = seenTogether(embedded[i].detected, embedded[j].detected)
                apart[i * n + j] = together; apart[j * n + i] = together
            }
        }
        while true {
            var best: (i: Int, j: Int, s: Float)?
            for i in 0..<n where alive[i] {
                for j in (i + 1)..<max(i + 1, n) where alive[j] && !apart[i * n + j] {
                    let s = sim[i * n + j]
                    if s >= threshold, s > (best?.s ?? -.infinity) { best = (i, j, s) }
                }
            }
            guard let (i, j, _) = best else { break }
            // Lance-Williams for average linkage: the mean over the joined group's pairs.
            let (ni, nj) = (Float(clusters[i].count), Float(clusters[j].count))
            for k in 0..<n where alive[k] && k != i && k != j {
                let s = (ni * sim[i * n + k] + nj * sim[j * n + k]) / (ni + nj)
                sim[i * n + k] = s; sim[k * n + i] = s
                let a = apart[i * n + k] || apart[j * n + k]
                apart[i * n + k] = a; apart[k * n + i] = a
            }
            clusters[i] += clusters[j]
            clusters[j] = []
            alive[j] = false
        }
        var groups: [[Int]] = clusters.enumerated().filter { alive[$0.offset] }.map { $0.element.map { embedded[$0].id } }
        groups += tracks.filter { $0.embedding == nil }.map { [$0.id] }
        let first = Dictionary(uniqueKeysWithValues: tracks.map { ($0.id, $0.detected.first ?? Int.max) })
        func start(_ g: [Int]) -> (Int, Int) { (g.map { first[$0] ?? Int.max }.min() ?? Int.max, g.min() ?? 0) }
        groups.sort { start($0) < start($1) }
        var person: [Int: Int] = [:]
        for (k, g) in groups.enumerated() { for id in g { person[id] = k + 1 } }
        return person
    }

    /// Whether two sorted lists of frames share one.
    static func seenTogether(_ a: [Int], _ b: [Int]) -> Bool {
        guard let a0 = a.first, let a1 = a.last, let b0 = b.first, let b1 = b.last, a0 <= b1, b0 <= a1 else { return false }
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { return true }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return false
    }
}
