/// What completing a value or an argument offers, decided once for the
/// three shells: its words (choices, or veil's commands), files, folders,
/// or nothing. Each shell only spells the four cases.
enum CompletionOffer: Equatable {
    case words([String]), files, directories, nothing

    init(_ choices: [String]?, _ kind: OptionSpec.ValueKind) {
        if let choices { self = .words(choices); return }
        switch kind {
        case .file: self = .files
        case .directory: self = .directories
        case .command: self = .words(Commands.top.map(\.name))
        case .text: self = .nothing
        }
    }

    /// The offer in one shell's terms.
    func spelled(words: ([String]) -> String, files: String, directories: String, nothing: String) -> String {
        switch self {
        case let .words(list): words(list)
        case .files: files
        case .directories: directories
        case .nothing: nothing
        }
    }
}
