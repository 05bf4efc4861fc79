/// A mistake in what a person, a client or a file asked for: a flag, a query
/// parameter, a form field, a value VeilKit refuses, an editing state that
/// does not hold together. The one bad-input type of VeilKit, VeilVocabulary,
/// the CLI and the HTTP service; its text names the option as the caller
/// spelled it, on one line. Grown by static constructors, one per `Code`
/// (the shape of swift-nio's `NIOAsyncWriterError`), so a new kind of
/// mistake is a new code, not a new type.
///
/// Where it surfaces: thrown bare (the CLI's and the service's own checks,
/// `Code.usage`), the CLI prints it with a pointer to the command's help and
/// exits 2; inside VeilKit's errors (`VeilError.invalidInput`), the CLI says
/// it and exits 1 (an input failed). The service answers 400 either way.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case usage, invalidArgument, invalidState, stateMissing, stateOfAnotherSource, stateWithoutText
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// An option, a parameter or a form field: unknown, malformed or out of range.
        public static let usage = Code(.usage)
        /// A value a VeilKit call refuses (a face index that does not exist, parts that do not join).
        public static let invalidArgument = Code(.invalidArgument)
        /// A saved editing state that is malformed or does not fit its file.
        public static let invalidState = Code(.invalidState)
        /// Edits asked of a video whose tracks were never found (no state beside its output).
        public static let stateMissing = Code(.stateMissing)
        /// The state beside an output was made from another input.
        public static let stateOfAnotherSource = Code(.stateOfAnotherSource)
        /// Text is to be covered from a state made without it.
        public static let stateWithoutText = Code(.stateWithoutText)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The message, one line.
    public var description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// A usage mistake (`Code.usage`): the CLI's and the service's own checks.
    public init(_ description: String) { self.init(.usage, description) }

    public static func usage(_ message: String) -> InputError { InputError(.usage, message) }
    public static func invalidArgument(_ message: String) -> InputError { InputError(.invalidArgument, message) }
    /// `message` begins with the state's kind ("editing state: ...", "video editing state: ...").
    public static func invalidState(_ message: String) -> InputError { InputError(.invalidState, message) }
}
