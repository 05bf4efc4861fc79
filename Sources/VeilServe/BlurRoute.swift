import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/blur`: the photo with its faces covered, in the input's format.
/// The editing state is kept in --state-dir under the photo's sha256 and named
/// by `X-Veil-State-URL` (`/v1/state/SHA`); it also comes back base64-encoded
/// in `X-Veil-State` when that is at most `inlineStateLimit` bytes — a larger
/// header would not fit the connection's memory beside the request's, and the
/// answer would be lost. A state sent with the request (form part `state`, or
/// the `X-Veil-State` header) replaces the saved one.
enum BlurRoute {
    /// The largest base64 state sent in a header (about 150 regions).
    static let inlineStateLimit = 12_000

    static func run(_ upload: Upload, _ config: ServeConfig, _ states: StateStore, _ pictures: PictureStore) async throws -> HTTPResponse {
        var blurrer = PhotoBlurrer()
        blurrer.detector.decoder.maxPixels = config.maxPixels
        // `style=image` with the picture as a form part: kept in the state folder, never a path sent.
        var options = upload
        var picture: CoverStyle?
        if upload.value("style") == "image" {
            guard let part = upload.parts["picture"] else { throw InputError("style=image needs the picture as a form part named 'picture'") }
            picture = try pictures.style(for: part, maxPixels: config.maxPixels)
            options.options["style"] = nil
        }
        try CoverOptions(options, allowingFiles: false).apply(to: &blurrer)
        if let picture { blurrer.style = picture }
        if let q = try upload.double("quality", in: 1...100) { blurrer.quality = Int(q) }

        let sent = try sentState(upload)
        if let sent, case .image = sent.style { throw InputError("image styles name a file on the server; not accepted over HTTP") }
        let sha = EditingState.digest(of: upload.image)
        let previous = sent ?? states.load(sha)
        let edits = try RegionEdits(upload)
        let rendered = try await blurrer.render(upload.image, name: upload.filename, previous: previous, edits: edits)
        let state = try rendered.state.encoded().base64EncodedString()
        let digest = rendered.state.source.sha256
        var headers = [
            ("X-Veil-State-URL", "/v1/state/\(digest)"),
            ("X-Veil-Sha256", digest),
            ("X-Veil-Detector", rendered.detectorRan ? "ran" : "reused"),
            ("X-Veil-Covered", String(rendered.coveredRegions)),
        ]
        if state.utf8.count <= inlineStateLimit { headers.insert(("X-Veil-State", state), at: 0) }
        // Saved only once the answer that names it is built.
        try states.save(rendered.state)
        return HTTPResponse(status: 200, contentType: mime(rendered.format), body: rendered.data, headers: headers)
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
