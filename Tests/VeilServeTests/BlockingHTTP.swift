import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A parsed answer.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
}

/// A tiny blocking HTTP/1.1 client over a loopback socket: one request per
/// connection (`Connection: close`), so tests control every byte sent
/// (e.g. a Content-Length with no body) and can run many from plain threads.
enum BlockingHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func send(port: Int, method: String, path: String, headers: [(String, String)] = [], body: Data = Data(),
                     sendBody: Bool = true, timeout: Double = 60) throws -> HTTPReply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port) failed") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "content-length" }) && (method == "POST" || !body.isEmpty) {
            head += "Content-Length: \(body.count)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var outgoing = Data(head.utf8)
        if sendBody { outgoing.append(body) }
        try outgoing.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { break }   // the server may answer early and close (e.g. 413)
                sent += n
            }
            if sent < raw.count && sent == 0 { throw Failure(description: "send failed") }
        }
        var reply = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply.append(buffer, count: n)
        }
        return try parse(reply)
    }

    static func parse(_ reply: Data) throws -> HTTPReply {
        guard let split = reply.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP answer (\(reply.count) bytes)") }
        let lines = String(decoding: reply[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return HTTPReply(status: status, headers: headers, body: Data(reply[split.upperBound...]))
    }

    /// A multipart/form-data body and its Content-Type.
    static func form(_ parts: [(name: String, filename: String?, data: Data)]) -> (Data, String) {
        let boundary = "veil-\(UUID().uuidString)"
        var body = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n\r\n"
            body.append(Data(head.utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}
