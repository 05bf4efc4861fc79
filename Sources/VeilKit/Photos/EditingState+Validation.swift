import Foundation

/// An editing state comes from outside — a sidecar on disk, a web editor, an
/// HTTP header — so every number in it is checked before anything is drawn:
/// finite, within the image (normalized coordinates may reach a little past
/// it), and in counts that bound the work by the image rather than by what
/// the state claims. Files it names must lie in the sidecar's own folder.
extension EditingState {
    public enum Limits {
        /// Regions (detected faces or drawn boxes) in one photo.
        public static let regions = 10_000
        public static let strokes = 1_000
        public static let pointsPerStroke = 10_000
        public static let points = 100_000
        /// Normalized coordinates: the image is 0...1; a box or stroke may start off it.
        static let coordinate: ClosedRange<Double> = -1...2
        /// The largest side a state may describe (ImageDecoder refuses larger images anyway).
        static let side = 1...1_000_000
    }

    /// Refuses a state that is not one Veil wrote (format, version) or whose
    /// numbers could not describe a photo. `folder`: the sidecar's folder,
    /// which the files it names must be in (nil: a state from the network,
    /// which may name no file at all).
    public func validate(folder: URL?, allowingImageStyle: Bool = false) throws {
        func fail(_ what: String) -> VeilError { .invalidInput(.invalidState("editing state: \(what)")) }
        guard format == EditingState.formatName else { throw fail("not a Veil editing state") }
        guard version == 1 else { throw fail("version \(version) is not supported (this Veil reads version 1)") }
        guard Limits.side.contains(source.width), Limits.side.contains(source.height) else {
            throw fail("source size \(source.width)x\(source.height) is out of range")
        }
        guard maskScale.isFinite, (0.1...10).contains(maskScale) else { throw fail("maskScale must be from 0.1 to 10") }
        func check(_ box: Box) throws {
            let values = [box.x, box.y, box.width, box.height]
            guard values.allSatisfy({ $0.isFinite && Limits.coordinate.contains($0) }), box.width > 0, box.height > 0 else {
                throw fail("a box is outside the image or not a box: \(values)")
            }
        }
        var detected = 0
        if case let .recognized(threshold, faces) = faces {
            guard threshold.isFinite, (0...1).contains(threshold) else { throw fail("threshold must be from 0 to 1") }
            guard faces.count <= Limits.regions else { throw fail("\(faces.count) faces; at most \(Limits.regions)") }
            for face in faces { try check(face.box) }
            detected = faces.count
        }
        if case let .confirmed(list) = regions {
            guard list.count <= Limits.regions else { throw fail("\(list.count) regions; at most \(Limits.regions)") }
            for region in list {
                try check(region.box)
                if let face = region.face, !(0..<detected).contains(face) { throw fail("region names face \(face) of \(detected)") }
            }
        }
        if let texts {
            guard texts.items.count <= Limits.regions else { throw fail("\(texts.items.count) text regions; at most \(Limits.regions)") }
            guard (texts.match?.count ?? 0) <= 1_000 else { throw fail("a text match of more than 1000 characters") }
            for item in texts.items {
                guard item.corners.count == 4, item.corners.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isFinite && Limits.coordinate.contains($0) } }) else {
                    throw fail("a text region needs 4 corners within the image")
                }
                guard item.confidence.isFinite, (0...1).contains(item.confidence) else { throw fail("a text confidence must be from 0 to 1") }
                guard (item.text?.count ?? 0) <= 10_000 else { throw fail("a text reading of more than 10000 characters") }
            }
        }
        if let people { try Self.validate(people: people, fail: fail) }
        try Self.validate(strokes: strokes, fail: fail)
        if case let .image(path) = style, !allowingImageStyle {
            guard let folder else { throw fail("image styles name a file; not accepted here") }
            try EditingState.requireInside(folder, path, what: "its image style")
        }
    }

    /// A file a sidecar names must be in the sidecar's own folder, so a crafted
    /// sidecar cannot make Veil read (and write out) any file on the machine.
    public static func requireInside(_ folder: URL, _ path: String, what: String) throws {
        let file = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL.resolvingSymlinksInPath()
        let dir = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard file.deletingLastPathComponent().path == dir.path else {
            throw VeilError.invalidArgument("editing state: \(what) \(path) is not in the sidecar's folder \(dir.path)")
        }
    }

    /// Decodes and validates a state; one-line errors.
    public static func decode(_ data: Data, folder: URL? = nil) throws -> EditingState {
        try StateFile.decode(EditingState.self, data, what: "editing state") { try $0.validate(folder: folder) }
    }

    /// Reads and validates a sidecar; errors name the file.
    public static func load(from url: URL) throws -> EditingState {
        try StateFile.load(from: url, what: "editing state") { try decode($0, folder: url.deletingLastPathComponent()) }
    }
}

/// Reading a sidecar, photo or video: JSON decoded and validated, every
/// failure one line that names the file.
enum StateFile {
    static func decode<State: Decodable>(_ type: State.Type, _ data: Data, what: String, validate: (State) throws -> Void) throws -> State {
        let state: State
        do { state = try JSONDecoder().decode(State.self, from: data) } catch let error as VeilError {
            throw error
        } catch {
            throw VeilError.invalidArgument("damaged \(what) (\(error.localizedDescription))")
        }
        try validate(state)
        return state
    }

    /// `read` gets the file's bytes once its size is within `maxBytes`.
    static func load<State>(from url: URL, what: String, maxBytes: Int = .max, read: (Data) throws -> State) throws -> State {
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else { throw VeilError.invalidArgument("\(what): \(size) bytes; at most \(maxBytes)") }
            return try read(Data(contentsOf: url))
        } catch let VeilError.invalidInput(error) {
            // A state that reads but is refused (damaged, hostile, of another version): the caller's mistake to mend.
            throw VeilError.invalidInput(InputError(error.code, "cannot read \(url.path): \(error.description)"))
        } catch let error as VeilError {
            throw VeilError.unreadable(path: url.path, reason: error.description)
        } catch {
            // Foundation's own words ("The operation could not be completed...") say less than errno's.
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { $0 as? NSError }.map { String(cString: strerror(Int32($0.code))) }
            var folder: ObjCBool = false
            let reason = !FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) ? "no such file"
                : folder.boolValue ? "a folder, not a file" : posix ?? error.localizedDescription
            throw VeilError.unreadable(path: url.path, reason: "the \(what): \(reason)")
        }
    }
}

extension EditingState {
    /// Pen strokes, a photo's or a video's (normalized): widths above 0 and
    /// at most 2, finite points near the picture, counts bounded.
    static func validate(strokes: [Stroke], fail: (String) -> VeilError) throws {
        guard strokes.count <= Limits.strokes else { throw fail("\(strokes.count) pen strokes; at most \(Limits.strokes)") }
        var points = 0
        for stroke in strokes {
            guard stroke.width.isFinite, stroke.width > 0, stroke.width <= 2 else { throw fail("a pen width must be above 0 and at most 2") }
            guard !stroke.points.isEmpty, stroke.points.count <= Limits.pointsPerStroke else {
                throw fail("a pen stroke has \(stroke.points.count) points; 1 to \(Limits.pointsPerStroke)")
            }
            for p in stroke.points where ![p.x, p.y].allSatisfy({ $0.isFinite && Limits.coordinate.contains($0) }) {
                throw fail("a pen point is outside the image: [\(p.x), \(p.y)]")
            }
            points += stroke.points.count
        }
        guard points <= Limits.points else { throw fail("\(points) pen points; at most \(Limits.points)") }
    }
}
