import Foundation
import VeilKit
import VeilVocabulary

/// `veil video tracks STATE [--json]`: the tracks and added regions of a
/// video editing state, one a line, for review before `--drop-track`.
enum VideoTracksCommand {
    static let definition = CommandSpec(
        path: ["video", "tracks"], arguments: "OUTPUT.veil.json",
        summary: "list the tracks of a covered video's editing state (id, frames, times, size, status)",
        details: ["Each track: its id, first and last frame (and time), frames where the detector saw it, its mean size and where it was first seen; "
                  + "added regions follow, then the unsure sightings (covered where they were seen, never confirmed as faces: a hand, a logo, a face seen once weakly). "
                  + "Drop one with `veil video INPUT -o OUTPUT --drop-track ID`."],
        options: Options.specs)
        .runs { try run($0) }
        .examples(.init("veil video tracks out.mp4.veil.json", "id, frames, times, size and status of each track"),
                  .init("veil video tracks out.mp4.veil.json --people", "each person with its tracks, to choose --uncover-person"),
                  .init("veil video tracks out.mp4.veil.json --sheet sheet.png", "one thumbnail a track, to choose --drop-track by face"))

    struct Row: Encodable {
        var id: Int, status: String, added: Bool
        var person: Int?
        var first: Int, last: Int, firstTime: Double, lastTime: Double
        var frames: Int, detected: Int
        var meanWidth: Double, meanHeight: Double
        var firstSeen: [Double]
    }

    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        guard args.positionals.count == 1 else { throw InputError("veil video tracks takes one OUTPUT.veil.json") }
        let state: VideoEditingState
        do { state = try VideoEditingState.load(from: URL(fileURLWithPath: args.positionals[0])) } catch let VeilError.invalidInput(error) {
            throw error
        }
        let rows = rows(state), unsure = unsureRows(state)
        let given = try Options(args)
        if let sheet = given.sheet {
            let stateURL = URL(fileURLWithPath: args.positionals[0])
            if state.segment != nil { throw InputError("\(stateURL.path) is the state of a part: join the parts (veil video join), then make the sheet of the joined state") }
            let input = try findInput(state, stateURL: stateURL, given: given.input)
            try ImageEncoder(format: .png).write(try TrackSheet.render(state, video: input), to: URL(fileURLWithPath: sheet), ownerOnly: true)
            printError("veil video tracks: \(rows.count) tracks on \(sheet): the faces are NOT covered in it (mode 0600); do not publish it")
        }
        let people = given.people ? try peopleRows(state, rows) : nil
        if given.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            struct Listing: Encodable { var source: VideoEditingState.Source; var tracks: [Row]; var unsure: [Row]; var people: [Person]? }
            print(String(decoding: try encoder.encode(Listing(source: state.source, tracks: rows, unsure: unsure, people: people)), as: UTF8.self))
            return 0
        }
        if let people {
            print("\(state.source.file): \(state.tracks.count) tracks in \(people.count) people, "
                  + (state.confirmed ? "reviewed (--confirm)" : "as proposed from the faces (change with --person-of, --merge-people; --confirm when right)"))
            print("    id  status    frames         seconds          detected  mean size    first seen (x, y)")
            for p in people {
                let spans = p.spans.map { String(format: "%.2f-%.2f", $0.firstTime, $0.lastTime) }.joined(separator: ", ")
                print("person \(p.person): \(p.tracks.count) track\(p.tracks.count == 1 ? "" : "s"), \(p.frames) frames, \(p.status) (seconds \(spans))")
                for r in rows where r.person == p.person { line(r) }
            }
            return 0
        }
        print("\(state.source.file): \(state.source.width)x\(state.source.height), \(state.source.frames) frames at "
              + String(format: "%.3g", state.source.framesPerSecond) + " fps; \(state.tracks.count) tracks, \(state.manual.count) added, \(unsure.count) unsure")
        print("    id  status    frames         seconds          detected  mean size    first seen (x, y)")
        for r in rows { line(r) }
        if !unsure.isEmpty {
            print("unsure (covered where seen, never confirmed as a face):")
            for r in unsure { line(r) }
        }
        return 0
    }

    static func line(_ r: Row) {
        let status = r.status.padding(toLength: 8, withPad: " ", startingAt: 0)
        print(String(format: "%6d  ", r.id) + status + String(format: "  %6d-%-6d  %7.2f-%-7.2f  %8d  %5.0fx%-5.0f  %.0f, %.0f", r.first, r.last, r.firstTime, r.lastTime,
                     r.detected, r.meanWidth, r.meanHeight, r.firstSeen[0], r.firstSeen[1]) + (r.added ? "  (added)" : ""))
    }

    /// The video a state was made from: `--input`, else where the state
    /// says (its path from the state's folder), else a file of that name
    /// beside the state; the first that is there with the state's size and
    /// sha256. The refusal says every place it looked.
    static func findInput(_ state: VideoEditingState, stateURL: URL, given: String?) throws -> URL {
        let folder = stateURL.deletingLastPathComponent()
        let candidates = given.map { [URL(fileURLWithPath: $0)] }
            ?? [RelativePath.resolve(state.source.file, from: folder), folder.appendingPathComponent(URL(fileURLWithPath: state.source.file).lastPathComponent)]
        var looked: [String] = []
        for url in candidates where !looked.contains(url.path) {
            looked.append(url.path)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
            guard let size else { continue }
            if size == state.source.size, try VideoEditingState.digest(ofFileAt: url) == state.source.sha256 { return url }
            if given != nil { throw InputError("\(url.path) is not the video this state was made from (its size or sha256 differs)") }
        }
        throw InputError("--sheet needs the video the state was made from (\(state.source.size) bytes, sha256 \(state.source.sha256.prefix(12))...): "
                         + "looked for \(looked.joined(separator: " and ")); give it with --input VIDEO")
    }

    /// One person of `--people`: its tracks, their frames, and the spans of time they cover.
    struct Person: Encodable {
        var person: Int
        var tracks: [Int]
        /// covered, dropped (every track uncovered), or mixed.
        var status: String
        var frames: Int
        var spans: [Span]
        struct Span: Encodable { var first: Int, last: Int, firstTime: Double, lastTime: Double }
    }

    static func peopleRows(_ state: VideoEditingState, _ rows: [Row]) throws -> [Person] {
        guard state.hasPeople else {
            throw InputError("\(state.source.file)'s state holds no people (made before Veil proposed them, or without the sface model: "
                             + "`veil models install`, then remove the state and run again)")
        }
        return state.people.map { person in
            let mine = rows.filter { $0.person == person.person && !$0.added }.sorted { $0.first < $1.first }
            let statuses = Set(person.tracks.map(\.status))
            return Person(person: person.person, tracks: person.tracks.map(\.id),
                          status: statuses.count > 1 ? "mixed" : statuses.first == .dropped ? "dropped" : "covered",
                          frames: Set(person.tracks.flatMap { $0.frames.map(\.frame) }).count,
                          spans: mine.map { Person.Span(first: $0.first, last: $0.last, firstTime: $0.firstTime, lastTime: $0.lastTime) })
        }
    }

    static func rows(_ state: VideoEditingState) -> [Row] {
        let tracks = state.tracks.compactMap { t in
            row(state, t.id, t.status, added: false, t.frames.map { ($0.frame, $0.box, $0.detected) }).map { var r = $0; r.person = t.person; return r }
        }
        let added = state.manual.compactMap { m in
            row(state, m.id, m.status, added: true, m.followed.map { $0.map { ($0.frame, $0.box, false) } } ?? m.keys.map { ($0.frame, $0.box, false) })
        }
        return tracks + added
    }

    static func unsureRows(_ state: VideoEditingState) -> [Row] {
        (state.unsure ?? []).compactMap { t in row(state, t.id, t.status, added: false, t.frames.map { ($0.frame, $0.box, $0.detected) }) }
    }

    static func row(_ state: VideoEditingState, _ id: Int, _ status: VideoEditingState.Status, added: Bool,
                    _ frames: [(frame: Int, box: EditingState.Box, detected: Bool)]) -> Row? {
        let (w, h) = (Double(state.source.width), Double(state.source.height))
        guard let first = frames.first, let last = frames.last else { return nil }
        let n = Double(frames.count)
        return Row(id: id, status: status.rawValue, added: added, person: nil, first: first.frame, last: last.frame,
                   firstTime: state.time(ofFrame: first.frame), lastTime: state.time(ofFrame: last.frame),
                   frames: frames.count, detected: frames.filter(\.detected).count,
                   meanWidth: frames.reduce(0) { $0 + $1.box.width * w } / n, meanHeight: frames.reduce(0) { $0 + $1.box.height * h } / n,
                   firstSeen: [first.box.x * w, first.box.y * h])
    }
}

extension VideoTracksCommand {
    /// What the listing shows and writes: each option one line.
    struct Options: ParsableOptions {
        var json = false, people = false, sheet: String?, input: String?

        static var options: [Option<Self>] {
            [
                .flag("json", \.json, .output, "an object whose `tracks` array holds one object a track, and `unsure` one an unsure sighting"),
                .flag("people", \.people, .output, "the people: which tracks are one person, as the first run proposed from the faces (computed on this machine; "
                      + "the state keeps the person's number, never the face's embedding) and as edited since; --json: a `people` array"),
                .text("sheet", "SHEET.png", \.sheet, .output, "a contact sheet: a thumbnail a track from its best sighting, with its id, frames and times (the faces uncovered: keep it as private as the input)",
                      kind: .file, sample: "tracks.png"),
                .text("input", "VIDEO", \.input, .output, "the video the state was made from (for --sheet)",
                      default: "the state's source file beside it", kind: .file, sample: "in.mp4"),
            ]
        }
    }
}
