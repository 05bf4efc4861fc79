import Foundation

/// A video state comes from outside as a photo state does, and is checked
/// the same way before anything is drawn: every number finite and in range,
/// frames within the video, and counts that bound the work by the video
/// rather than by what the state claims (a million key frames, a billion
/// sightings and a 10 GB file are refused, not read).
extension VideoEditingState {
    /// The version a state with unsure sightings is written as.
    public static let unsureVersion = 3

    public enum Limits {
        /// The largest state file read.
        public static let bytes = 512 << 20
        public static let tracks = 100_000
        /// Sightings over all tracks (an hour of a 20-face crowd at 25 fps is 1.8 million).
        public static let sightings = 10_000_000
        public static let manual = 10_000
        public static let keysPerRegion = 10_000
        public static let keys = 100_000
        public static let frames = 100_000_000
    }

    /// Refuses a state Veil did not write or whose numbers could not describe
    /// this video. `folder`: the sidecar's folder, which a file it names must
    /// be in (nil: a state from elsewhere, which may name no file, unless
    /// `allowingImageStyle`, for a state the caller built itself).
    public func validate(folder: URL?, allowingImageStyle: Bool = false) throws {
        func fail(_ what: String) -> VeilError { .invalidInput(.invalidState("video editing state: \(what)")) }
        guard format == EditingState.formatName, kind == VideoEditingState.kindName else { throw fail("not a Veil video editing state") }
        guard (1...Self.unsureVersion).contains(version) else {
            throw fail("version \(version) is not supported (this Veil reads versions 1 to \(Self.unsureVersion))")
        }
        guard EditingState.Limits.side.contains(source.width), EditingState.Limits.side.contains(source.height) else {
            throw fail("a \(source.width)x\(source.height) frame")
        }
        guard (0...Limits.frames).contains(source.frames), source.framesPerSecond.isFinite, source.framesPerSecond > 0,
              source.framesPerSecond < 10_000, source.size >= 0 else {
            throw fail("\(source.frames) frames at \(source.framesPerSecond) fps")
        }
        if let clock = source.clock, !clock.isValid(frames: source.frames) {
            throw fail("a clock that cannot be the \(source.frames) frames' (times \(clock.times?.count ?? 0), step \(clock.step.map { "\($0)" } ?? "none"))")
        }
        guard maskScale.isFinite, (0.1...10).contains(maskScale) else { throw fail("mask scale \(maskScale)") }
        if case let .image(path) = style, !allowingImageStyle {
            guard let folder else { throw fail("image styles name a file; not accepted here") }
            try EditingState.requireInside(folder, path, what: "its image style")
        }
        let texts = self.texts ?? [], unsure = self.unsure ?? []
        let count = tracks.count + texts.count + unsure.count
        guard count <= Limits.tracks else { throw fail("\(count) tracks; at most \(Limits.tracks)") }
        guard manual.count <= Limits.manual else { throw fail("\(manual.count) added regions; at most \(Limits.manual)") }
        let lastFrame = max(0, source.frames - 1)
        func check(_ box: EditingState.Box, frame: Int, _ what: String) throws {
            let values = [box.x, box.y, box.width, box.height]
            guard values.allSatisfy({ $0.isFinite && EditingState.Limits.coordinate.contains($0) }), box.width > 0, box.height > 0 else {
                throw fail("\(what) has the box \(values)")
            }
            guard (0...lastFrame).contains(frame) else { throw fail("\(what) names frame \(frame) of a \(source.frames)-frame video") }
        }
        var sightings = 0
        for (track, name) in tracks.map({ ($0, "track \($0.id)") }) + unsure.map({ ($0, "unsure track \($0.id)") })
            + texts.map({ ($0, "text track \($0.id)") }) {
            sightings += track.frames.count
            guard sightings <= Limits.sightings else { throw fail("more than \(Limits.sightings) sightings") }
            if let person = track.person, !(1...Limits.tracks).contains(person) {
                throw fail("\(name) is person \(person); people are numbered 1 to \(Limits.tracks)")
            }
            var previous = -1
            for s in track.frames {
                try check(s.box, frame: s.frame, name)
                guard s.frame > previous else { throw fail("\(name)'s frames are not in order") }
                guard s.score.isFinite else { throw fail("\(name) has a score of \(s.score)") }
                previous = s.frame
            }
        }
        var keys = 0
        for region in manual {
            guard !region.keys.isEmpty, region.keys.count <= Limits.keysPerRegion else {
                throw fail("added region \(region.id) has \(region.keys.count) key frames; 1 to \(Limits.keysPerRegion)")
            }
            keys += region.keys.count + (region.followed?.count ?? 0)
            guard keys <= Limits.keys + Limits.frames / 1000 else { throw fail("more than \(Limits.keys) key frames") }
            for key in region.keys { try check(key.box, frame: key.frame, "added region \(region.id)") }
            for s in region.followed ?? [] { try check(s.box, frame: s.frame, "added region \(region.id)") }
        }
        try validateStrokes(lastFrame: lastFrame, fail: fail)
        try validateOutput(fail: fail)
        if let part = segment {
            guard (1...Limits.frames).contains(part.count), (0..<part.count).contains(part.index),
                  [part.start, part.end].allSatisfy({ $0.map(\.isFinite) ?? true }) else {
                throw fail("segment \(part.index) of \(part.count)")
            }
        }
        let ids = tracks.map(\.id) + unsure.map(\.id) + manual.map(\.id)
        guard Set(ids).count == ids.count else { throw fail("two tracks or regions share an id") }
        guard Set(texts.map(\.id)).count == texts.count else { throw fail("two text tracks share an id") }
    }

    /// Decodes and validates a state; one-line errors.
    public static func decode(_ data: Data, folder: URL? = nil) throws -> VideoEditingState {
        guard data.count <= Limits.bytes else {
            throw VeilError.invalidArgument("video editing state: \(data.count) bytes; at most \(Limits.bytes)")
        }
        var state = try StateFile.decode(VideoEditingState.self, data, what: "video editing state") { _ in }
        state.dropOffFrameSightings()
        try state.validate(folder: folder)
        return state
    }

    /// Leaves out the sightings whose boxes lie wholly off the frame (they
    /// cover nothing), and the tracks left with none. Veil 0.9.0 wrote
    /// such boxes for tracks coasted out of the frame (y = -1.02), and then
    /// refused its own state; this reads those states as they were meant.
    mutating func dropOffFrameSightings() {
        func off(_ b: EditingState.Box) -> Bool {
            [b.x, b.y, b.width, b.height].allSatisfy(\.isFinite) && (b.x + b.width <= 0 || b.y + b.height <= 0 || b.x >= 1 || b.y >= 1)
        }
        func kept(_ tracks: [Track]) -> [Track] {
            tracks.compactMap { track in
                var t = track
                t.frames.removeAll { off($0.box) }
                return t.frames.isEmpty && !track.frames.isEmpty ? nil : t
            }
        }
        tracks = kept(tracks)
        unsure = unsure.map(kept)
        texts = texts.map(kept)
    }

    /// Reads and validates a sidecar; errors name the file. The size is
    /// checked before the file is read.
    public static func load(from url: URL) throws -> VideoEditingState {
        try StateFile.load(from: url, what: "video editing state", maxBytes: Limits.bytes) { try decode($0, folder: url.deletingLastPathComponent()) }
    }

    /// The key of a video in its state: the sha256 of the file's bytes, hex.
    public static func digest(ofFileAt url: URL) throws -> String { try SHA256.hex(streaming: url) }

    /// Compact JSON with sorted keys, written atomically (temporary file,
    /// then rename): version 3 when it holds unsure sightings, 2 when it
    /// holds text tracks or pen strokes, else 1 (readable by a Veil that knows neither).
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var written = self
        written.version = !(unsure ?? []).isEmpty ? Self.unsureVersion : texts == nil && (strokes ?? []).isEmpty ? 1 : Self.strokesVersion
        try AtomicFile.write(try encoder.encode(written), to: url)
    }
}
