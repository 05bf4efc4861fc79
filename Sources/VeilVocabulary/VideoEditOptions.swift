import VeilKit

/// A video's edits as the CLI spells them (each repeatable): `--drop-track
/// 3,7`, `--keep-track 3`, `--merge-tracks 4,9` (one person's tracks, joined into the first), `--uncover-person 2`
/// (every track of person 2 uncovered), `--cover-person 2` (covered again), `--person-of 7=3` (track 7 is
/// person 3), `--merge-people 1,4` (people joined into the first), `--add "F:x,y,w,h"` (one box at frame F, followed
/// before and after it) or `--add "F1:x,y,w,h F2:x,y,w,h ..."` (key frames,
/// interpolated between), `--stroke "F1-F2:x1,y1 x2,y2 ...@width"` (the
/// photo pen's stroke, painted on frames F1...F2; "F:" for one frame),
/// `--confirm`; boxes and strokes in pixels of the frame.
extension VideoEdits {
    public init(_ source: some OptionSource) throws {
        self = try VideoEditOptions(source).edits(spelling: source.spelling)
    }
}

/// A video's edits as options, each one line: what `VideoEdits` is made
/// from (by `veil video` and the Video tab's route alike), checked as a whole.
public struct VideoEditOptions: ParsableOptions {
    /// `--person-of 7=3`: track 7 is person 3.
    public struct Move: Sendable, Equatable { public var track: Int, person: Int }

    public var drop: [[Int]] = [], keep: [[Int]] = [], merge: [[Int]] = [], uncoverPeople: [[Int]] = [], coverPeople: [[Int]] = []
    public var personOf: [[Move]] = [], mergePeople: [[Int]] = [], add: [VideoEdits.Added] = []
    public var strokes: [VideoEditingState.PenStroke] = [], confirm = false

    public init() {}

    static let ids = 0...VideoEditingState.Limits.tracks * 10
    static let people = 1...VideoEditingState.Limits.tracks

    public static var options: [Option<Self>] {
        [
            .list("drop-track", "ID[,ID...]", \.drop, .editing, "uncover a track for its whole life (re-renders from OUTPUT.veil.json; see `veil video tracks`)",
                  sample: "1") { try numbers($0, in: ids, option: $1) },
            .list("keep-track", "ID[,ID...]", \.keep, .editing, "cover a dropped track again", sample: "1") { try numbers($0, in: ids, option: $1) },
            .list("merge-tracks", "A,B[,...]", \.merge, .editing, "join tracks that follow one person into the first (then one id drops or keeps them); repeatable",
                  sample: "1,2") { try group($0, of: "track ids", in: ids, option: $1) },
            .list("uncover-person", "P[,P...]", \.uncoverPeople, .editing, "show person P: uncover every track of P, in every shot (the people: `veil video tracks --people`)",
                  sample: "1") { try numbers($0, in: people, option: $1) }
                .retiring("keep-person"),  // read as its opposite beside --keep-track, which keeps a track's cover
            .list("cover-person", "P[,P...]", \.coverPeople, .editing, "cover every track of person P again", sample: "1") { try numbers($0, in: people, option: $1) }
                .retiring("drop-person"),
            .list("person-of", "TRACK=P[,...]", \.personOf, .editing, "put a track in person P (a number no track has: a person of its own, split from the rest)",
                  sample: "1=2", parse: moves),
            .list("merge-people", "A,B[,...]", \.mergePeople, .editing, "join people proposed as several into the first; repeatable",
                  sample: "1,2") { try group($0, of: "people", in: people, option: $1) },
            .list("add", "\"F:x,y,w,h ...\"", \.add, .editing, "cover a box the detector missed: one key frame, followed before and after it; or several, interpolated between",
                  sample: "0:10,10,40,40", parse: added),
            .list("stroke", "\"F1-F2:x1,y1 x2,y2 ...@width\"", \.strokes, .editing, "paint with the pen on frames F1...F2 (pixels); repeatable",
                  sample: "0-10:10,10 30,30@5", parse: penStroke),
            .flag("confirm", \.confirm, .editing, "mark the tracks reviewed"),
        ]
    }

    /// `3,7`: numbers in `range`.
    static func numbers(_ text: String, in range: ClosedRange<Int>, option: String) throws -> [Int] {
        try text.split(separator: ",").map { try TextNumber.int(String($0), in: range, option: option) }
    }

    /// `--merge-people`, `--merge-tracks`: a group of two or more numbers in `range`.
    static func group(_ text: String, of what: String, in range: ClosedRange<Int>, option: String) throws -> [Int] {
        let group = try numbers(text, in: range, option: option)
        guard group.count >= 2 else { throw InputError("\(option) takes two or more \(what), A,B[,...], not '\(text)'") }
        return group
    }

    /// `7=3,8=3`: tracks put in people.
    static func moves(_ text: String, option move: String) throws -> [Move] {
        try text.split(separator: ",").map { pair in
            let sides = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard sides.count == 2 else { throw InputError("\(move) takes TRACK=PERSON[,TRACK=PERSON...], not '\(text)'") }
            return Move(track: try TextNumber.int(String(sides[0]), in: ids, option: "\(move) track"),
                        person: try TextNumber.int(String(sides[1]), in: people, option: "\(move) person"))
        }
    }

    /// `"F:x,y,w,h"` or `"F1:x,y,w,h F2:x,y,w,h ..."`: a box at key frames.
    static func added(_ text: String, option: String) throws -> VideoEdits.Added {
        var keys: [(frame: Int, box: ImageRect)] = []
        for key in text.split(separator: " ") {
            let parts = key.split(separator: ":")
            guard parts.count == 2 else { throw InputError("\(option) takes \"F:x,y,w,h\" or \"F1:x,y,w,h F2:x,y,w,h ...\" (frame: box in pixels), not '\(text)'") }
            let frame = try TextNumber.int(String(parts[0]), in: 0...VideoEditingState.Limits.frames, option: "\(option) frame")
            let n = try TextNumber.list(parts[1], count: 4, in: RegionEdits.coordinateRange, option: option, what: "x,y,w,h in pixels")
            guard n[2] > 0, n[3] > 0 else { throw InputError("\(option) needs a positive width and height, not '\(key)'") }
            keys.append((frame, ImageRect(x: n[0], y: n[1], width: n[2], height: n[3])))
            guard keys.count <= VideoEditingState.Limits.keysPerRegion else {
                throw InputError("\(option) takes at most \(VideoEditingState.Limits.keysPerRegion) key frames a box")
            }
        }
        guard !keys.isEmpty else { throw InputError("\(option) needs a box") }
        guard Set(keys.map(\.frame)).count == keys.count else { throw InputError("\(option) names a frame twice in '\(text)'") }
        return VideoEdits.Added(keys: keys)
    }

    /// `"F1-F2:x1,y1 x2,y2 ...@width"`: the photo pen's stroke on frames F1...F2 ("F:" for one frame).
    static func penStroke(_ text: String, option pen: String) throws -> VideoEditingState.PenStroke {
        guard let colon = text.firstIndex(of: ":") else {
            throw InputError("\(pen) takes \"F1-F2:x1,y1 x2,y2 ...@width\" (frames, then the pen's points and width in pixels), not '\(text)'")
        }
        let range = text[..<colon].split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(range.count) else { throw InputError("\(pen) frames are F1-F2 or F, not '\(text[..<colon])'") }
        let frames = try range.map { try TextNumber.int(String($0), in: 0...VideoEditingState.Limits.frames, option: "\(pen) frame") }
        guard frames[0] <= frames[frames.count - 1] else { throw InputError("\(pen) frames F1-F2 need F1 <= F2, not '\(text[..<colon])'") }
        return VideoEditingState.PenStroke(first: frames[0], last: frames[frames.count - 1],
                                           stroke: try RegionEdits.stroke(String(text[text.index(after: colon)...]), option: pen))
    }

    /// The edits, checked as a whole (said with the options as the source spells them, `spelling`).
    public func edits(spelling: (String) -> String) throws -> VideoEdits {
        var edits = VideoEdits(confirm: confirm)
        (edits.drop, edits.keep, edits.uncoverPeople, edits.coverPeople) = (drop.flatMap { $0 }, keep.flatMap { $0 }, uncoverPeople.flatMap { $0 }, coverPeople.flatMap { $0 })
        (edits.mergePeople, edits.merge, edits.add, edits.strokes) = (mergePeople, merge, add, strokes)
        for move in personOf.flatMap({ $0 }) {
            guard edits.personOf[move.track] == nil else { throw InputError("\(spelling("person-of")) gives track \(move.track) two people") }
            edits.personOf[move.track] = move.person
        }
        if let both = Set(edits.drop).intersection(edits.keep).min() {
            throw InputError("\(spelling("drop-track")) \(both) and \(spelling("keep-track")) \(both) contradict each other: give one")
        }
        if let both = Set(edits.uncoverPeople).intersection(edits.coverPeople).min() {
            throw InputError("\(spelling("uncover-person")) \(both) and \(spelling("cover-person")) \(both) contradict each other: give one")
        }
        guard edits.strokes.count <= EditingState.Limits.strokes else { throw InputError("at most \(EditingState.Limits.strokes) pen strokes at once") }
        guard edits.add.count <= VideoEditingState.Limits.manual else { throw InputError("at most \(VideoEditingState.Limits.manual) boxes can be added at once") }
        return edits
    }
}
