import Foundation
import VeilKit
import VeilVocabulary

/// The editor's Video tab over `--media DIR` (names only, never paths):
///
/// - `GET /v1/videos`: `{"videos":[{"name","size","state","edited"}]}`
/// - `GET /v1/videos/NAME/sheet`: the track sheet of its last render (a thumbnail a track, PNG)
/// - `GET /v1/videos/NAME`: the video itself (Range requests, for seeking)
/// - `POST /v1/videos/NAME/render`: starts a render (202); form fields or
///   query: the CLI's edits `drop-track=3,7`, `keep-track=3`, `merge-tracks=4,9;12,15`,
///   `uncover-person=2`, `cover-person=2`, `person-of=7=3`, `merge-people=1,4;2,6`,
///   `add=F:x,y,w,h` (boxes in pixels; several boxes separated by `;`, key
///   frames of one box by spaces), `confirm=1`, and `style`, `shape`,
///   `mask-scale`. The first render of a video detects; the next ones reuse
///   its tracks
/// - `GET /v1/videos/NAME/job`: the render's progress
///   (`{"status","frames","total","detector","error"}`)
/// - `GET /v1/videos/NAME/state`: its editing state (404 before the first render)
/// - `GET /v1/videos/NAME/result`: the covered video, as a download
///
/// Every answer is made on the daemon's thread (files are sent by
/// libmicrohttpd from their descriptor; renders run in the background).
enum VideoRoutes {
    static let prefix = "/v1/videos"

    static func answer(_ request: HTTPRequest, _ jobs: VideoJobs?) -> HTTPResponse {
        guard let jobs else { return .error(404, "no media folder: start veil serve with --media DIR to edit videos") }
        let media = jobs.media
        let rest = request.path.dropFirst(prefix.count)
        if rest.isEmpty || rest == "/" {
            guard request.method == "GET" else { return HTTPResponse.error(405, "\(prefix) takes GET").with(("Allow", "GET")) }
            let list: [JSONText] = media.names.map { name in
                let sidecar = PhotoBlurrer.sidecar(for: media.output(for: name))
                let kept = FileManager.default.fileExists(atPath: sidecar.path)
                // Edited: a person changed what the detector chose, not merely a state made by its first render.
                let edited = kept && ((try? VideoEditingState.load(from: sidecar))?.hasEdits ?? false)
                return .object([("name", .string(name)), ("size", .int(media.size(media.directory.appendingPathComponent(name).path))),
                                ("state", .bool(kept)), ("edited", .bool(edited))])
            }
            return .json(200, .object([("videos", .array(list))]))
        }
        let words = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard words.count <= 2, let path = media.path(words[0]) else {
            return .error(404, "no video named \(words.first.map { "'\($0)'" } ?? "") in the media folder")
        }
        let name = words[0], action = words.count == 2 ? words[1] : ""
        let method = action == "render" ? "POST" : "GET"
        guard request.method == method else { return HTTPResponse.error(405, "\(request.path) takes \(method)").with(("Allow", method)) }
        let output = media.output(for: name)
        switch action {
        case "": return file(path, type: mime(name), range: request.header("range"))
        case "result":
            guard FileManager.default.fileExists(atPath: output.path) else { return .error(404, "\(name) has not been rendered yet") }
            return file(output.path, type: mime(output.lastPathComponent), range: request.header("range"))
                .with(("Content-Disposition", "attachment; filename=\"\(output.lastPathComponent)\""))
        case "state":
            let state = PhotoBlurrer.sidecar(for: output)
            guard FileManager.default.fileExists(atPath: state.path) else { return .error(404, "\(name) has no editing state yet") }
            return file(state.path, type: "application/json", range: nil)
                .with(("Content-Disposition", "attachment; filename=\"\(state.lastPathComponent)\""))
        case "sheet":
            let sheet = VideoJobs.sheet(for: output)
            guard FileManager.default.fileExists(atPath: sheet.path) else { return .error(404, "\(name) has no track sheet yet: render it first") }
            return file(sheet.path, type: "image/png", range: nil)
        case "job":
            let job = jobs.job(name)
            var fields: [(String, JSONText)] = [("status", .string(job.status)), ("frames", .int(job.frames)), ("total", .int(job.total)),
                                                ("detector", .string(job.detector)), ("seconds", .number(job.seconds))]
            if let error = job.error { fields.append(("error", .string(error))) }
            return .json(200, .object(fields))
        case "render":
            do {
                let fields = try FormFields(request)
                let edits = try VideoEdits(fields)
                let cover = try CoverOptions(fields, allowingFiles: false)
                try cover.requireVideo()
                try fields.refuseUnknown()
                // Edits the state cannot take are refused now, not by a job failing after the 202.
                do {
                    try VideoReview.check(edits, statePath: PhotoBlurrer.sidecar(for: output))
                } catch let VeilError.invalidInput(e) where e.code == .stateMissing {
                    return .error(400, VideoJobs.noTracks(name))
                } catch let e as VeilError {
                    // A state that cannot be read names its file: the client is told its name only.
                    return .error(400, VideoJobs.withoutPaths(e.description))
                }
                guard jobs.start(name, path: path, edits: edits, cover: cover) else { return .error(409, "\(name) is being rendered already") }
                return .json(202, .object([("status", .string("queued")), ("job", .string("\(prefix)/\(name)/job"))]))
            } catch {
                return Service.answer(error)
            }
        default:
            return .error(404, "no such route: \(request.path)")
        }
    }

    static func mime(_ name: String) -> String {
        VideoFormats.container(forExtension: (name as NSString).pathExtension)?.mimeType ?? "application/octet-stream"
    }

    /// A whole file (200) or the one range asked for (206); a range past the
    /// end is a 416.
    static func file(_ path: String, type: String, range: String?) -> HTTPResponse {
        var info = stat()
        guard stat(path, &info) == 0 else { return .error(404, "the file is gone") }
        let size = Int(info.st_size)
        var answer = HTTPResponse(status: 200, contentType: type, body: Data(), headers: [("Accept-Ranges", "bytes"), ("Cache-Control", "no-store")])
        guard let range, let (from, to) = byteRange(range, size: size) else {
            answer.source = .file(path: path, offset: 0, length: size)
            return answer
        }
        guard from <= to else { return HTTPResponse.error(416, "the range is outside the file").with(("Content-Range", "bytes */\(size)")) }
        answer.status = 206
        answer.headers.append(("Content-Range", "bytes \(from)-\(to)/\(size)"))
        answer.source = .file(path: path, offset: from, length: to - from + 1)
        return answer
    }

    /// `bytes=A-B`, `bytes=A-`, `bytes=-N` as (first, last) byte; nil for
    /// anything else (then the whole file is sent, as RFC 9110 allows).
    static func byteRange(_ header: String, size: Int) -> (Int, Int)? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let n = Int(parts[1]), n > 0 else { return nil }
            return (max(0, size - n), size - 1)
        }
        guard let a = Int(parts[0]), a >= 0 else { return nil }
        if a >= size { return (1, 0) }
        let b = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? -1, size - 1)
        return b < a ? nil : (a, b)
    }
}

/// The options of a request without an image: query parameters, then the
/// text fields of a multipart form. `add`, `stroke`, `merge-tracks` and `merge-people` may
/// carry several separated by `;` (a form field is given once).
struct FormFields: OptionSource {
    var options: [String: String]
    /// The file parts, by name.
    var parts: [String: FormPart] = [:]

    init(_ request: HTTPRequest) throws {
        options = request.query
        if let boundary = request.header("content-type").flatMap(Multipart.boundary(of:)) {
            for part in try Multipart.parse(request.body, boundary: boundary) {
                if part.filename == nil { options[part.name] = part.text } else if parts[part.name] == nil { parts[part.name] = part }
            }
        }
    }

    /// The names the route asked for (`refuseUnknown`).
    let asked = AskedNames()

    /// Refuses a field the route never asked for (a misspelling), as `Upload` does.
    func refuseUnknown() throws { try asked.refuse(Array(options.keys), known: ["picture", "token"]) }

    /// Given at all, not asked for: a retired name is refused, never offered (`OptionSource.gives`).
    func gives(_ name: String) -> Bool { options[name] != nil }

    func values(_ name: String) -> [String] {
        asked.add(name)
        guard let v = options[name] else { return [] }
        return ["add", "stroke", "merge-tracks", "merge-people"].contains(name) ? v.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : [v]
    }

    func flag(_ name: String) -> Bool { asked.add(name); return Upload.isOn(options[name]) }

    func spelling(_ name: String) -> String { name }
}
