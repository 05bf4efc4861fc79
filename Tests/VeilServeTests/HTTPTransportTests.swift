import CMicroHTTPDShim
import Foundation
@testable import VeilServe
import XCTest

/// The transport's policy without a daemon: the callbacks libmicrohttpd
/// would call, fed a socket pair, and the reaper run at a chosen time.
final class HTTPTransportTests: XCTestCase {
    func transport(headerTimeout: Double = 10, maxUnheadered: Int = 0) -> HTTPTransport {
        HTTPTransport(limits: TransportLimits(maxBody: 1 << 20, bodyBudget: 1 << 22, headerTimeout: headerTimeout, bodyTimeout: 10,
                                              maxUnheadered: maxUnheadered,
                                              daemon: veil_httpd_options(connection_limit: 8, per_ip_limit: 0, idle_timeout: 10, threads: 1)),
                      dispatch: { _ in })
    }

    /// A connected pair: the transport's end, and the client's.
    func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw XCTSkip("no socketpair") }
        addTeardownBlock { close(fds[0]); close(fds[1]) }
        return (fds[0], fds[1])
    }

    /// Reads the client's end: 0 once the transport's end is shut down.
    func clientSeesEOF(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        var flags = fcntl(fd, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(fd, F_SETFL, flags)
        return read(fd, &byte, 1) == 0
    }

    func testSlowHeaderSendersAreClosedByTheReaper() throws {
        let transport = transport(headerTimeout: 2)
        let callbacks = transport.callbacks
        let (server, client) = try socketPair()
        let connection = callbacks.opened(callbacks.context, server)
        transport.reap(at: HTTPTransport.now() + 1)
        XCTAssertEqual(transport.stats.slow_closed, 0)
        XCTAssertFalse(clientSeesEOF(client))
        transport.reap(at: HTTPTransport.now() + 3)
        XCTAssertEqual(transport.stats.slow_closed, 1)
        XCTAssertTrue(clientSeesEOF(client))
        callbacks.closed(callbacks.context, connection)
    }

    func testTheOldestUnheaderedConnectionMakesRoom() throws {
        let transport = transport(maxUnheadered: 2)
        let callbacks = transport.callbacks
        let pairs = try (0..<3).map { _ in try socketPair() }
        let connections = pairs.map { callbacks.opened(callbacks.context, $0.0) }
        XCTAssertEqual(transport.stats.evicted, 1)
        XCTAssertTrue(clientSeesEOF(pairs[0].1))
        XCTAssertFalse(clientSeesEOF(pairs[2].1))
        connections.forEach { callbacks.closed(callbacks.context, $0) }
    }
}
