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
        self.init(confirm: source.flag("confirm"), reset: source.flag("reset"))
        let limits = EditingState.Limits.self
        // A face by its number, a text region as tN, a person as pN.
        func indices(_ name: String, faces: inout [Int], texts: inout [Int], people: inout [Int]) throws {
            for text in source.values(name) {
                for index in text.split(separator: ",") {
                    if index.first == "t" {
                        texts.append(try TextNumber.int(String(index.dropFirst()), in: 0...limits.regions, option: source.spelling(name)))
                    } else if index.first == "p" {
                        people.append(try TextNumber.int(String(index.dropFirst()), in: 0...limits.regions, option: source.spelling(name)))
                    } else {
                        faces.append(try TextNumber.int(String(index), in: 0...limits.regions, option: source.spelling(name)))
                    }
                }
            }
        }
        try indices("undrop", faces: &undrop, texts: &undropText, people: &undropPeople)
        try indices("drop", faces: &drop, texts: &dropText, people: &dropPeople)
        for text in source.values("add") {
            for box in text.split(separator: ";") {
                let n = try TextNumber.list(box, count: 4, in: Self.coordinateRange, option: source.spelling("add"), what: "x,y,w,h in pixels")
                guard n[2] > 0, n[3] > 0 else { throw InputError("\(source.spelling("add")) needs a positive width and height, not '\(box)'") }
                add.append(ImageRect(x: n[0], y: n[1], width: n[2], height: n[3]))
            }
        }
        for text in source.values("stroke") {
            strokes.append(try Self.stroke(text, option: source.spelling("stroke")))
        }
        guard add.count <= limits.regions, drop.count + dropText.count + dropPeople.count <= limits.regions,
              undrop.count + undropText.count + undropPeople.count <= limits.regions else {
            throw InputError("at most \(limits.regions) regions can be added or dropped at once")
        }
        guard strokes.count <= limits.strokes else { throw InputError("at most \(limits.strokes) pen strokes at once") }
        // A region both dropped and undropped: which the user meant cannot be told.
        for (dropped, undropped, prefix) in [(drop, undrop, ""), (dropText, undropText, "t"), (dropPeople, undropPeople, "p")] {
            if let both = Set(dropped).intersection(undropped).min() {
                throw InputError("\(source.spelling("drop")) \(prefix)\(both) and \(source.spelling("undrop")) \(prefix)\(both) contradict each other: give one")
            }
        }
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
