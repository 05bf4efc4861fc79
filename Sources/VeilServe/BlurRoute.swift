import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/blur`: the photo with its faces covered, in the input's format.
/// The editing state comes back base64-encoded in `X-Veil-State` and is kept
/// in --state-dir under the photo's sha256; a state sent with the request
/// (form part `state`, or the `X-Veil-State` header) replaces the saved one.
enum BlurRoute {
    static func run(_ upload: Upload, _ config: ServeConfig, _ states: StateStore) async throws -> HTTPResponse {
        var blurrer = PhotoBlurrer()
        blurrer.detector.decoder.maxPixels = config.maxPixels
        try CoverOptions(upload, allowingFiles: false).apply(to: &blurrer)
        if let q = try upload.double("quality", in: 1...100) { blurrer.quality = Int(q) }

        let sent = try sentState(upload)
        if let sent, case .image = sent.style { throw InputError("image styles name a file on the server; not accepted over HTTP") }
        let sha = EditingState.digest(of: upload.image)
        let previous = sent ?? states.load(sha)
        let edits = try RegionEdits(upload)
        let rendered = try await blurrer.render(upload.image, name: upload.filename, previous: previous, edits: edits)
        try states.save(rendered.state)
        let state = try rendered.state.encoded().base64EncodedString()
        return HTTPResponse(status: 200, contentType: mime(rendered.format), body: rendered.data, headers: [
            ("X-Veil-State", state),
            ("X-Veil-Sha256", rendered.state.source.sha256),
            ("X-Veil-Detector", rendered.detectorRan ? "ran" : "reused"),
            ("X-Veil-Covered", String(rendered.coveredRegions)),
        ])
    }

    static func sentState(_ upload: Upload) throws -> EditingState? {
        if let part = upload.parts["state"] { return try EditingState.decode(part.data) }
        if let header = upload.options["x-veil-state"] ?? upload.headerState {
            guard let data = Data(base64Encoded: header) else { throw InputError("X-Veil-State is not base64") }
            return try EditingState.decode(data)
        }
        return nil
    }

    static func mime(_ format: EncodedFormat) -> String { format.mimeType }
}
