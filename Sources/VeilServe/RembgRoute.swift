import Foundation
import VeilKit
import VeilVocabulary

/// `POST /api/remove`: rembg's HTTP API, served unchanged for the scripts and
/// apps that already talk to `rembg s`. The image comes in the form part
/// `file` (or as the body); form fields `model` (one of Veil's lift models:
/// u2netp, u2net), `om` (only the mask), `ppm` (post-process the mask:
/// Veil's mask is always refined, so accepted and ignored), `a`, `af`, `ab`,
/// `ae` (alpha matting: accepted, not applied yet); query parameters `bgc`
/// ("r,g,b,a": a background colour, alpha 0 or 255) and `extras` (ignored).
/// Answers PNG bytes, as rembg does. `GET /api/remove?url=` is refused:
/// Veil fetches nothing, nothing leaves the machine. Same limits, token and
/// metrics as `/v1/lift`, which does the work.
enum RembgRoute {
    static let path = "/api/remove"

    static func run(_ upload: Upload, _ config: ServeConfig) async throws -> HTTPResponse {
        var options = LiftOptions()
        if let model = upload.value("model") {
            guard let known = GenerateForegroundInstanceMaskRequest.Model(rawValue: model) else {
                let known = GenerateForegroundInstanceMaskRequest.Model.allCases.map(\.rawValue).joined(separator: ", ")
                throw InputError("model '\(model)' is not one of Veil's lift models: \(known)")
            }
            options.model = known
        }
        options.maskOnly = upload.flag("om")
        // rembg ignores bgc for a mask (om): so does Veil.
        if let bgc = upload.value("bgc"), !options.maskOnly {
            let parts = bgc.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, parts.allSatisfy({ (0...255).contains($0) }) else {
                throw InputError("bgc takes r,g,b,a (0-255 each), not '\(bgc)'")
            }
            switch parts[3] {
            case 0: break
            case 255: options.effect = .effect(.color(RGB(UInt8(parts[0]), UInt8(parts[1]), UInt8(parts[2]))))
            default: throw InputError("bgc's alpha must be 0 or 255: Veil's backgrounds are opaque or transparent")
            }
        }
        // rembg's other fields are taken as rembg takes them: accepted, unread.
        let lift = try options.lift(spelling: upload.spelling) { _ in throw InputError("rembg's API takes no background picture") }
        return try await LiftRoute.answer(lift, upload, format: .png, json: false, config)
    }

    /// The GET form fetches an image from a URL: refused.
    static let refusal = HTTPResponse.error(400, "GET /api/remove?url= is not served: Veil fetches nothing (nothing leaves the machine); POST the image instead")
}
