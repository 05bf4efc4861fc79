import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/blur`: the photo with its faces covered, in the input's format.
/// Stateless unless asked: the answer carries its editing state
/// base64-encoded in `X-Veil-State`, and a state sent with the request (form
/// part `state`, or the `X-Veil-State` header) is what it edits. `keep=1`
/// keeps the state on the server under a new handle (`X-Veil-State-Handle`,
/// readable at `X-Veil-State-URL`); `handle=H` edits the state kept under H
/// and keeps the result there. A state over `inlineStateLimit` bytes (a
/// larger header would not fit the connection's memory beside the request's)
/// is never left out in silence: it is kept as `keep=1` would, and
/// `X-Veil-State-Omitted` says why it is not in the header. Only the
/// detector's findings are shared between requests that send the same bytes
/// (`StateStore`): one client's edits never reach another's photo.
enum BlurRoute {
    /// The largest base64 state sent in a header: about 60 faces (190 faces were 35,640 bytes).
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
        let fields = try Fields(upload)
        if let quality = fields.quality { blurrer.quality = quality }

        let owner = StateStore.owner(token: config.token)
        let handle = fields.handle
        let keep = fields.keep || handle != nil
        let sent = try sentState(upload)
        if let sent, case .image = sent.style { throw InputError("image styles name a file on the server; not accepted over HTTP") }
        let sha = EditingState.digest(of: upload.image)
        // The detector's settings name its cache entry: a threshold of 0.9 never reuses faces found at 0.5.
        let settings = String(reflecting: blurrer.detector) + "|faces=\(blurrer.coversFaces)"
        var previous = sent
        if previous == nil, let handle {
            guard let kept = states.load(handle: handle, owner: owner) else { throw NotFound("no state is kept under the handle \(handle)") }
            previous = kept
        }
        if previous == nil, var cached = states.detections(for: sha, settings: settings, file: upload.filename) {
            // Text is covered only where this request asks for it.
            if blurrer.text == nil { cached.texts = nil }
            if blurrer.people == nil { cached.people = nil }
            previous = cached
            // The cache holds detections, not a user's state: this request's cover set rules.
            blurrer.keepsStateCoverSet = false
        }
        let edits = try RegionEdits(upload)
        try upload.refuseUnknown()
        let rendered = try await blurrer.render(upload.image, name: upload.filename, previous: previous, edits: edits)
        let state = try rendered.state.encoded().base64EncodedString()
        let digest = rendered.state.source.sha256
        var headers = [
            ("X-Veil-Sha256", digest),
            ("X-Veil-Detector", rendered.detectorRan ? "ran" : "reused"),
            ("X-Veil-Covered", String(rendered.coveredRegions)),
        ]
        let inline = state.utf8.count <= inlineStateLimit
        if inline {
            headers.insert(("X-Veil-State", state), at: 0)
        } else {
            headers.append(("X-Veil-State-Omitted", "the state is \(state.utf8.count) bytes of base64, over the \(inlineStateLimit) a header carries: "
                            + "it is kept at X-Veil-State-URL; edit it with handle=X-Veil-State-Handle"))
        }
        // Saved only once the answer that names it is built.
        try states.saveDetections(rendered.state, settings: settings)
        if keep || !inline {
            let name = handle ?? StateStore.newHandle()
            try states.save(rendered.state, handle: name, owner: owner)
            headers += [("X-Veil-State-Handle", name), ("X-Veil-State-URL", "/v1/state/\(name)")]
        }
        return HTTPResponse(status: 200, contentType: mime(rendered.format), body: rendered.data, headers: headers)
    }

    /// The route's own fields, each one line: the encoder's `quality`, and
    /// where the state is kept (`keep`, `handle`).
    struct Fields: ParsableOptions {
        var quality: Int?, handle: String?, keep = false

        static var options: [Option<Self>] {
            [
                .parsed("quality", "Q", \.quality, .output, "JPEG, WebP and HEIF quality, 1...100", sample: "85") {
                    Int(try TextNumber.double($0, in: 1...100, option: $1))
                },
                .parsed("handle", "H", \.handle, .editing, "edit the state kept under H and keep the result there",
                        sample: String(repeating: "0", count: 32)) { text, _ in
                    guard StateStore.isHandle(text) else { throw InputError("handle must be the 32 hex digits X-Veil-State-Handle gave, not '\(text)'") }
                    return text
                },
                .flag("keep", \.keep, .editing, "keep the state on the server under a new handle (X-Veil-State-Handle)"),
            ]
        }
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
