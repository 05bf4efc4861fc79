import Foundation
import VeilKit
import VeilVocabulary

/// What `/v1/faces` and `/v1/text` share: the request made from the route's
/// options group (one parser with the CLI's), the upload decoded within the
/// server's pixel limit, and exactly what the CLI's `--json` prints for one image.
enum AnalysisRoute {
    static func run<Request, Found, Report: FileReport>(
        _ upload: Upload, _ config: ServeConfig, _ request: Request, decoder: WritableKeyPath<Request, ImageDecoder>,
        perform: (Request, VeilImage) async throws -> Found, report: (String, PixelSize, Found) -> Report
    ) async throws -> HTTPResponse {
        var request = request
        request[keyPath: decoder].maxPixels = config.maxPixels
        try upload.refuseUnknown()
        let decoded = try request[keyPath: decoder].decode(.data(upload.image))
        let found = try await perform(request, decoded.image)
        return .json(200, Report.document([report(upload.filename, decoded.image.size, found)]))
    }
}

/// `POST /v1/faces`: what `veil faces --json` prints, with its options (`preset`, `model`, `threshold`).
enum FacesRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        try await AnalysisRoute.run(upload, config, FaceOptions(upload).request, decoder: \.decoder,
                                    perform: { try await $0.perform(on: $1) }, report: { FacesReport(file: $0, size: $1, faces: $2) })
    }
}

/// `POST /v1/text`: what `veil text --json` prints, with its option (`level=fast|accurate`, `TextOptions`).
enum TextRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        try await AnalysisRoute.run(upload, config, TextOptions(upload).request, decoder: \.decoder,
                                    perform: { try await $0.perform(on: $1) }, report: { TextReport(file: $0, size: $1, lines: $2) })
    }
}
