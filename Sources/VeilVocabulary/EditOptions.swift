import VeilKit

/// The user's edits to the regions, as the CLI (`--add`, `--drop`, `--stroke`,
/// `--confirm`, each repeatable) and the service (`add=x,y,w,h;x,y,w,h`,
/// `drop=0,2`, `stroke=...`, `confirm=1`) spell them, in pixels of the upright
/// photo. Numbers are finite and bounded here, counts are capped, and the
/// editing state clips what remains to the photo (`EditingState.apply`).
extension RegionEdits {
    /// Coordinates further than this from the photo are a mistake, not an edit.
    public static let coordinateRange: ClosedRange<Double> = -1e7...1e7

    public init(_ source: some OptionSource) throws {
        self = try EditOptions(source).edits(spelling: source.spelling)
    }

    /// `"x1,y1 x2,y2 ...@width"` in pixels.
    static func stroke(_ text: String, option: String) throws -> Stroke {
        let parts = text.split(separator: "@")
        guard parts.count == 2 else { throw InputError("\(option) takes \"x1,y1 x2,y2 ...@width\" in pixels, not '\(text)'") }
        let width = try TextNumber.double(String(parts[1]), in: 0...1e7, option: "\(option) width")
        guard width > 0 else { throw InputError("\(option) width must be positive") }
        let pairs = parts[0].split(separator: " ")
        guard !pairs.isEmpty else { throw InputError("\(option) needs at least one point") }
        guard pairs.count <= EditingState.Limits.pointsPerStroke else {
            throw InputError("\(option) has \(pairs.count) points; at most \(EditingState.Limits.pointsPerStroke)")
        }
        let points = try pairs.map { pair -> ImageRect.Point in
            let xy = try TextNumber.list(pair, count: 2, in: coordinateRange, option: "\(option) point", what: "x,y")
            return ImageRect.Point(x: xy[0], y: xy[1])
        }
        return Stroke(points: points, width: width)
    }
}

/// A photo's edits as options, each one line (`--add`, `--drop`, `--undrop`,
/// `--reset`, `--stroke`, `--confirm`; over HTTP `add=x,y,w,h;x,y,w,h`,
/// `drop=0,t2`): what `RegionEdits` is made from, checked as a whole.
public struct EditOptions: ParsableOptions {
    /// A region by its number: a face `N`, a text region `tN`, a person `pN`.
    public enum Region: Sendable, Equatable { case face(Int), text(Int), person(Int) }

    public var add: [[ImageRect]] = [], drop: [[Region]] = [], undrop: [[Region]] = [], reset = false, strokes: [Stroke] = [], confirm = false

    public init() {}

    public static var options: [Option<Self>] {
        [
            .list("add", "x,y,w,h", \.add, .editing, "also cover this box (pixels); repeatable", sample: "10,10,40,40") { text, option in
                try text.split(separator: ";").map { box in
                    let n = try TextNumber.list(box, count: 4, in: RegionEdits.coordinateRange, option: option, what: "x,y,w,h in pixels")
                    guard n[2] > 0, n[3] > 0 else { throw InputError("\(option) needs a positive width and height, not '\(box)'") }
                    return ImageRect(x: n[0], y: n[1], width: n[2], height: n[3])
                }
            },
            .list("drop", "N|tN|pN", \.drop, .editing, "uncover detected face N, text region tN or person pN (the numbers of --preview); repeatable",
                  sample: "0", parse: regions),
            .list("undrop", "N|tN|pN", \.undrop, .editing, "cover dropped face N, text region tN or person pN again; repeatable", sample: "0",
                  parse: regions),
            .flag("reset", \.reset, .editing, "back to what the detector found: drawn boxes, drops and pen strokes removed"),
            .list("stroke", "\"x1,y1 x2,y2 ...@width\"", \.strokes, .editing, "paint with the pen (pixels); repeatable", sample: "10,10 30,30@5",
                  parse: RegionEdits.stroke),
            .flag("confirm", \.confirm, .editing, "freeze the detected list as it is"),
        ]
    }

    /// `0,t2,p1`: regions by their numbers.
    static func regions(_ text: String, option: String) throws -> [Region] {
        let limit = 0...EditingState.Limits.regions
        return try text.split(separator: ",").map { index in
            switch index.first {
            case "t": .text(try TextNumber.int(String(index.dropFirst()), in: limit, option: option))
            case "p": .person(try TextNumber.int(String(index.dropFirst()), in: limit, option: option))
            default: .face(try TextNumber.int(String(index), in: limit, option: option))
            }
        }
    }

    /// The edits, checked as a whole: counts capped, nothing both dropped and
    /// undropped (said with the options as the source spells them, `spelling`).
    public func edits(spelling: (String) -> String) throws -> RegionEdits {
        var edits = RegionEdits(confirm: confirm, reset: reset)
        edits.add = add.flatMap { $0 }
        edits.strokes = strokes
        for region in undrop.flatMap({ $0 }) {
            switch region {
            case let .face(i): edits.undrop.append(i)
            case let .text(i): edits.undropText.append(i)
            case let .person(i): edits.undropPeople.append(i)
            }
        }
        for region in drop.flatMap({ $0 }) {
            switch region {
            case let .face(i): edits.drop.append(i)
            case let .text(i): edits.dropText.append(i)
            case let .person(i): edits.dropPeople.append(i)
            }
        }
        let limits = EditingState.Limits.self
        guard edits.add.count <= limits.regions, edits.drop.count + edits.dropText.count + edits.dropPeople.count <= limits.regions,
              edits.undrop.count + edits.undropText.count + edits.undropPeople.count <= limits.regions else {
            throw InputError("at most \(limits.regions) regions can be added or dropped at once")
        }
        guard edits.strokes.count <= limits.strokes else { throw InputError("at most \(limits.strokes) pen strokes at once") }
        // A region both dropped and undropped: which the user meant cannot be told.
        for (dropped, undropped, prefix) in [(edits.drop, edits.undrop, ""), (edits.dropText, edits.undropText, "t"),
                                             (edits.dropPeople, edits.undropPeople, "p")] {
            if let both = Set(dropped).intersection(undropped).min() {
                throw InputError("\(spelling("drop")) \(prefix)\(both) and \(spelling("undrop")) \(prefix)\(both) contradict each other: give one")
            }
        }
        return edits
    }
}
