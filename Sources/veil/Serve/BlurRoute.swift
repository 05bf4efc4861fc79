import Foundation
import VeilKit

/// `POST /v1/blur`: the photo with its faces covered, in the input's format.
/// The editing state comes back base64-encoded in `X-Veil-State` and is kept
/// in --state-dir under the photo's sha256; a state sent with the request
/// (form part `state`, or the `X-Veil-State` header) replaces the saved one.
enum BlurRoute {
    static func run(_ upload: Upload, _ config: ServeConfig, _ states: StateStore) async throws -> HTTPResponse {
        var blurrer = PhotoBlurrer()
        blurrer.detector.decoder.maxPixels = config.maxPixels
        if let s = upload.options["style"], !s.isEmpty { blurrer.style = try style(s) }
        if let s = upload.options["shape"], !s.isEmpty {
            guard let shape = CoverRegion.Shape(rawValue: s) else { throw VeilErrorText("shape must be disc, ellipse or box, not '\(s)'") }
            blurrer.shape = shape
        }
        blurrer.maskScale = try upload.double("mask-scale", in: 0.1...10) ?? upload.double("maskScale", in: 0.1...10)
        if let t = try upload.double("threshold", in: 0...1) { blurrer.detector.confidenceThreshold = Float(t) }
        if let q = try upload.double("quality", in: 1...100) { blurrer.quality = Int(q) }

        let sent = try sentState(upload)
        if let sent, case .image = sent.style { throw VeilErrorText("image styles name a file on the server; not accepted over HTTP") }
        let sha = EditingState.digest(of: upload.image)
        let previous = sent ?? states.load(sha)
        let edits = try edits(upload)
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

    /// Styles as the CLI spells them, except `image=PATH`: a client may not name server files.
    static func style(_ text: String) throws -> CoverStyle {
        let style = try CoverStyle(parsing: text)
        if case .image = style { throw VeilErrorText("image styles name a file on the server; not accepted over HTTP") }
        return style
    }

    static func sentState(_ upload: Upload) throws -> EditingState? {
        if let part = upload.parts["state"] { return try EditingState.decode(part.data) }
        if let header = upload.options["x-veil-state"] ?? upload.headerState {
            guard let data = Data(base64Encoded: header) else { throw VeilErrorText("X-Veil-State is not base64") }
            return try EditingState.decode(data)
        }
        return nil
    }

    /// `drop=0,2`, `add=x,y,w,h;x,y,w,h` (pixels), `confirm=1`: the CLI's edits.
    static func edits(_ upload: Upload) throws -> RegionEdits {
        var edits = RegionEdits(confirm: upload.flag("confirm"))
        for text in (upload.options["drop"] ?? "").split(separator: ",") {
            guard let i = Int(text), i >= 0 else { throw VeilErrorText("drop takes face indices like 0,2, not '\(text)'") }
            edits.drop.append(i)
        }
        for box in (upload.options["add"] ?? "").split(separator: ";") {
            let n = box.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard n.count == 4, n[2] > 0, n[3] > 0 else { throw VeilErrorText("add takes x,y,w,h in pixels, not '\(box)'") }
            edits.add.append(ImageRect(x: n[0], y: n[1], width: n[2], height: n[3]))
        }
        return edits
    }

    static func mime(_ format: EncodedFormat) -> String {
        switch format {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .tiff: return "image/tiff"
        case .heif: return "image/heif"
        }
    }
}
