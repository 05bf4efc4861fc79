import CMicroHTTPD

/// A libmicrohttpd connection suspended until something on another thread
/// resumes it: a work route's answer (`HTTPTransport`), a live view's next
/// frame (`LiveViewer`). The one place either call is made. libmicrohttpd
/// allows the resume from any thread; each suspension must be resumed once
/// before the daemon stops (it aborts otherwise), which is why holders keep
/// this value under their lock until they resume it.
struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer

    /// Suspends `connection` (from inside one of its callbacks, on the daemon's thread).
    static func suspend(_ connection: OpaquePointer) -> SuspendedConnection {
        MHD_suspend_connection(connection)
        return SuspendedConnection(connection: connection)
    }

    func resume() { MHD_resume_connection(connection) }
}
