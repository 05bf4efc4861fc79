import Synchronization

/// Collects a run's boxes frame by frame (`VideoAnonymizer.run`'s `record`)
/// into the tracks of a video editing state: what a person reviews and
/// re-edits without detecting again. Called from the pipeline's task, read
/// once the run is over; a mutex keeps the two apart.
public final class TrackRecorder: Sendable {
    private typealias Sightings = [Int: [(frame: Int, box: ImageRect, detected: Bool, score: Float)]]
    /// Faces' and text's, each by its own tracker's ids; the face ids the
    /// tracker confirmed as faces on some frame (the rest are unsure).
    private let sightings = Mutex<(faces: Sightings, texts: Sightings, sure: Set<Int>)>(([:], [:], []))
    /// Each frame's time on the video's clock, by index.
    private let times = Mutex<[Int: Double]>([:])
    /// The faces embedded (`VideoAnonymizer.people`), by track id: in memory
    /// for the run's proposal of people (`people(for:threshold:)`), never written.
    private let embeddings = Mutex<[Int: [FaceEmbedding]]>([:])

    public init() {}

    public func record(_ frame: VideoAnonymizer.FrameRecord) {
        times.withLock { $0[frame.index] = frame.time }
        sightings.withLock { all in
            for face in frame.faces {
                all.faces[face.id, default: []].append((frame.index, face.box, face.detected, face.score))
                if !face.unsure { all.sure.insert(face.id) }
            }
            for text in frame.texts { all.texts[text.id, default: []].append((frame.index, text.box, text.detected, text.score)) }
        }
        if !frame.embeddings.isEmpty {
            embeddings.withLock { all in for e in frame.embeddings { all[e.track, default: []].append(e.embedding) } }
        }
    }

    /// `tracks` with a person each (`Track.person`), proposed from the faces embedded
    /// during the run: each track's embeddings averaged, the tracks grouped by
    /// `PersonGrouping` (a track with none embedded is a person of its own).
    public func people(for tracks: [VideoEditingState.Track], threshold: Float) -> [VideoEditingState.Track] {
        let all = embeddings.withLock { $0 }
        let members = tracks.map { t in
            PersonGrouping.Member(id: t.id, detected: t.frames.filter(\.detected).map(\.frame), embedding: all[t.id].flatMap(FaceEmbedding.mean))
        }
        let person = PersonGrouping.group(members, threshold: threshold)
        return tracks.map { var t = $0; t.person = person[t.id]; return t }
    }

    /// Tracks with at least one face embedded (for tests and figures).
    var embeddedTracks: Int { embeddings.withLock { $0.count } }

    /// The clock of a video of `frames` frames, when every one of them was
    /// recorded (a spliced re-render records only the frames it re-encodes).
    public func clock(frames: Int) -> FrameClock? {
        times.withLock { times in
            guard frames > 0, times.count == frames, times.keys.min() == 0, times.keys.max() == frames - 1 else { return nil }
            return FrameClock(frameTimes: (0..<frames).map { times[$0]! })
        }
    }

    /// Every face track the tracker confirmed as a face, with all its
    /// sightings (those from before it was confirmed too) normalized to a
    /// frame of `size`, by id.
    public func tracks(frameSize size: PixelSize) -> [VideoEditingState.Track] {
        sightings.withLock { all in TrackRecorder.tracks(all.faces.filter { all.sure.contains($0.key) }, size) }
    }

    /// The sightings never confirmed as faces (a hand, a logo, a face seen
    /// once, weakly): covered where they were seen, listed apart (`VideoEditingState.unsure`).
    public func unsure(frameSize size: PixelSize) -> [VideoEditingState.Track] {
        sightings.withLock { all in TrackRecorder.tracks(all.faces.filter { !all.sure.contains($0.key) }, size) }
    }

    /// The text tracks, the same way.
    public func textTracks(frameSize size: PixelSize) -> [VideoEditingState.Track] {
        sightings.withLock { TrackRecorder.tracks($0.texts, size) }
    }

    /// Only what a state can hold and Veil reads back: a sighting wholly
    /// off the frame covers nothing and is left out (a track left with none
    /// goes too); one partly off keeps its box as it was covered, held to
    /// the coordinates a state may have (`EditingState.Limits.coordinate`).
    /// The box is not cut at the frame's edge: the cover's disc is fitted to
    /// the whole face, and a cut box's smaller disc would bare what it left.
    private static func tracks(_ all: Sightings, _ size: PixelSize) -> [VideoEditingState.Track] {
        all.keys.sorted().compactMap { id in
            let frames = all[id]!.compactMap { s -> VideoEditingState.Sighting? in
                guard let box = EditingState.Box(writable: s.box, in: size) else { return nil }
                return VideoEditingState.Sighting(frame: s.frame, box: box, detected: s.detected, score: s.score.isFinite ? s.score : 0)
            }
            return frames.isEmpty ? nil : VideoEditingState.Track(id: id, status: .covered, frames: frames)
        }
    }
}

extension EditingState.Box {
    /// `rect` (pixels of a frame of `size`) normalized as a state holds it,
    /// or nil when no part of it is on the frame or it is not a box at all.
    init?(writable rect: ImageRect, in size: PixelSize) {
        let frame = ImageRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        guard rect.width.isFinite, rect.height.isFinite, rect.intersection(frame) != nil else { return nil }
        let normalized = EditingState.Box(rect, in: size)
        let limit = EditingState.Limits.coordinate
        let x1 = min(max(normalized.x + normalized.width, 0), limit.upperBound), y1 = min(max(normalized.y + normalized.height, 0), limit.upperBound)
        // Sides of at most 2 (the limit's upper bound), as the state's check asks of a box's every number.
        let x0 = min(max(normalized.x, limit.lowerBound, x1 - limit.upperBound), 1)
        let y0 = min(max(normalized.y, limit.lowerBound, y1 - limit.upperBound), 1)
        guard x1 > x0, y1 > y0 else { return nil }
        // On the grid a state is written to (1e-5, `Sighting`'s encoding), outward:
        // a box a hundredth of a pixel wide is written a hundredth of a pixel
        // wide, not as width 0, which no state may hold.
        func grid(_ v: Double, _ rule: FloatingPointRoundingRule) -> Double { (v * 1e5).rounded(rule) / 1e5 }
        let (gx1, gy1) = (grid(x1, .up), grid(y1, .up))
        let gx0 = max(grid(x0, .down), gx1 - limit.upperBound), gy0 = max(grid(y0, .down), gy1 - limit.upperBound)
        self.init(x: gx0, y: gy0, width: grid(gx1 - gx0, .toNearestOrAwayFromZero), height: grid(gy1 - gy0, .toNearestOrAwayFromZero))
    }
}
