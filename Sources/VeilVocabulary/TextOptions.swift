import VeilKit

/// How `veil text` reads: `level` (fast or accurate).
public struct TextOptions: Sendable {
    public var level: RecognizeTextRequest.RecognitionLevel = .accurate

    public init(_ source: some OptionSource) throws {
        if let text = source.value("level") {
            guard let level = RecognizeTextRequest.RecognitionLevel(rawValue: text) else {
                throw InputError("\(source.spelling("level")) must be fast or accurate, not '\(text)'")
            }
            self.level = level
        }
    }

    public var request: RecognizeTextRequest {
        var request = RecognizeTextRequest()
        request.recognitionLevel = level
        return request
    }
}
