import CMicroHTTPD
import Foundation

/// A body libmicrohttpd reads by itself instead of a copied buffer: a range
/// of a file (a video the editor plays or downloads: no copy in memory,
/// Range requests for seeking), or a stream made as it comes (the live view).
enum ResponseSource: Sendable {
    /// `length` bytes of `path` from `offset`; opened when the answer is sent.
    case file(path: String, offset: Int, length: Int)
    case stream(StreamBody)
}

/// A body without an end known in advance, read by libmicrohttpd on its own
/// thread. When nothing is ready, `read` suspends the connection (the one
/// place libmicrohttpd allows it besides the access handler) and returns 0;
/// whoever makes the next bytes resumes it. `closed` is called once, when
/// the connection is gone.
protocol StreamBody: AnyObject, Sendable {
    /// Bytes copied into `buffer`, 0 after suspending `connection`, -1 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, connection: OpaquePointer) -> Int
    func closed()
}

extension ResponseSource {
    /// The libmicrohttpd response for this source, or nil (a file that cannot be opened).
    func response(connection: OpaquePointer) -> OpaquePointer? {
        switch self {
        case let .file(path, offset, length):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            // libmicrohttpd closes the descriptor with the response.
            guard let response = MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset)) else { close(fd); return nil }
            return response
        case let .stream(body):
            let context = Unmanaged.passRetained(StreamContext(body: body, connection: connection)).toOpaque()
            return MHD_create_response_from_callback(UInt64.max, 64 * 1024, { context, _, buffer, size in
                let c = Unmanaged<StreamContext>.fromOpaque(context!).takeUnretainedValue()
                return c.body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size), connection: c.connection)
            }, context, { context in
                let c = Unmanaged<StreamContext>.fromOpaque(context!).takeRetainedValue()
                c.body.closed()
            })
        }
    }
}

/// What the stream's C callbacks hold: the body and its connection.
private final class StreamContext {
    let body: StreamBody
    let connection: OpaquePointer
    init(body: StreamBody, connection: OpaquePointer) { self.body = body; self.connection = connection }
}
