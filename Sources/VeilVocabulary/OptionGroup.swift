/// The headings options are listed under in help and the man page, in this
/// order: what a reader looks for first comes first.
public enum OptionGroup: String, CaseIterable, Sendable {
    case output
    case detection
    case cover
    case editing
    case subject
    case tuning
    case encoding
    case source
    case server
    case limits
    case performance
    case batch
    case other

    /// The heading, as help prints it.
    public var title: String {
        switch self {
        case .output: "output"
        case .detection: "detection"
        case .cover: "how faces are covered"
        case .editing: "editing (re-renders from the state beside the output)"
        case .subject: "subjects"
        case .tuning: "tuning the mask"
        case .encoding: "encoding"
        case .source: "input and output streams"
        case .server: "server"
        case .limits: "limits"
        case .performance: "performance"
        case .batch: "batch (see README: At scale)"
        case .other: "other"
        }
    }
}
