import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/text`: exactly what `veil text --json` prints for one image,
/// with the same option (`level=fast|accurate`, one parser, `TextOptions`).
enum TextRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var request = try TextOptions(upload).request
        request.decoder.maxPixels = config.maxPixels
        try upload.refuseUnknown()
        let decoded = try request.decoder.decode(.data(upload.image))
        let lines = try await request.perform(on: decoded.image)
        return .json(200, TextReport.document([TextReport(file: upload.filename, size: decoded.image.size, lines: lines)]))
    }
}
