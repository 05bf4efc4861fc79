import CMicroHTTPD
import Foundation

/// One browser's `GET /v1/live/NAME`: an endless
/// `multipart/x-mixed-replace` body, one JPEG part a frame (an `<img>` shows
/// it as a moving picture). libmicrohttpd pulls bytes on its own thread;
/// between frames the connection is suspended, and the next frame resumes it.
final class LiveViewer: StreamBody, @unchecked Sendable {
    static let boundary = "veilframe"
    private weak var channel: LiveChannel?
    private let lock = NSLock()
    private var part = Data()
    private var offset = 0
    private var seq = -1
    private var decodedAt: UInt64 = 0
    private var suspended: OpaquePointer?
    private var finished = false

    init(channel: LiveChannel) { self.channel = channel }

    func read(into buffer: UnsafeMutableRawBufferPointer, connection: OpaquePointer) -> Int {
        lock.lock(); defer { lock.unlock() }
        if offset >= part.count {
            if finished { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            guard let next = channel?.frame(after: seq) else {
                // Nothing new: wait, suspended, for the next frame. Suspending
                // under the lock: `wake` resumes only after it.
                suspended = connection
                MHD_suspend_connection(connection)
                return 0
            }
            seq = next.seq
            decodedAt = next.decodedAt
            part = Data("--\(LiveViewer.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(next.jpeg.count)\r\n\r\n".utf8) + next.jpeg + Data("\r\n".utf8)
            offset = 0
        }
        let n = min(buffer.count, part.count - offset)
        part.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        if offset == part.count { channel?.shown(decodedAt: decodedAt) }
        return n
    }

    /// A new frame (or the end): resumes the connection if it waits.
    func wake() {
        let connection: OpaquePointer? = lock.withLock { defer { suspended = nil }; return suspended }
        if let connection { MHD_resume_connection(connection) }
    }

    func finish() {
        lock.withLock { finished = true }
        wake()
    }

    func closed() {
        lock.withLock { finished = true; suspended = nil }
        channel?.unsubscribe(self)
    }
}
