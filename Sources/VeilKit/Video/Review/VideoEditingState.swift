import Foundation

/// Everything needed to re-render a covered video without detecting again,
/// and to review what was covered: the photo sidecar's schema grown for
/// time, kept beside the output as `OUTPUT.veil.json` (same `format`, `kind`
/// "video").
///
/// Boxes are normalized to the decoded (stored) frame, origin upper-left.
/// The detector's tracks keep every frame a track was covered on (detected
/// there or predicted, with the score of its last detection); a person
/// drops a track (uncovered for its whole life) or keeps it, and adds
/// regions of their own: boxes at key frames, interpolated between them, or
/// one box followed from its frame, backward and forward (`BoxFollower`,
/// `BackwardFollow`). With `--cover text` the text tracker's tracks are kept
/// too (`texts`), so a re-render covers the text without detecting it again.
/// The schema: docs/design/editing-state.md#videos.
public struct VideoEditingState: Codable, Sendable, Equatable {
    public static let kindName = "video"

    public var format = EditingState.formatName
    public var kind = VideoEditingState.kindName
    /// 1; 2 once `texts` is there, 3 once `unsure` is: a Veil that reads
    /// version 1 only would re-render such a state with its text (or its
    /// unsure sightings) uncovered, so it refuses it instead.
    public var version = 1
    public var source: Source
    public var style: CoverStyle
    public var shape: CoverRegion.Shape
    public var maskScale: Double
    /// The detector's tracks, by id: faces it confirmed (`BoxTracker.Track.isFace`).
    public var tracks: [Track]
    /// Sightings it never confirmed as faces (a hand, a logo, a face seen
    /// once, weakly), ids shared with `tracks`: covered on the frames they
    /// were seen on as a track is, and dropped or kept the same way, but
    /// listed apart so a reviewer meets people first. Nil in states written
    /// before them (and by runs that did not detect).
    public var unsure: [Track]?
    /// Regions the user added.
    public var manual: [Manual]
    /// Set once a person has reviewed the tracks (`--confirm`).
    public var confirmed = false
    /// Pen strokes over frame ranges (`VideoEditingState+Strokes`); nil in states without them.
    public var strokes: [PenStroke]?
    /// The text tracker's tracks (`--cover text`): each region's box on
    /// every frame it was covered on, covered as a box; ids of their own.
    /// Nil when text was not covered (and in states written before text).
    public var texts: [Track]?
    /// The output this state was last rendered into (`VideoEditingState+Output`);
    /// nil before the first render is finished, and in states written before it.
    public var output: Output?
    /// Which part of a video split in time this state is (`--segment I/N`,
    /// `VideoEditingState+Parts`): frames counted from the part's first;
    /// nil for a whole video (and a joined one).
    public var segment: Part?

    public init(source: Source, style: CoverStyle, shape: CoverRegion.Shape, maskScale: Double, tracks: [Track], manual: [Manual] = []) {
        self.source = source; self.style = style; self.shape = shape; self.maskScale = maskScale; self.tracks = tracks; self.manual = manual
    }

    public struct Source: Codable, Sendable, Equatable {
        public var file: String
        public var sha256: String
        /// Bytes.
        public var size: Int
        public var width: Int
        public var height: Int
        public var framesPerSecond: Double
        public var frames: Int
        /// When each frame is shown (`VideoEditingState+Clock`); nil in states
        /// written before it, whose frames are taken to be at `framesPerSecond` from 0.
        public var clock: FrameClock?

        public init(file: String, sha256: String, size: Int, width: Int, height: Int, framesPerSecond: Double, frames: Int, clock: FrameClock? = nil) {
            self.file = file; self.sha256 = sha256; self.size = size; self.width = width; self.height = height
            self.framesPerSecond = framesPerSecond; self.frames = frames; self.clock = clock
        }
    }

    public enum Status: String, Codable, Sendable { case covered, dropped }

    /// One frame of a track: its box (normalized), whether the detector saw it
    /// there, and the score of its last detection. Stored as
    /// `[frame, x, y, width, height, detected (0/1), score]`.
    public struct Sighting: Codable, Sendable, Equatable {
        public var frame: Int
        public var box: EditingState.Box
        public var detected: Bool
        public var score: Float

        public init(frame: Int, box: EditingState.Box, detected: Bool, score: Float) {
            self.frame = frame; self.box = box; self.detected = detected; self.score = score
        }

        public init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            frame = try c.decode(Int.self)
            box = EditingState.Box(x: try c.decode(Double.self), y: try c.decode(Double.self),
                                   width: try c.decode(Double.self), height: try c.decode(Double.self))
            detected = try c.decode(Int.self) != 0
            score = try c.decode(Float.self)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(frame)
            for v in [box.x, box.y, box.width, box.height] { try c.encode((v * 1e5).rounded() / 1e5) }
            try c.encode(detected ? 1 : 0)
            try c.encode((score * 1e4).rounded() / 1e4)
        }
    }

    public struct Track: Codable, Sendable, Equatable {
        public var id: Int
        public var status: Status
        /// In frame order.
        public var frames: [Sighting]
        /// Which person the track is (1, 2, ...): proposed by a first run from the
        /// faces' embeddings (`PersonProposal`), changed by the reviewer
        /// (`--person-of`, `--merge-persons`); nil where none was proposed. Never
        /// the embedding itself.
        public var person: Int?

        public init(id: Int, status: Status, frames: [Sighting], person: Int? = nil) {
            self.id = id; self.status = status; self.frames = frames; self.person = person
        }
    }

    /// A key frame of a manual region.
    public struct Key: Codable, Sendable, Equatable {
        public var frame: Int
        public var box: EditingState.Box
        public init(frame: Int, box: EditingState.Box) { self.frame = frame; self.box = box }
    }

    /// A region the user added: covered between its first and last key
    /// (interpolated), or, with one key and `follow`, before and after that
    /// frame where `BoxFollower` finds it (`followed` holds what it found, so a
    /// later re-render reuses it).
    public struct Manual: Codable, Sendable, Equatable {
        public var id: Int
        public var status: Status
        public var keys: [Key]
        public var follow: Bool
        public var followed: [Sighting]?

        public init(id: Int, status: Status, keys: [Key], follow: Bool, followed: [Sighting]? = nil) {
            self.id = id; self.status = status; self.keys = keys; self.follow = follow; self.followed = followed
        }
    }
}

extension VideoEditingState {
    /// The boxes to cover on `frame`, in pixels of the stored frame.
    public func regions(at frame: Int) -> [(id: Int, box: ImageRect)] {
        var out: [(id: Int, box: ImageRect)] = []
        for track in tracks + (unsure ?? []) where track.status == .covered {
            if let s = track.sighting(at: frame) { out.append((track.id, pixels(s.box))) }
        }
        // A region to follow that has not been followed yet is the follower's.
        for region in manual where region.status == .covered && !(region.follow && region.followed == nil) {
            if let b = region.box(at: frame) { out.append((region.id, pixels(b))) }
        }
        return out
    }

    /// The text boxes to cover on `frame` (the text tracks' ids), in pixels of the stored frame.
    public func textRegions(at frame: Int) -> [(id: Int, box: ImageRect)] {
        (texts ?? []).filter { $0.status == .covered }.compactMap { track in track.sighting(at: frame).map { (track.id, pixels($0.box)) } }
    }

    /// A normalized box in pixels of the stored frame.
    func pixels(_ b: EditingState.Box) -> ImageRect {
        let (w, h) = (Double(source.width), Double(source.height))
        return ImageRect(x: b.x * w, y: b.y * h, width: b.width * w, height: b.height * h)
    }

    /// The track or manual region `id` (ids are shared: manual regions take ids after the tracks').
    public var nextID: Int { max(tracks.map(\.id).max() ?? 0, unsure?.map(\.id).max() ?? 0, manual.map(\.id).max() ?? 0) + 1 }
}

extension VideoEditingState.Track {
    /// Its sighting on `frame`, if it was covered there (binary search: frames are in order).
    func sighting(at frame: Int) -> VideoEditingState.Sighting? {
        guard let first = frames.first, let last = frames.last, frame >= first.frame, frame <= last.frame else { return nil }
        var lo = 0, hi = frames.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if frames[mid].frame == frame { return frames[mid] }
            if frames[mid].frame < frame { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }
}

extension VideoEditingState.Manual {
    /// Its box on `frame`: between two keys, interpolated; on a key, the key;
    /// a followed region, where it was followed to.
    func box(at frame: Int) -> EditingState.Box? {
        if let followed, let s = VideoEditingState.Track(id: id, status: status, frames: followed).sighting(at: frame) { return s.box }
        let keys = self.keys.sorted { $0.frame < $1.frame }
        guard let first = keys.first, let last = keys.last, frame >= first.frame, frame <= last.frame else { return nil }
        if keys.count == 1 { return first.frame == frame ? first.box : nil }
        for (a, b) in zip(keys, keys.dropFirst()) where frame >= a.frame && frame <= b.frame {
            let t = b.frame == a.frame ? 0 : Double(frame - a.frame) / Double(b.frame - a.frame)
            func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * t }
            return EditingState.Box(x: mix(a.box.x, b.box.x), y: mix(a.box.y, b.box.y),
                                    width: mix(a.box.width, b.box.width), height: mix(a.box.height, b.box.height))
        }
        return nil
    }
}
