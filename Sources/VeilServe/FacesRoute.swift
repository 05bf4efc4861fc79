import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/faces`: exactly what `veil faces --json` prints for one image,
/// with the same options (`preset`, `model`, `threshold`).
enum FacesRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var request = try FaceOptions(upload).request
        request.decoder.maxPixels = config.maxPixels
        try upload.refuseUnknown()
        let decoded = try request.decoder.decode(.data(upload.image))
        let faces = try await request.perform(on: decoded.image)
        return .json(200, FacesReport.document([FacesReport(file: upload.filename, size: decoded.image.size, faces: faces)]))
    }
}
