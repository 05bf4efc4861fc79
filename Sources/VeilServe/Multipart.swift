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

/// Splits a multipart/form-data body (RFC 7578) into its parts. The body is
/// already in memory and bounded by --max-body; parts are slices copied once.
enum Multipart {
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
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8), blank = Data("\r\n\r\n".utf8)
        var parts: [FormPart] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { throw InputError("multipart body without its boundary") }
        while true {
            // After a delimiter: "--" ends the body, else CRLF and a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: crlf) else { throw InputError("malformed multipart body") }
            let headerStart = cursor + 2
            guard let headerEnd = body.range(of: blank, in: headerStart..<body.endIndex) else { throw InputError("malformed multipart part headers") }
            let dataStart = headerEnd.upperBound
            guard let next = body.range(of: crlf + delimiter, in: dataStart..<body.endIndex) else { throw InputError("multipart body ends inside a part") }
            let headers = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self)
            var part = FormPart(name: "", filename: nil, contentType: nil, data: Data(body[dataStart..<next.lowerBound]))
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
            cursor = next.upperBound
        }
        return parts
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
