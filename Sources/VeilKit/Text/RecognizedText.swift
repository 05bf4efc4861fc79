/// One reading of a line of text: what `RecognizedTextObservation.topCandidates(_:)` lists.
public struct RecognizedText: Sendable, Hashable, Codable {
    public var string: String
    /// The recogniser's confidence in [0, 1]: the mean probability of the characters read.
    public var confidence: Float

    public init(string: String, confidence: Float) { self.string = string; self.confidence = confidence }
}
