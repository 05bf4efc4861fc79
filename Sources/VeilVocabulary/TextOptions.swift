import VeilKit

/// How `veil text` reads: `level` (fast or accurate).
public struct TextOptions: Sendable {
    public var level: RecognizeTextRequest.RecognitionLevel = .accurate

    public init(_ source: some OptionSource) throws {
        level = try source.choice("level", of: RecognizeTextRequest.RecognitionLevel.self) ?? .accurate
    }

    public var request: RecognizeTextRequest {
        var request = RecognizeTextRequest()
        request.recognitionLevel = level
        return request
    }
}
