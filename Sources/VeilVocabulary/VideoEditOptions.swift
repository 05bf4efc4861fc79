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
    /// Names of people's edits that read as their opposite beside `--keep-track`
    /// (which keeps a track's cover): `--keep-person` left a person uncovered.
    /// Refused with the name that says what happens to the cover, not taken as aliases.
    public static let retiredNames = ["keep-person": "uncover-person", "drop-person": "cover-person"]

    /// The one line that refuses a retired name, or nil for any other (the CLI's
    /// unknown option, the video route's field, before they are taken as misspellings).
    public static func retired(_ name: String, spelling: (String) -> String) -> InputError? {
        let bare = name.hasPrefix("--") ? String(name.dropFirst(2)) : name
        guard let now = retiredNames[bare] else { return nil }
        let what = now == "uncover-person" ? "leaves every track of a person uncovered" : "covers every track of a person again"
        return InputError("\(spelling(bare)) is now \(spelling(now)) (it \(what); --keep-track and --drop-track keep and drop one track's cover)")
    }

    public init(_ source: some OptionSource) throws {
        self.init(confirm: source.flag("confirm"))
        let ids = 0...VideoEditingState.Limits.tracks * 10
        for (name, into) in [("drop-track", \VideoEdits.drop), ("keep-track", \VideoEdits.keep)] as [(String, WritableKeyPath<VideoEdits, [Int]>)] {
            for text in source.values(name) {
                for id in text.split(separator: ",") { self[keyPath: into].append(try TextNumber.int(String(id), in: ids, option: source.spelling(name))) }
            }
        }
        let people = 1...VideoEditingState.Limits.tracks
        for (name, into) in [("uncover-person", \VideoEdits.uncoverPeople), ("cover-person", \VideoEdits.coverPeople)] as [(String, WritableKeyPath<VideoEdits, [Int]>)] {
            for text in source.values(name) {
                for id in text.split(separator: ",") { self[keyPath: into].append(try TextNumber.int(String(id), in: people, option: source.spelling(name))) }
            }
        }
        /// Each `name` given, a group of two or more numbers in `range`: `--merge-people`, `--merge-tracks`.
        func groups(_ name: String, of what: String, in range: ClosedRange<Int>) throws -> [[Int]] {
            try source.values(name).map { text in
                let group = try text.split(separator: ",").map { try TextNumber.int(String($0), in: range, option: source.spelling(name)) }
                guard group.count >= 2 else { throw InputError("\(source.spelling(name)) takes two or more \(what), A,B[,...], not '\(text)'") }
                return group
            }
        }
        mergePeople += try groups("merge-people", of: "people", in: people)
        let move = source.spelling("person-of")
        for text in source.values("person-of") {
            for pair in text.split(separator: ",") {
                let sides = pair.split(separator: "=", omittingEmptySubsequences: false)
                guard sides.count == 2 else { throw InputError("\(move) takes TRACK=PERSON[,TRACK=PERSON...], not '\(text)'") }
                let track = try TextNumber.int(String(sides[0]), in: ids, option: "\(move) track")
                guard personOf[track] == nil else { throw InputError("\(move) gives track \(track) two people") }
                personOf[track] = try TextNumber.int(String(sides[1]), in: people, option: "\(move) person")
            }
        }
        merge += try groups("merge-tracks", of: "track ids", in: ids)
        let option = source.spelling("add")
        for text in source.values("add") {
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
            add.append(Added(keys: keys))
        }
        let pen = source.spelling("stroke")
        for text in source.values("stroke") {
            guard let colon = text.firstIndex(of: ":") else {
                throw InputError("\(pen) takes \"F1-F2:x1,y1 x2,y2 ...@width\" (frames, then the pen's points and width in pixels), not '\(text)'")
            }
            let range = text[..<colon].split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(range.count) else { throw InputError("\(pen) frames are F1-F2 or F, not '\(text[..<colon])'") }
            let frames = try range.map { try TextNumber.int(String($0), in: 0...VideoEditingState.Limits.frames, option: "\(pen) frame") }
            guard frames[0] <= frames[frames.count - 1] else { throw InputError("\(pen) frames F1-F2 need F1 <= F2, not '\(text[..<colon])'") }
            strokes.append(VideoEditingState.PenStroke(first: frames[0], last: frames[frames.count - 1],
                                   stroke: try RegionEdits.stroke(String(text[text.index(after: colon)...]), option: pen)))
        }
        if let both = Set(drop).intersection(keep).min() {
            throw InputError("\(source.spelling("drop-track")) \(both) and \(source.spelling("keep-track")) \(both) contradict each other: give one")
        }
        if let both = Set(uncoverPeople).intersection(coverPeople).min() {
            throw InputError("\(source.spelling("uncover-person")) \(both) and \(source.spelling("cover-person")) \(both) contradict each other: give one")
        }
        guard strokes.count <= EditingState.Limits.strokes else { throw InputError("at most \(EditingState.Limits.strokes) pen strokes at once") }
        guard add.count <= VideoEditingState.Limits.manual else { throw InputError("at most \(VideoEditingState.Limits.manual) boxes can be added at once") }
    }
}
