/// Carries faces between detections so none flickers into view: each track
/// moves with its measured velocity on frames the detector skips or misses,
/// grows with the uncertainty, and stays for a grace period after the
/// detector last saw it.
///
/// A track seen once has no velocity yet: its prediction widens by a quarter
/// of its size a frame (a walker crossing close to the camera moves about
/// half a face a frame; crowd-1080p's fastest, 35 px on a 79 px face), not the
/// 5% of a track whose motion is measured, and its second sighting sets the
/// velocity outright instead of averaging it with the unknown zero.
public struct FaceTracker: Sendable {
    public struct Track: Sendable, Equatable {
        public var id: Int
        public var box: ImageRect
        /// Change of box per frame (x, y, width, height).
        public var velocity: (Double, Double, Double, Double)
        public var lastSeen: Int
        public var confidence: Float
        /// Detections matched to this track so far.
        public var hits = 1

        public static func == (a: Track, b: Track) -> Bool { a.id == b.id && a.box == b.box && a.lastSeen == b.lastSeen }

        /// Where the face should be at `frame`, widened a frame since last seen
        /// by 5% with a measured velocity, by 25% without (at most 3x).
        public func predicted(at frame: Int) -> ImageRect {
            let n = Double(frame - lastSeen)
            var r = ImageRect(x: box.x + velocity.0 * n, y: box.y + velocity.1 * n,
                              width: max(1, box.width + velocity.2 * n), height: max(1, box.height + velocity.3 * n))
            let grow = min(3, 1 + (hits > 1 ? 0.05 : 0.25) * n)
            r = ImageRect(x: r.midX - r.width * grow / 2, y: r.midY - r.height * grow / 2, width: r.width * grow, height: r.height * grow)
            return r
        }
    }

    /// Frames a track outlives its last detection.
    public var grace: Int
    public private(set) var tracks: [Track] = []
    private var nextID = 1

    public init(grace: Int = 12) { self.grace = grace }

    /// Takes the detector's boxes for `frame`: matched to tracks by overlap with
    /// their predictions, unmatched ones start new tracks. Tracks whose own
    /// velocity is not known yet, and new ones, move with the motion most
    /// faces share (`commonMotion`): a panning camera moves every face alike.
    public mutating func update(frame: Int, detections: [(box: ImageRect, confidence: Float)]) {
        let shared = FaceTracker.commonMotion(of: tracks, to: detections.map(\.box), at: frame)
        if let shared {
            for t in tracks.indices where tracks[t].hits == 1 { tracks[t].velocity = (shared.0, shared.1, 0, 0) }
        }
        var unmatched = Array(detections.indices)
        var pairs: [(track: Int, det: Int, iou: Double)] = []
        for (t, track) in tracks.enumerated() {
            let p = track.predicted(at: frame)
            for d in detections.indices {
                let det = detections[d].box
                let iou = p.iou(det)
                // A small fast face may not overlap its prediction: accept a centre
                // within half the face's size too, ranked below any overlap.
                let reach = 0.5 * max(det.width, det.height)
                let near = abs(p.midX - det.midX) < reach && abs(p.midY - det.midY) < reach
                if iou > 0.1 || near { pairs.append((t, d, max(iou, near ? 0.05 : 0))) }
            }
        }
        var usedTracks = Set<Int>()
        for pair in pairs.sorted(by: { $0.iou > $1.iou }) where !usedTracks.contains(pair.track) && unmatched.contains(pair.det) {
            usedTracks.insert(pair.track)
            unmatched.removeAll { $0 == pair.det }
            var track = tracks[pair.track]
            let new = detections[pair.det].box, gap = Double(max(1, frame - track.lastSeen))
            let measured = ((new.x - track.box.x) / gap, (new.y - track.box.y) / gap, (new.width - track.box.width) / gap, (new.height - track.box.height) / gap)
            // Smoothed (half the old estimate, half the new measurement) once there is an estimate.
            track.velocity = track.hits == 1 ? measured
                : ((track.velocity.0 + measured.0) / 2, (track.velocity.1 + measured.1) / 2,
                   (track.velocity.2 + measured.2) / 2, (track.velocity.3 + measured.3) / 2)
            track.hits += 1
            track.box = new
            track.lastSeen = frame
            track.confidence = detections[pair.det].confidence
            tracks[pair.track] = track
        }
        for d in unmatched {
            tracks.append(Track(id: nextID, box: detections[d].box, velocity: (shared?.0 ?? 0, shared?.1 ?? 0, 0, 0),
                                lastSeen: frame, confidence: detections[d].confidence))
            nextID += 1
        }
        tracks.removeAll { frame - $0.lastSeen > grace }
    }

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

    /// Every live track's box at `frame` (detected there, or predicted).
    public mutating func boxes(at frame: Int) -> [(id: Int, box: ImageRect, detected: Bool)] {
        tracks.removeAll { frame - $0.lastSeen > grace }
        return tracks.map { ($0.id, $0.lastSeen == frame ? $0.box : $0.predicted(at: frame), $0.lastSeen == frame) }
    }
}
