/// What the JSON reports share: one entry per input file, in input order,
/// and for a file that could not be processed its error in place of the
/// results (the others are still reported): `{"images":[...]}`.
public protocol FileReport: Sendable {
    var file: String { get }
    var error: String? { get }
    /// The entry's JSON when the file was processed, nil when it failed.
    var results: JSONText? { get }
    init(file: String, error: String)
}

extension FileReport {
    public var json: JSONText { results ?? .object([("file", .string(file)), ("error", .string(error ?? ""))]) }

    /// The whole document: `{"images":[...]}`.
    public static func document(_ reports: [Self]) -> JSONText {
        .object([("images", .array(reports.map(\.json)))])
    }
}
