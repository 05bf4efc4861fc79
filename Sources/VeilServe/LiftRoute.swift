import Foundation
import VeilKit
import VeilVocabulary

/// `POST /v1/lift`: the subject cut out (PNG, or WebP with `format=webp`), an
/// effect round it, its mask (`mask-only=1`), or the instances as JSON
/// (`json=1`, the shape of `veil lift --json`). `tap=x,y` picks the instance
/// under a pixel (background: all), `instances=1,3` lists them; `effect=replace`
/// takes the new background from the form part `background`, never a path.
enum LiftRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        let lift = try LiftOptions(upload).lift(spelling: upload.spelling) { path in
            guard path == nil, let part = upload.parts["background"] else {
                throw InputError("effect=replace takes the new background as an uploaded form part named 'background'")
            }
            var decoder = ImageDecoder()
            decoder.maxPixels = config.maxPixels
            return try decoder.decode(.data(part.data)).image
        }
        let reply = try Reply(upload)
        try upload.refuseUnknown()
        return try await answer(lift, upload, format: reply.format ?? .png, json: reply.json, config)
    }

    /// How the answer is written: `format` (png or webp, any case) and `json`.
    struct Reply: ParsableOptions {
        var format: EncodedFormat?
        var json = false

        static var options: [Option<Self>] {
            [
                .parsed("format", "png|webp", \.format, .output, "the picture's format (PNG or WebP keep the transparency)", default: "png",
                        choices: ["png", "webp"], sample: "webp") { text, _ in
                    switch text.lowercased() {
                    case "png": return .png
                    case "webp": return .webp
                    case let other: throw InputError("format must be png or webp, not '\(other)'")
                    }
                },
                .flag("json", \.json, .output, "the instances (label, area, box in pixels) as JSON, as `veil lift --json`"),
            ]
        }
    }

    /// The lift of the uploaded image, as `format` or as its JSON report:
    /// what `/v1/lift` and rembg's `/api/remove` answer.
    static func answer(_ lift: SubjectLift, _ upload: Upload, format: EncodedFormat, json: Bool, _ config: ServeConfig) async throws -> HTTPResponse {
        var lift = lift
        lift.request.decoder.maxPixels = config.maxPixels
        let decoded = try lift.request.decoder.decode(.data(upload.image))
        let observation = try await lift.perform(on: decoded.image)
        let chosen = observation.map(lift.choose) ?? IndexSet()
        if json {
            let report = LiftReport(file: upload.filename, size: decoded.image.size, instances: observation?.instances ?? [], chosen: chosen, output: nil)
            return .json(200, LiftReport.document([report]))
        }
        try Task.checkCancellation()
        let image = try lift.render(observation, chosen: chosen, of: decoded.image)
        let data = try ImageEncoder(format: format).encode(image)
        var headers = [
            ("X-Veil-Instances", String(observation?.instances.count ?? 0)),
            ("X-Veil-Chosen", chosen.map(String.init).joined(separator: ",")),
        ]
        // Where a cropped answer sits in the photo (pixels x,y,w,h): a tap on it maps back through it.
        if lift.crop, !chosen.isEmpty, let extent = try observation?.extent(of: chosen, cropped: true) {
            headers.append(("X-Veil-Crop", "\(extent.x),\(extent.y),\(extent.width),\(extent.height)"))
        }
        return HTTPResponse(status: 200, contentType: format == .png ? "image/png" : "image/webp", body: data, headers: headers)
    }
}
