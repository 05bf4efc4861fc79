import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/faces`: exactly what `veil faces --json` prints for one image.
enum FacesRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var request = DetectFaceRectanglesRequest()
        request.decoder.maxPixels = config.maxPixels
        if let t = try upload.double("threshold", in: 0...1) { request.confidenceThreshold = Float(t) }
        let decoded = try request.decoder.decode(.data(upload.image))
        let faces = try await request.perform(on: decoded.image)
        return .json(200, FacesReport.document([FacesReport(file: upload.filename, size: decoded.image.size, faces: faces)]))
    }
}
