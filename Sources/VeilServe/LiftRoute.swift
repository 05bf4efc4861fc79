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
        var options = try LiftOptions(upload) { path in
            guard path == nil, let part = upload.parts["background"] else {
                throw InputError("effect=replace takes the new background as an uploaded form part named 'background'")
            }
            var decoder = ImageDecoder()
            decoder.maxPixels = config.maxPixels
            return try decoder.decode(.data(part.data)).image
        }
        options.request.decoder.maxPixels = config.maxPixels
        let format: EncodedFormat
        switch upload.value("format")?.lowercased() ?? "png" {
        case "png": format = .png
        case "webp": format = .webp
        case let other: throw InputError("format must be png or webp, not '\(other)'")
        }

        let json = upload.flag("json")
        try upload.refuseUnknown()
        let decoded = try options.request.decoder.decode(.data(upload.image))
        let observation = try await options.perform(on: decoded.image)
        let chosen = observation.map(options.choose) ?? IndexSet()
        if json {
            let report = LiftReport(file: upload.filename, size: decoded.image.size, instances: observation?.instances ?? [], chosen: chosen, output: nil)
            return .json(200, LiftReport.document([report]))
        }
        try Task.checkCancellation()
        let image = try options.render(observation, chosen: chosen, of: decoded.image)
        let data = try ImageEncoder(format: format).encode(image)
        var headers = [
            ("X-Veil-Instances", String(observation?.instances.count ?? 0)),
            ("X-Veil-Chosen", chosen.map(String.init).joined(separator: ",")),
        ]
        // Where a cropped answer sits in the photo (pixels x,y,w,h): a tap on it maps back through it.
        if options.crop, !chosen.isEmpty, let extent = try observation?.extent(of: chosen, cropped: true) {
            headers.append(("X-Veil-Crop", "\(extent.x),\(extent.y),\(extent.width),\(extent.height)"))
        }
        return HTTPResponse(status: 200, contentType: format == .png ? "image/png" : "image/webp", body: data, headers: headers)
    }
}
