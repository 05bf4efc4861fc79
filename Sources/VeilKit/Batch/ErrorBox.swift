import Foundation

/// The first error any stage met.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ error: Error) { lock.lock(); if stored == nil { stored = error }; lock.unlock() }
}
