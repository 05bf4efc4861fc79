import Foundation
import VeilVocabulary

/// What a POST carries: the image (raw body or a form part), its name, and
/// the options (query parameters, overridden by text form fields).
struct Upload: Sendable, OptionSource {
    var image: Data
    var filename: String
    var options: [String: String]
    var parts: [String: FormPart]
    /// An editing state sent base64-encoded in the `X-Veil-State` header.
    var headerState: String?

    init(_ request: HTTPRequest) throws {
        options = request.query
        headerState = request.header("x-veil-state")
        parts = [:]
        if let boundary = request.header("content-type").flatMap(Multipart.boundary(of:)) {
            let all = try Multipart.parse(request.body, boundary: boundary)
            for part in all {
                if part.filename == nil { options[part.name] = part.text }
                if parts[part.name] == nil { parts[part.name] = part }
            }
            guard let picture = parts["image"] ?? all.first(where: { $0.filename != nil }) else {
                throw InputError("the form has no image part (name it 'image')")
            }
            image = picture.data
            let name = (picture.filename ?? "").split(separator: "/").last.map(String.init) ?? ""
            filename = name.isEmpty ? "upload" : name
        } else {
            image = request.body
            filename = "upload"
        }
        guard !image.isEmpty else { throw InputError("no image: send the image as the body or as a form part named 'image'") }
    }

    func values(_ name: String) -> [String] { options[name].map { [$0] } ?? [] }

    func flag(_ name: String) -> Bool { Upload.isOn(options[name]) }

    /// A switch is on when present with no value, or `1`, `true`, `yes`.
    static func isOn(_ value: String?) -> Bool {
        guard let v = value?.lowercased() else { return false }
        return v == "" || v == "1" || v == "true" || v == "yes"
    }

    func spelling(_ name: String) -> String { name }
}
