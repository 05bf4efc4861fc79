import Foundation
import VeilVocabulary

/// One part of a multipart/form-data body.
struct FormPart: Sendable {
    var name: String
    var filename: String?
    var contentType: String?
    var data: Data

    var text: String { String(decoding: data, as: UTF8.self) }
}

/// Splits a multipart/form-data body (RFC 7578) into its parts in one
/// forward scan: each byte is looked at a bounded number of times, whatever
/// the number of parts, and the parts are capped (a form of the editor has
/// three), so the cost is linear in the body, which --max-body bounds.
enum Multipart {
    /// More parts than any client of this API sends; a body with more is refused.
    static let maxParts = 64

    static func boundary(of contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for param in contentType.split(separator: ";").dropFirst() {
            let kv = param.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == "boundary" {
                return kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    static func parse(_ body: Data, boundary: String) throws -> [FormPart] {
        // RFC 2046: 1 to 70 characters; a bound that also bounds each search step.
        guard (1...70).contains(boundary.utf8.count) else { throw InputError("the multipart boundary must have 1 to 70 characters") }
        return try body.withUnsafeBytes { raw in
            try split(raw.bindMemory(to: UInt8.self), delimiter: Array("\r\n--\(boundary)".utf8))
        }
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, delimiter: [UInt8]) throws -> [FormPart] {
        let blank: [UInt8] = Array("\r\n\r\n".utf8)
        // The first delimiter may open the body without its leading CRLF.
        let opening = Array(delimiter.dropFirst(2))
        var cursor: Int
        if starts(bytes, at: 0, with: opening) { cursor = opening.count }
        else if let first = find(delimiter, in: bytes, from: 0) { cursor = first + delimiter.count }
        else { throw InputError("multipart body without its boundary") }
        var parts: [FormPart] = []
        while true {
            // After a delimiter: "--" ends the body, else CRLF and a part.
            if starts(bytes, at: cursor, with: [45, 45]) { break }
            guard starts(bytes, at: cursor, with: [13, 10]) else { throw InputError("malformed multipart body") }
            guard parts.count < maxParts else { throw InputError("the form has more than \(maxParts) parts") }
            let headerStart = cursor + 2
            // Headers may be empty: then the blank line follows the delimiter's CRLF.
            let headerEnd: Int
            if starts(bytes, at: headerStart, with: [13, 10]) { headerEnd = headerStart }
            else if let end = find(blank, in: bytes, from: headerStart) { headerEnd = end }
            else { throw InputError("malformed multipart part headers") }
            let dataStart = headerEnd + (headerEnd == headerStart ? 2 : 4)
            guard let next = find(delimiter, in: bytes, from: dataStart) else { throw InputError("multipart body ends inside a part") }
            let headers = String(decoding: UnsafeBufferPointer(rebasing: bytes[headerStart..<headerEnd]), as: UTF8.self)
            var part = FormPart(name: "", filename: nil, contentType: nil, data: Data(UnsafeBufferPointer(rebasing: bytes[dataStart..<next])))
            for line in headers.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = parameter("name", in: line) ?? ""
                    part.filename = parameter("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(part)
            cursor = next + delimiter.count
        }
        return parts
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, with prefix: [UInt8]) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        for (i, byte) in prefix.enumerated() where bytes[offset + i] != byte { return false }
        return true
    }

    /// The first `needle` at or after `from`: memchr to its first byte, then a
    /// comparison of at most needle.count bytes, so O(n · needle) at worst.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress, !needle.isEmpty else { return nil }
        var i = from
        let last = bytes.count - needle.count
        while i <= last {
            guard let hit = memchr(base + i, Int32(needle[0]), last - i + 1) else { return nil }
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + i, needle, needle.count) == 0 { return i }
            i += 1
        }
        return nil
    }

    private static func parameter(_ name: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let kv = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == name {
                return kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
