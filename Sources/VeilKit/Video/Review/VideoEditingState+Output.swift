import Foundation

/// What a state knows of the output it was rendered into, so that the next
/// re-render can copy the parts of it that no edit changes (`VideoSplice`)
/// only when that file is really the one this state describes: its size and
/// sha256 as written, and the encoder's settings (a GOP re-encoded with
/// other settings would not fit beside the copied ones). Kept as
/// `"output": {"file", "size", "sha256", "encoder": {...}}`; absent in
/// states written before it (their next re-render re-encodes every frame),
/// and ignored by a Veil that does not know it.
extension VideoEditingState {
    public struct Output: Codable, Sendable, Equatable {
        public var file: String
        public var size: Int
        public var sha256: String
        public var encoder: EncoderSettings

        public init(file: String, size: Int, sha256: String, encoder: EncoderSettings) {
            self.file = file; self.size = size; self.sha256 = sha256; self.encoder = encoder
        }
    }

    /// Everything that decides the video stream's parameter sets and GOPs.
    public struct EncoderSettings: Codable, Sendable, Equatable {
        /// The muxer ("mp4", "mov", ...), nil when named by neither extension nor flag.
        public var format: String?
        /// "libx264" unless `--codec` named another.
        public var codec: String
        public var crf: Int
        public var preset: String
        public var tune: String?
        /// As given to x264, the keyframe interval included.
        public var x264Params: String?
        public var width: Int
        public var height: Int

        public init(format: String?, codec: String, crf: Int, preset: String, tune: String?, x264Params: String?, width: Int, height: Int) {
            self.format = format; self.codec = codec; self.crf = crf; self.preset = preset; self.tune = tune
            self.x264Params = x264Params; self.width = width; self.height = height
        }

        /// The settings `other` differs in, named for a one-line message.
        func differences(from other: EncoderSettings) -> [String] {
            var out: [String] = []
            if format != other.format { out.append("format \(other.format ?? "-") -> \(format ?? "-")") }
            if codec != other.codec { out.append("codec \(other.codec) -> \(codec)") }
            if crf != other.crf { out.append("crf \(other.crf) -> \(crf)") }
            if preset != other.preset { out.append("preset \(other.preset) -> \(preset)") }
            if tune != other.tune { out.append("tune \(other.tune ?? "-") -> \(tune ?? "-")") }
            if x264Params != other.x264Params { out.append("x264 params \(other.x264Params ?? "-") -> \(x264Params ?? "-")") }
            if width != other.width || height != other.height { out.append("size \(other.width)x\(other.height) -> \(width)x\(height)") }
            return out
        }
    }

    /// Checks the output record as the rest of the state is checked.
    func validateOutput(fail: (String) -> VeilError) throws {
        guard let output else { return }
        let hex = output.sha256.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        guard output.size >= 0, output.sha256.utf8.count == 64, hex, output.file.utf8.count <= 4096 else {
            throw fail("an output record of \(output.size) bytes, sha256 \(output.sha256.prefix(70))")
        }
        let e = output.encoder
        let short = [e.codec, e.preset, e.tune ?? "", e.format ?? ""].allSatisfy { $0.utf8.count <= 64 } && (e.x264Params ?? "").utf8.count <= 4096
        guard (0...51).contains(e.crf), EditingState.Limits.side.contains(e.width), EditingState.Limits.side.contains(e.height), short else {
            throw fail("an output record with encoder settings crf \(e.crf), \(e.width)x\(e.height)")
        }
    }
}

extension VideoEditingState {
    /// The frames whose cover differs between `old` (what its output shows)
    /// and this state (what a render of it covers): tracks and text tracks
    /// whose status or boxes changed, added regions, pen strokes, and every
    /// frame when the style, shape or mask scale changed. An added region
    /// still to be followed covers frames known only once followed: from
    /// where its backward follow starts (`followedFrom`, by region id; else
    /// its key frame) to the end of the video.
    func framesChanged(since old: VideoEditingState, followedFrom: [Int: Int]) -> [Bool] {
        let n = source.frames
        guard style == old.style, shape == old.shape, maskScale == old.maskScale,
              !old.manual.contains(where: { $0.status == .covered && $0.follow && $0.followed == nil }) else {
            return [Bool](repeating: true, count: n)
        }
        var changed = [Bool](repeating: false, count: n)
        func mark(_ frames: ClosedRange<Int>) {
            let lo = max(0, frames.lowerBound), hi = min(n - 1, frames.upperBound)
            if lo <= hi { for f in lo...hi { changed[f] = true } }
        }
        func covered(_ track: Track?) -> [Sighting] { track?.status == .covered ? track!.frames : [] }
        func compare(_ before: [Track], _ after: [Track]) {
            let a = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
            let b = Dictionary(after.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
            for id in Set(a.keys).union(b.keys) {
                let (x, y) = (covered(a[id]), covered(b[id]))
                guard x != y else { continue }
                for s in x + y { mark(s.frame...s.frame) }
            }
        }
        compare(old.tracks + (old.unsure ?? []), tracks + (unsure ?? []))
        compare(old.texts ?? [], texts ?? [])
        let a = Dictionary(old.manual.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        let b = Dictionary(manual.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        for id in Set(a.keys).union(b.keys) {
            let (x, y) = (a[id].flatMap { $0.status == .covered ? $0 : nil }, b[id].flatMap { $0.status == .covered ? $0 : nil })
            if let y, y.follow, y.followed == nil, let key = y.keys.first {
                mark(min(followedFrom[id] ?? key.frame, key.frame)...n)
                continue
            }
            guard x != y else { continue }
            for region in [x, y].compactMap({ $0 }) {
                if let followed = region.followed {
                    for s in followed { mark(s.frame...s.frame) }
                } else if let first = region.keys.map(\.frame).min(), let last = region.keys.map(\.frame).max() {
                    mark(first...last)
                }
            }
        }
        let (before, after) = (old.strokes ?? [], strokes ?? [])
        for pen in before where !after.contains(pen) { mark(pen.first...pen.last) }
        for pen in after where !before.contains(pen) { mark(pen.first...pen.last) }
        return changed
    }
}
