/// A line of text found and read: the answer of `RecognizeTextRequest`.
/// Its place is a `TextObservation` (normalized, lower-left origin, as in Vision).
public struct RecognizedTextObservation: Sendable, Hashable, Codable {
    public var region: TextObservation
    /// Readings, best first.
    public var candidates: [RecognizedText]
    /// Whether the line was read turned half a turn (the orientation model said so).
    public var upsideDown: Bool

    public init(region: TextObservation, candidates: [RecognizedText], upsideDown: Bool = false) {
        self.region = region; self.candidates = candidates; self.upsideDown = upsideDown
    }

    public var boundingBox: NormalizedRect { region.boundingBox }
    /// The reading's confidence (the best candidate's).
    public var confidence: Float { candidates.first?.confidence ?? 0 }

    /// At most `maxCandidateCount` readings, best first, as Vision's
    /// `topCandidates(_:)`. Greedy CTC decoding gives one reading per line,
    /// so this is that reading (or none for an empty one).
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        Array(candidates.prefix(max(0, maxCandidateCount)))
    }
}
