/// What a person changed about a video's covers, without detecting again:
/// tracks dropped (uncovered for their whole life) or kept again, boxes
/// added (at key frames, interpolated; or one box, followed backward and forward), and
/// pen strokes painted over frame ranges, and the review confirmed; people
/// (`Track.person`) uncovered or covered whole, a track moved to a person,
/// people joined. The CLI's `--drop-track`, `--keep-track`, `--add`,
/// `--stroke`, `--confirm`, `--uncover-person`, `--cover-person`, `--person-of`,
/// `--merge-people`; the same over HTTP.
public struct VideoEdits: Sendable, Equatable {
    /// A box to add: one key (followed from its frame, both ways) or several (interpolated between).
    public struct Added: Sendable, Equatable {
        public var keys: [(frame: Int, box: ImageRect)]
        public init(keys: [(frame: Int, box: ImageRect)]) { self.keys = keys }
        public static func == (a: Added, b: Added) -> Bool {
            a.keys.count == b.keys.count && zip(a.keys, b.keys).allSatisfy { $0.frame == $1.frame && $0.box == $1.box }
        }
    }

    public var drop: [Int] = []
    public var keep: [Int] = []
    /// Tracks to join, each group into its first: one person the tracker
    /// followed as several (lost behind someone, found again too late).
    public var merge: [[Int]] = []
    public var add: [Added] = []
    /// Pen strokes to paint on frames `first`...`last`, in pixels of the frame.
    public var strokes: [VideoEditingState.PenStroke] = []
    public var confirm = false
    /// People (`Track.person`) whose every track is uncovered (`--uncover-person`),
    /// or covered again (`--cover-person`).
    public var uncoverPeople: [Int] = []
    public var coverPeople: [Int] = []
    /// Tracks moved to a person, by track id (`--person-of TRACK=P`): to another
    /// proposed person, or to a number no track has yet, a person of its own.
    public var personOf: [Int: Int] = [:]
    /// People to join, each group into its first (`--merge-people A,B`): one person proposed as several.
    public var mergePeople: [[Int]] = []

    public init(drop: [Int] = [], keep: [Int] = [], merge: [[Int]] = [], add: [Added] = [], strokes: [VideoEditingState.PenStroke] = [],
                confirm: Bool = false, uncoverPeople: [Int] = [], coverPeople: [Int] = [], personOf: [Int: Int] = [:], mergePeople: [[Int]] = []) {
        self.drop = drop; self.keep = keep; self.merge = merge; self.add = add; self.strokes = strokes; self.confirm = confirm
        self.uncoverPeople = uncoverPeople; self.coverPeople = coverPeople; self.personOf = personOf; self.mergePeople = mergePeople
    }

    public var isEmpty: Bool {
        drop.isEmpty && keep.isEmpty && merge.isEmpty && add.isEmpty && strokes.isEmpty && !confirm
            && uncoverPeople.isEmpty && coverPeople.isEmpty && personOf.isEmpty && mergePeople.isEmpty
    }
}

extension VideoEditingState {
    /// Whether a person has changed what the detector chose: a track or a
    /// text track uncovered, a box added, a pen stroke, the review confirmed.
    public var hasEdits: Bool {
        confirmed || !manual.isEmpty || !(strokes ?? []).isEmpty
            || (tracks + (unsure ?? [])).contains { $0.status == .dropped } || (texts ?? []).contains { $0.status == .dropped }
    }

    /// Applies `edits`; an id that names no track or region is an error.
    /// Boxes are in pixels of the stored frame.
    public mutating func apply(_ edits: VideoEdits) throws {
        func set(_ id: Int, _ status: Status) throws {
            if let t = tracks.firstIndex(where: { $0.id == id }) { tracks[t].status = status; return }
            if let u = unsure?.firstIndex(where: { $0.id == id }) { unsure![u].status = status; return }
            if let m = manual.firstIndex(where: { $0.id == id }) { manual[m].status = status; return }
            let known = (tracks.map(\.id) + (unsure ?? []).map(\.id) + manual.map(\.id)).sorted()
            throw VeilError.invalidArgument("there is no track \(id) (tracks: \(known.isEmpty ? "none" : known.count > 12 ? "\(known.first!)...\(known.last!)" : known.map(String.init).joined(separator: ", ")))")
        }
        for group in edits.merge { try merge(group) }
        // People before tracks: `--uncover-person 2 --keep-track 5` keeps track 5 of person 2 covered.
        try applyPeople(edits)
        for id in edits.drop { try set(id, .dropped) }
        for id in edits.keep { try set(id, .covered) }
        let size = PixelSize(width: source.width, height: source.height)
        for added in edits.add {
            let keys = added.keys.sorted { $0.frame < $1.frame }.map { Key(frame: $0.frame, box: EditingState.Box($0.box, in: size)) }
            manual.append(Manual(id: nextID, status: .covered, keys: keys, follow: keys.count == 1, followed: nil))
        }
        paint(edits.strokes)
        if edits.confirm { confirmed = true }
        try validate(folder: nil, allowingImageStyle: true)
    }

    /// Joins the tracks `ids` into the first: their sightings in frame order;
    /// on a frame two of them cover in one place (their boxes overlap: the
    /// tracker's handover), one box round both. Tracks seen on one frame in
    /// two places are two people, and are refused: one box round both would
    /// bare them. Covered unless every one of them was dropped.
    mutating func merge(_ ids: [Int]) throws {
        guard Set(ids).count == ids.count, ids.count >= 2 else {
            throw VeilError.invalidArgument("--merge-tracks joins two or more different tracks, not \(ids.map(String.init).joined(separator: ","))")
        }
        // An unsure sighting merged into a track is that person seen: it is a track from now on.
        for id in ids { if let u = unsure?.firstIndex(where: { $0.id == id }) { tracks.append(unsure!.remove(at: u)) } }
        let indices = try ids.map { id in
            guard let t = tracks.firstIndex(where: { $0.id == id }) else {
                if manual.contains(where: { $0.id == id }) { throw VeilError.invalidArgument("\(id) is an added region: --merge-tracks joins the detector's tracks") }
                throw VeilError.invalidArgument("there is no track \(id) to merge (see `veil video tracks`)")
            }
            return t
        }
        var byFrame: [Int: Sighting] = [:]
        for s in indices.flatMap({ tracks[$0].frames }) {
            guard let other = byFrame[s.frame] else { byFrame[s.frame] = s; continue }
            let (a, b) = (other.box, s.box)
            guard a.x < b.x + b.width, b.x < a.x + a.width, a.y < b.y + b.height, b.y < a.y + a.height else {
                throw VeilError.invalidArgument("--merge-tracks \(ids.map(String.init).joined(separator: ",")): on frame \(s.frame) they are in two places, so two people; merge the tracks of one person")
            }
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            byFrame[s.frame] = Sighting(frame: s.frame, box: EditingState.Box(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
                                                                              height: max(a.y + a.height, b.y + b.height) - y0),
                                        detected: other.detected || s.detected, score: max(other.score, s.score))
        }
        let covered = indices.contains { tracks[$0].status == .covered }
        tracks[indices[0]].person = indices.compactMap { tracks[$0].person }.first
        tracks[indices[0]].frames = byFrame.keys.sorted().map { byFrame[$0]! }
        tracks[indices[0]].status = covered ? .covered : .dropped
        let gone = Set(ids.dropFirst())
        tracks.removeAll { gone.contains($0.id) }
    }
}
