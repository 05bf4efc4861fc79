import CMicroHTTPD
import Foundation
import Synchronization

/// One browser's `GET /v1/live/NAME`: an endless
/// `multipart/x-mixed-replace` body, one JPEG part a frame (an `<img>` shows
/// it as a moving picture). libmicrohttpd pulls bytes on its own thread;
/// between frames the connection is suspended, and the next frame resumes it.
final class LiveViewer: StreamBody, @unchecked Sendable {
    static let boundary = "veilframe"
    private weak var channel: LiveChannel?
    /// The part being sent, where in it, the frame it is, and the connection
    /// while it waits for the next frame: read and changed from libmicrohttpd's
    /// thread and the live view's writer thread.
    private struct State {
        var part = Data()
        var offset = 0
        var seq = -1
        var decodedAt: UInt64 = 0
        var suspended: SuspendedConnection?
        var finished = false
    }
    private let state = Mutex(State())

    init(channel: LiveChannel) { self.channel = channel }

    func read(into buffer: UnsafeMutableRawBufferPointer, connection: OpaquePointer) -> Int {
        var shown: UInt64?
        let n: Int = state.withLock { s in
            if s.offset >= s.part.count {
                if s.finished { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
                guard let next = channel?.frame(after: s.seq) else {
                    // Nothing new: wait, suspended, for the next frame. Suspending
                    // under the lock: `wake` resumes only after it.
                    s.suspended = SuspendedConnection.suspend(connection)
                    return 0
                }
                s.seq = next.seq
                s.decodedAt = next.decodedAt
                s.part = Data("--\(LiveViewer.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(next.jpeg.count)\r\n\r\n".utf8) + next.jpeg + Data("\r\n".utf8)
                s.offset = 0
            }
            let n = min(buffer.count, s.part.count - s.offset)
            let offset = s.offset
            s.part.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            s.offset += n
            if s.offset == s.part.count { shown = s.decodedAt }
            return n
        }
        if let shown { channel?.shown(decodedAt: shown) }
        return n
    }

    /// A new frame (or the end): resumes the connection if it waits.
    func wake() {
        let waiting = state.withLock { s in defer { s.suspended = nil }; return s.suspended }
        waiting?.resume()
    }

    func finish() {
        state.withLock { $0.finished = true }
        wake()
    }

    func closed() {
        state.withLock { $0.finished = true; $0.suspended = nil }
        channel?.unsubscribe(self)
    }
}
