import Foundation

/// The parts of one video split in time (`veil video --segment I/N`) each
/// keep a state of their own, recording which part they are, so that
/// `veil video join` can refuse a part that is missing, given twice or out
/// of order, and join the parts' states into the joined output's: frames
/// renumbered from the video's start, ids made unique, a track that runs
/// into the next part continued there.
extension VideoEditingState {
    /// `"segment": {"index", "count", "start", "end"}`: I and N of
    /// `--segment I/N` and its range in seconds of the input's clock (nil:
    /// from the start, to the end).
    public struct Part: Codable, Sendable, Equatable {
        public var index: Int
        public var count: Int
        public var start: Double?
        public var end: Double?

        public init(index: Int, count: Int, start: Double?, end: Double?) {
            self.index = index; self.count = count; self.start = start; self.end = end
        }

        /// "part 1 of 3".
        public var name: String { "part \(index) of \(count)" }
    }

    /// Boxes overlapping this much (intersection over union) on the last
    /// frame of a part and the first of the next are one track continued.
    /// The tracker itself matched at 0.3 within a part.
    static let continuation = 0.3

    /// Checks that `parts` (a path and its state each) are the parts of one
    /// video, all of them, each once, in order; throws naming the first that
    /// is not.
    public static func checkPlaces(_ parts: [(path: String, state: VideoEditingState)]) throws {
        guard let first = parts.first else { return }
        for (path, state) in parts {
            guard let part = state.segment else {
                throw VeilError.unreadable(path: path, reason: "its editing state says it is a whole video, not a part of one (made without --segment)")
            }
            guard state.source.sha256 == first.state.source.sha256 else {
                throw VeilError.unreadable(path: path, reason: "it is a part of another video (\(state.source.file)) than \(first.path) (\(first.state.source.file))")
            }
            guard part.count == first.state.segment!.count else {
                throw VeilError.unreadable(path: path, reason: "it is \(part.name), but \(first.path) is \(first.state.segment!.name)")
            }
        }
        let count = first.state.segment!.count
        var seen: [Int: String] = [:]
        for (path, state) in parts {
            let index = state.segment!.index
            if let other = seen[index] { throw VeilError.unavailable("\(path) and \(other) are both part \(index) of \(count): give each part once") }
            seen[index] = path
        }
        let missing = (0..<count).filter { seen[$0] == nil }
        if !missing.isEmpty {
            let names = missing.map(String.init).joined(separator: ", ")
            throw VeilError.unavailable("part\(missing.count == 1 ? "" : "s") \(names) of \(count) \(missing.count == 1 ? "is" : "are") missing: "
                                        + "the join needs all \(count) parts (its array task may have failed; run it again)")
        }
        for (i, (path, state)) in parts.enumerated() where state.segment!.index != i {
            throw VeilError.unavailable("\(path) is part \(state.segment!.index) of \(count) but was given in place \(i): give the parts in order, 0 to \(count - 1)")
        }
    }

    /// The joined video's state: the parts' tracks one after another, frames
    /// counted from the video's start, ids unique, and a track that covers a
    /// part's last frame continued by the next part's track that overlaps it
    /// on that part's first frame. Manual regions and strokes are not kept
    /// (a part is never edited: edit the joined output).
    public static func joined(_ parts: [VideoEditingState]) -> VideoEditingState {
        var state = parts[0]
        state.segment = nil
        state.output = nil
        state.manual = []
        state.strokes = nil
        state.confirmed = false
        state.tracks = join(parts.map { ($0.tracks, $0.source.frames) })
        // Unsure sightings joined the same way, numbered after the tracks.
        let after = state.tracks.map(\.id).max() ?? 0
        state.unsure = parts.contains { $0.unsure != nil }
            ? join(parts.map { ($0.unsure ?? [], $0.source.frames) }).map { var t = $0; t.id += after; return t } : nil
        state.texts = parts.contains { $0.texts != nil } ? join(parts.map { ($0.texts ?? [], $0.source.frames) }) : nil
        state.source.frames = parts.map(\.source.frames).reduce(0, +)
        // Each part's frames at their own times (the input's timestamps), one after another.
        state.source.clock = parts.allSatisfy({ $0.source.clock != nil })
            ? FrameClock(frameTimes: parts.flatMap { part in (0..<part.source.frames).map { part.clock.time(ofFrame: $0) } })
            : nil
        return state
    }

    /// Tracks of consecutive parts (each with its frame count) as one list.
    static func join(_ parts: [(tracks: [Track], frames: Int)]) -> [Track] {
        var out: [Track] = []
        var offset = 0, nextID = 1
        // Where each track of the previous part went in `out`, if it reached that part's last frame.
        var open: [(index: Int, box: EditingState.Box)] = []
        for (tracks, frames) in parts {
            var reaching: [(index: Int, box: EditingState.Box)] = []
            var taken = Set<Int>()
            for track in tracks.sorted(by: { $0.id < $1.id }) {
                let moved = track.frames.map { Sighting(frame: $0.frame + offset, box: $0.box, detected: $0.detected, score: $0.score) }
                var at: Int
                if let first = track.frames.first, first.frame == 0,
                   let match = open.enumerated().filter({ !taken.contains($0.offset) && out[$0.element.index].status == track.status })
                       .map({ (slot: $0.offset, index: $0.element.index, overlap: overlap($0.element.box, first.box)) })
                       .filter({ $0.overlap >= continuation }).max(by: { $0.overlap < $1.overlap }) {
                    taken.insert(match.slot)
                    out[match.index].frames += moved
                    at = match.index
                } else {
                    out.append(Track(id: nextID, status: track.status, frames: moved))
                    nextID += 1
                    at = out.count - 1
                }
                if let last = track.frames.last, last.frame == frames - 1 { reaching.append((at, last.box)) }
            }
            open = reaching
            offset += frames
        }
        return out
    }

    /// Intersection over union of two normalized boxes.
    static func overlap(_ a: EditingState.Box, _ b: EditingState.Box) -> Double {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x), h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        let i = w * h
        return i / (a.width * a.height + b.width * b.height - i)
    }
}
