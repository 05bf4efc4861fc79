import Foundation
import VeilKit

/// `POST /v1/faces`: exactly what `veil faces --json` prints for one image.
enum FacesRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var request = DetectFaceRectanglesRequest()
        request.decoder.maxPixels = config.maxPixels
        if let t = try upload.double("threshold", in: 0...1) { request.confidenceThreshold = Float(t) }
        let decoded = try request.decoder.decode(.data(upload.image))
        let faces = try await request.perform(on: decoded.image)
        let found = FacesCommand.Found(size: decoded.image.size, faces: faces, image: decoded.image)
        return .json(200, .object([("images", .array([FacesCommand.entry(upload.filename, found)]))]))
    }
}
