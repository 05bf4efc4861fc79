import VeilKit

/// How `veil text` and `POST /v1/text` read, each option one line: `level` (fast or accurate).
public struct TextOptions: ParsableOptions {
    public var level: RecognizeTextRequest.RecognitionLevel?

    public init() {}

    public static var options: [Option<Self>] {
        [
            .choice("level", \.level, .detection,
                    "accurate: tiles for large photos and the upside-down check; fast: one pass of at most a megapixel", default: "accurate", sample: "fast"),
        ]
    }

    public var request: RecognizeTextRequest {
        var request = RecognizeTextRequest()
        request.recognitionLevel = level ?? .accurate
        return request
    }
}
