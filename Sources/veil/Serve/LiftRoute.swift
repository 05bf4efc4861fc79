import Foundation
import VeilKit

/// `POST /v1/lift`: the subject cut out (PNG, or WebP with `format=webp`), an
/// effect round it, its mask (`mask-only=1`), or the instances as JSON
/// (`json=1`, the shape of `veil lift --json`). `tap=x,y` picks the instance
/// under a pixel (background: all), `instances=1,3` lists them; `effect=replace`
/// takes the new background from the form part `background`, never a path.
enum LiftRoute {
    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var request = GenerateForegroundInstanceMaskRequest()
        request.decoder.maxPixels = config.maxPixels
        var o = LiftCommand.Options()
        o.crop = upload.flag("crop")
        o.maskOnly = upload.flag("mask-only")
        if let text = upload.options["tap"], !text.isEmpty {
            do { o.tap = try LiftCommand.tapPoint(text) } catch { throw VeilErrorText("\(error)") }
        }
        if let text = upload.options["instances"], !text.isEmpty {
            let labels = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard labels.allSatisfy({ ($0 ?? 0) >= 1 }) else { throw VeilErrorText("instances wants labels like 1,3, not '\(text)'") }
            o.instances = IndexSet(labels.compactMap { $0 })
        }
        let format: EncodedFormat
        switch upload.options["format"]?.lowercased() ?? "png" {
        case "png": format = .png
        case "webp": format = .webp
        case let other: throw VeilErrorText("format must be png or webp, not '\(other)'")
        }
        if let text = upload.options["effect"], !text.isEmpty {
            if text == "replace" || text.hasPrefix("replace=") {
                guard text == "replace", let part = upload.parts["background"] else {
                    throw VeilErrorText("effect=replace takes the new background as an uploaded form part named 'background'")
                }
                var decoder = ImageDecoder()
                decoder.maxPixels = config.maxPixels
                o.effect = .replace(background: try decoder.decode(.data(part.data)).image)
            } else {
                o.effect = try LiftCommand.effect(text)
            }
        }

        let decoded = try request.decoder.decode(.data(upload.image))
        let observation = try await request.perform(on: decoded.image)
        let chosen = try observation.map { try LiftCommand.choose($0, o) } ?? IndexSet()
        if upload.flag("json") {
            let lifted = LiftCommand.Lifted(size: decoded.image.size, instances: observation?.instances ?? [], chosen: chosen, written: nil)
            return .json(200, .object([("images", .array([LiftCommand.entry(upload.filename, lifted)]))]))
        }
        try Task.checkCancellation()
        let image = try LiftCommand.result(observation, chosen: chosen, of: decoded.image, o)
        let data = try ImageEncoder(format: format).encode(image)
        return HTTPResponse(status: 200, contentType: format == .png ? "image/png" : "image/webp", body: data, headers: [
            ("X-Veil-Instances", String(observation?.instances.count ?? 0)),
            ("X-Veil-Chosen", chosen.map(String.init).joined(separator: ",")),
        ])
    }
}
