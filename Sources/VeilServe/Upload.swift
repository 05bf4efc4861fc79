import Foundation
import Synchronization
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
    /// The names the route asked for, to refuse the rest (`refuseUnknown`).
    let asked = AskedNames()

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

    func values(_ name: String) -> [String] { asked.add(name); return options[name].map { [$0] } ?? [] }

    func flag(_ name: String) -> Bool { asked.add(name); return Upload.isOn(options[name]) }

    /// Given at all, not asked for: a retired name is refused, never offered (`OptionSource.gives`).
    func gives(_ name: String) -> Bool { options[name] != nil }

    /// Refuses a parameter or text field the route never asked for: a
    /// misspelling (`thresold`) would otherwise be answered with the defaults,
    /// as if it had been heard. Call once every option has been read; the
    /// parts that carry files (`image`, `picture`, `background`, `state`) are known.
    func refuseUnknown() throws {
        try asked.refuse(Array(options.keys), known: ["image", "picture", "background", "state", "x-veil-state"])
    }

    /// A switch is on when present with no value, or `1`, `true`, `yes`.
    static func isOn(_ value: String?) -> Bool {
        guard let v = value?.lowercased() else { return false }
        return v == "" || v == "1" || v == "true" || v == "yes"
    }

    func spelling(_ name: String) -> String { name }
}

/// The option names a request's route asked for, whatever it was given:
/// what it understands. A reference shared by the copies a route makes.
final class AskedNames: Sendable {
    private let names = Mutex<Set<String>>([])

    func add(_ name: String) { names.withLock { _ = $0.insert(name) } }

    /// Throws for the first of `given` neither asked for nor `known`, with
    /// the CLI's "did you mean" among the names that were asked for.
    func refuse(_ given: [String], known: Set<String>) throws {
        let asked = names.withLock { $0 }
        for name in given.sorted() where !asked.contains(name) && !known.contains(name) {
            let candidates = asked.union(known).sorted()
            throw InputError("unknown parameter '\(name)'\(Suggestion.didYouMean(name, among: candidates)); this route takes \(asked.sorted().joined(separator: ", "))")
        }
    }
}
