/// A mistake in what a person or a client asked for — a flag, a query
/// parameter, a form field: the one input-error type of the CLI and the HTTP
/// service. The CLI prints it with a usage hint and exits 2; the service
/// answers 400. Its text names the option as the caller spelled it.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
