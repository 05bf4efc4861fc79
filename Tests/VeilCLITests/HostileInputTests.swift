import Foundation
import VeilKit
import XCTest

/// Issue 12 as a hostile or careless user would try it, through the real
/// binary: a table of cases, each run in a fresh folder with a timeout. Every
/// case must end with the status it expects, one line on stderr, no stack
/// trace, no file left that it should not leave (partial or misnamed
/// outputs), and every file it found byte-identical unless it was asked to
/// write it. The test prints the counts: cases, crashes, hangs, partial
/// outputs, originals touched, wrong answers — all must be 0 but the first.
final class HostileInputTests: XCTestCase {
    /// What a case expects.
    enum Status { case ok, usage, failure }

    struct Case {
        var name: String
        /// Files to create in the case's folder before the run.
        var setup: (URL) throws -> Void = { _ in }
        /// The arguments, given the case's folder.
        var arguments: (URL) -> [String]
        var status: Status
        /// Files the run must create (names in the folder).
        var creates: Set<String> = []
        /// Other files it may create: names containing this.
        var createsNamesWith: String?
        /// Text stderr must contain (in any case).
        var says: String?
        /// A check of the folder after the run (bytes of the outputs, say).
        var check: (URL) throws -> String? = { _ in nil }
        var environment: [String: String] = [:]
    }

    struct Tally: CustomStringConvertible {
        var cases = 0, crashes = 0, hangs = 0, partialOutputs = 0, originalsTouched = 0, wrong = 0
        var description: String {
            "hostile inputs: \(cases) cases, \(crashes) crashes, \(hangs) hangs, \(partialOutputs) partial outputs, "
                + "\(originalsTouched) originals touched, \(wrong) wrong answers"
        }
    }

    func testHostileInputs() throws {
        try TestData.requireFaceModel()
        let photo = try Data(contentsOf: TestData.astronaut())
        let sidecar = try Self.realSidecar(photo: photo)
        let cases = Self.numberCases() + Self.stateCases(photo: photo, sidecar: sidecar) + Self.fileCases(photo: photo)
        var tally = Tally()
        for c in cases {
            let dir = try TestData.scratch(self)
            try photo.write(to: dir.appendingPathComponent("a.png"))
            try c.setup(dir)
            let before = try Self.snapshot(dir)
            let run = try Self.run(c.arguments(dir), environment: c.environment, timeout: 60)
            tally.cases += 1
            var problems: [String] = []
            if run.hung { tally.hangs += 1; problems.append("hung") }
            if run.crashed { tally.crashes += 1; problems.append("crashed") }
            let after = try Self.snapshot(dir)
            let extra = Set(after.keys).subtracting(before.keys).subtracting(c.creates)
                .filter { name in c.createsNamesWith.map { !name.contains($0) } ?? true }
            if !extra.isEmpty { tally.partialOutputs += 1; problems.append("left \(extra.sorted())") }
            let touched = before.filter { after[$0.key] != $0.value }.map(\.key)
            if !touched.isEmpty { tally.originalsTouched += 1; problems.append("touched \(touched.sorted())") }
            var wrong: [String] = []
            let expected: Bool
            switch c.status {
            case .ok: expected = run.status == 0
            case .usage: expected = run.status == 2
            case .failure: expected = run.status == 1
            }
            if !expected { wrong.append("exit \(run.status), expected \(c.status)") }
            let lines = run.stderr.split(separator: "\n")
            if c.status != .ok && lines.count != 1 { wrong.append("\(lines.count) lines on stderr") }
            if let says = c.says, !run.stderr.lowercased().contains(says.lowercased()) { wrong.append("does not say '\(says)'") }
            if c.status == .ok {
                for name in c.creates where after[name] == nil { wrong.append("no \(name)") }
            }
            if let problem = try c.check(dir) { wrong.append(problem) }
            if !wrong.isEmpty { tally.wrong += 1; problems += wrong }
            if !problems.isEmpty {
                XCTFail("\(c.name): \(problems.joined(separator: "; ")); stderr: \(run.stderr.prefix(400))")
            }
        }
        print(tally)
        XCTAssertGreaterThanOrEqual(tally.cases, 50)
    }

    // MARK: - Item 1: numbers from the command line

    static func numberCases() -> [Case] {
        func blur(_ name: String, _ extra: [String], says: String? = nil) -> Case {
            Case(name: name, arguments: { ["blur", $0.appendingPathComponent("a.png").path] + extra }, status: .usage, says: says)
        }
        func lift(_ name: String, _ extra: [String]) -> Case {
            Case(name: name, arguments: { ["lift", $0.appendingPathComponent("a.png").path] + extra }, status: .usage)
        }
        return [
            blur("add 1e300", ["--add", "1e300,0,10,10"], says: "--add"),
            blur("add nan", ["--add", "nan,0,10,10"], says: "--add"),
            blur("add inf", ["--add", "0,0,inf,inf"]),
            blur("add 1e15", ["--add", "1e15,1e15,10,10"]),
            blur("add zero width", ["--add", "10,10,0,10"]),
            blur("add three numbers", ["--add", "10,10,10"]),
            blur("stroke width 1e300", ["--stroke", "0,0@1e300"], says: "width"),
            blur("stroke point 5e9", ["--stroke", "5000000000,5000000000@4"]),
            blur("stroke point 5e8", ["--stroke", "0,0 500000000,375000000@1"]),
            blur("stroke nan width", ["--stroke", "0,0 10,10@nan"]),
            blur("drop Int.max", ["--drop", "9223372036854775807"]),
            blur("mask-scale nan", ["--mask-scale", "nan"]),
            blur("mask-scale 1e300", ["--mask-scale", "1e300"]),
            blur("quality 1e300", ["--quality", "1e300"]),
            blur("quality Int.max+1", ["--quality", "9223372036854775808"]),
            blur("jobs 0", ["--jobs", "0"]),
            Case(name: "add a box wholly outside the photo", arguments: { ["blur", $0.appendingPathComponent("a.png").path, "--add", "-100,-100,50,50"] },
                 status: .failure, says: "outside"),
            blur("threshold inf", ["--threshold", "inf"]),
            blur("max-pixels Int.max", ["--max-pixels", "9223372036854775807"]),
            blur("style pixelate=nan", ["--style", "pixelate=nan"]),
            blur("style blur=1e300", ["--style", "blur=1e300"]),
            blur("output format unknown", ["-o", "out.xyz"], says: "cannot write .xyz"),
            lift("instances Int.max", ["--instances", "9223372036854775807"]),
            lift("refine 1e308", ["--refine", "1e308,0.01"]),
            lift("refine inf", ["--refine", "inf,0.01"]),
            lift("refine colour nan", ["--refine", "colour:nan,0.01"]),
            lift("sides Int.max", ["--sides", "9223372036854775807"]),
            lift("tap nan", ["--tap", "nan,0.5"]),
            lift("threshold 1e300", ["--threshold", "1e300"]),
            lift("effect highlight=-inf", ["--effect", "highlight=-inf"]),
            lift("effect bokeh=nan", ["--effect", "bokeh=nan"]),
            Case(name: "faces threshold nan", arguments: { ["faces", $0.appendingPathComponent("a.png").path, "--threshold", "nan"] }, status: .usage),
            Case(name: "faces preview.xyz", arguments: { ["faces", $0.appendingPathComponent("a.png").path, "--preview", $0.appendingPathComponent("p.xyz").path] },
                 status: .usage),
        ]
    }

    // MARK: - Items 1, 4, 5, 7: editing states

    /// The sidecar veil writes for the sample photo, as a JSON object to craft from.
    static func realSidecar(photo: Data) throws -> [String: Any] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("veil-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try photo.write(to: dir.appendingPathComponent("a.png"))
        let run = try Self.run(["blur", dir.appendingPathComponent("a.png").path], environment: [:], timeout: 120)
        guard run.status == 0 else { throw XCTSkip("veil blur of the sample photo failed: \(run.stderr)") }
        let data = try Data(contentsOf: dir.appendingPathComponent("a-veil.png.veil.json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func stateCases(photo: Data, sidecar: [String: Any]) -> [Case] {
        let faceBox: [String: Any] = ["x": 0.3, "y": 0.1, "width": 0.2, "height": 0.2]
        /// A case that runs `veil blur a.png --state s.json` with the real sidecar changed by `change`.
        func state(_ name: String, says: String? = nil, _ change: @escaping (inout [String: Any], URL) -> Void) -> Case {
            Case(name: "state: " + name, setup: { dir in
                var json = sidecar
                json["original"] = dir.appendingPathComponent("a.png").path
                change(&json, dir)
                try JSONSerialization.data(withJSONObject: json).write(to: dir.appendingPathComponent("s.json"))
            }, arguments: { ["blur", $0.appendingPathComponent("a.png").path, "--state", $0.appendingPathComponent("s.json").path] },
            status: .failure, says: says)
        }
        func regions(_ boxes: [[String: Any]]) -> [String: Any] {
            ["status": "confirmed", "regions": boxes.map { ["box": $0] }]
        }
        return [
            state("version 999", says: "version 999") { j, _ in j["version"] = 999 },
            state("another format", says: "not a Veil editing state") { j, _ in j["format"] = "something-else" },
            state("box x 1e300") { j, _ in j["regions"] = regions([["x": 1e300, "y": 0, "width": 0.1, "height": 0.1]]) },
            state("box width 1e300") { j, _ in j["regions"] = regions([["x": 0, "y": 0, "width": 1e300, "height": 0.1]]) },
            state("box 5e9") { j, _ in j["regions"] = regions([["x": 5e9, "y": 5e9, "width": 4, "height": 4]]) },
            state("stroke width 1e300") { j, _ in j["strokes"] = [["points": [[0.5, 0.5]], "width": 1e300]] },
            state("stroke point 5e9") { j, _ in j["strokes"] = [["points": [[5e9, 5e9]], "width": 0.01]] },
            state("stroke point of three numbers") { j, _ in j["strokes"] = [["points": [[0.1, 0.1, 0.1]], "width": 0.01]] },
            state("maskScale 1e300", says: "maskScale") { j, _ in j["maskScale"] = 1e300 },
            state("maskScale Int.max") { j, _ in j["maskScale"] = 9_223_372_036_854_775_807 as Int },
            state("source width Int.max") { j, _ in
                var source = j["source"] as! [String: Any]; source["width"] = 9_223_372_036_854_775_807 as Int; j["source"] = source
            },
            state("threshold nan-like") { j, _ in
                var faces = j["faces"] as! [String: Any]; faces["threshold"] = 1e300; j["faces"] = faces
            },
            state("region names face 7") { j, _ in j["regions"] = ["status": "confirmed", "regions": [["box": faceBox, "face": 7]]] },
            state("10001 regions", says: "at most") { j, _ in j["regions"] = regions(Array(repeating: faceBox, count: 10_001)) },
            state("stroke of 10001 points", says: "points") { j, _ in
                j["strokes"] = [["points": Array(repeating: [0.5, 0.5], count: 10_001), "width": 0.01]]
            },
            state("style image outside its folder", says: "not in the sidecar's folder") { j, _ in j["style"] = "image=/etc/hostname" },
            state("style image via ..", says: "not in the sidecar's folder") { j, _ in j["style"] = "image=../a.png" },
            state("not JSON", says: "damaged editing state") { j, _ in j = ["format": ["nested": true]] },
            reEdit("original outside its folder", says: "not in the sidecar's folder") { j, dir in
                j["original"] = dir.appendingPathComponent("elsewhere/secret.png").path
            },
            reEdit("original in its folder, other bytes", says: "sha256") { j, dir in
                j["original"] = dir.appendingPathComponent("b.png").path
            },
            Case(name: "state: truncated file", setup: { dir in
                try Data(JSONSerialization.data(withJSONObject: sidecar).prefix(200)).write(to: dir.appendingPathComponent("s.json"))
            }, arguments: { ["blur", $0.appendingPathComponent("a.png").path, "--state", $0.appendingPathComponent("s.json").path] },
            status: .failure, says: "damaged editing state"),
        ]
    }

    /// Re-editing `out.png` in place (`veil blur out.png -o out.png`): its
    /// sidecar names the original, which must be in its folder and have the
    /// digest the sidecar recorded. `secret.png` (another photo, elsewhere)
    /// and `b.png` (in the folder, other bytes) stand for what an attacker names.
    static func reEdit(_ name: String, says: String, _ change: @escaping (inout [String: Any], URL) -> Void) -> Case {
        Case(name: "sidecar: " + name, setup: { dir in
            let photo = try Data(contentsOf: dir.appendingPathComponent("a.png"))
            let first = try Self.run(["blur", dir.appendingPathComponent("a.png").path, "-o", dir.appendingPathComponent("out.png").path],
                                     environment: [:], timeout: 120)
            guard first.status == 0 else { throw XCTSkip("veil blur failed: \(first.stderr)") }
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
            // Other pixels, and what its digest would be.
            let secret = try ImageEncoder(format: .png).encode(try ImageDecoder().decode(.data(photo)).image.resized(width: 300, height: 300))
            try secret.write(to: dir.appendingPathComponent("elsewhere/secret.png"))
            try secret.write(to: dir.appendingPathComponent("b.png"))
            let url = dir.appendingPathComponent("out.png.veil.json")
            var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            change(&json, dir)
            try JSONSerialization.data(withJSONObject: json).write(to: url)
        }, arguments: { ["blur", $0.appendingPathComponent("out.png").path, "-o", $0.appendingPathComponent("out.png").path] },
        status: .failure, says: says)
    }

    // MARK: - Items 4, 6, 7, 9: files, names, formats

    static func fileCases(photo: Data) -> [Case] {
        let long = String(repeating: "b", count: 246)  // long.png is 250 bytes
        func path(_ dir: URL, _ name: String) -> String { dir.appendingPathComponent(name).path }
        func format(_ name: String, starts magic: [UInt8], at offset: Int = 0) -> (URL) throws -> String? {
            { dir in
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                return bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
                    ? nil : "\(name) does not hold what its name says"
            }
        }
        let gif = Array("GIF8".utf8), bmp = Array("BM".utf8), avif = Array("ftypavif".utf8)
        let jpeg: [UInt8] = [0xff, 0xd8, 0xff], png: [UInt8] = [0x89, 0x50, 0x4e, 0x47]
        func encoded(_ format: EncodedFormat, _ name: String) -> (URL) throws -> Void {
            { dir in
                let image = try ImageDecoder().decode(.url(dir.appendingPathComponent("a.png"))).image
                try ImageEncoder(format: format).write(image, to: dir.appendingPathComponent(name))
            }
        }
        return [
            Case(name: "state in a missing folder leaves no output",
                 arguments: { ["blur", path($0, "a.png"), "--state", "/nonexistent/dir/s.json"] }, status: .failure, says: "/nonexistent/dir"),
            Case(name: "output in a missing folder we may not create",
                 arguments: { ["blur", path($0, "a.png"), "-o", "/proc/veil-no/x.png"] }, status: .failure),
            Case(name: "250-byte name", setup: { try photo.write(to: $0.appendingPathComponent(long + ".png")) },
                 arguments: { ["blur", path($0, long + ".png")] }, status: .ok,
                 createsNamesWith: "-veil", says: "shortened",
                 check: { dir in
                     let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("-veil") }
                     return names.count == 2 && names.allSatisfy({ $0.utf8.count <= 255 }) && names.contains(where: { $0.hasSuffix("-veil.png") })
                         ? nil : "outputs: \(names.map { $0.utf8.count })"
                 }),
            Case(name: "two 250-byte names sharing 240 bytes",
                 setup: { dir in
                     for tail in ["1", "2"] { try photo.write(to: dir.appendingPathComponent(String(long.dropLast()) + tail + ".png")) }
                 },
                 arguments: { ["blur", path($0, String(long.dropLast()) + "1.png"), path($0, String(long.dropLast()) + "2.png")] }, status: .ok,
                 createsNamesWith: "-veil", says: "shortened",
                 check: { dir in
                     let outputs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("-veil.png") }
                     return outputs.count == 2 ? nil : "\(outputs.count) outputs for 2 inputs"
                 }),
            Case(name: "FIFO to blur", setup: { _ = mkfifo($0.appendingPathComponent("fifo.jpg").path, 0o644) },
                 arguments: { ["blur", path($0, "fifo.jpg")] }, status: .failure, says: "not a regular file"),
            Case(name: "FIFO to faces", setup: { _ = mkfifo($0.appendingPathComponent("fifo.jpg").path, 0o644) },
                 arguments: { ["faces", path($0, "fifo.jpg")] }, status: .failure, says: "not a regular file"),
            Case(name: "FIFO to lift", setup: { _ = mkfifo($0.appendingPathComponent("fifo.jpg").path, 0o644) },
                 arguments: { ["lift", path($0, "fifo.jpg")] }, status: .failure, says: "not a regular file"),
            Case(name: "/dev/null to blur", arguments: { _ in ["blur", "/dev/null"] }, status: .failure, says: "not a regular file"),
            Case(name: "/dev/null to faces", arguments: { _ in ["faces", "/dev/null"] }, status: .failure, says: "not a regular file"),
            Case(name: "/dev/zero to lift", arguments: { _ in ["lift", "/dev/zero", "--json"] }, status: .failure, says: "not a regular file"),
            Case(name: "folder as a photo", arguments: { ["faces", $0.path + "/"] }, status: .failure),
            Case(name: "GIF in: GIF out", setup: encoded(.gif, "g.gif"), arguments: { ["blur", path($0, "g.gif")] }, status: .ok,
                 creates: ["g-veil.gif", "g-veil.gif.veil.json"], check: format("g-veil.gif", starts: gif)),
            Case(name: "animated GIF in: GIF out", setup: { try Data(Self.animatedGIF()).write(to: $0.appendingPathComponent("anim.gif")) },
                 arguments: { ["blur", path($0, "anim.gif")] }, status: .ok,
                 creates: ["anim-veil.gif", "anim-veil.gif.veil.json"], check: format("anim-veil.gif", starts: gif)),
            Case(name: "BMP in: BMP out", setup: encoded(.bmp, "m.bmp"), arguments: { ["blur", path($0, "m.bmp")] }, status: .ok,
                 creates: ["m-veil.bmp", "m-veil.bmp.veil.json"], check: format("m-veil.bmp", starts: bmp)),
            Case(name: "AVIF in: AVIF out", setup: encoded(.avif, "v.avif"), arguments: { ["blur", path($0, "v.avif")] }, status: .ok,
                 creates: ["v-veil.avif", "v-veil.avif.veil.json"], check: format("v-veil.avif", starts: avif, at: 4)),
            // libvips' PDF loader (poppler) is not loaded: a photo tool given a PDF was given the wrong file.
            Case(name: "a PDF is not a photo",
                 setup: { try Data("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n".utf8).write(to: $0.appendingPathComponent("x.pdf")) },
                 arguments: { ["blur", path($0, "x.pdf")] }, status: .failure, says: "not a decodable image"),
            Case(name: "unknown extension in: PNG out, named so", setup: { try photo.write(to: $0.appendingPathComponent("p.image")) },
                 arguments: { ["blur", path($0, "p.image")] }, status: .ok,
                 creates: ["p-veil.png", "p-veil.png.veil.json"], check: format("p-veil.png", starts: png)),
            Case(name: "-o out.gif holds GIF", arguments: { ["blur", path($0, "a.png"), "-o", path($0, "out.gif")] }, status: .ok,
                 creates: ["out.gif", "out.gif.veil.json"], check: format("out.gif", starts: gif)),
            Case(name: "-o out.jpeg holds JPEG", arguments: { ["blur", path($0, "a.png"), "-o", path($0, "out.jpeg")] }, status: .ok,
                 creates: ["out.jpeg", "out.jpeg.veil.json"], check: format("out.jpeg", starts: jpeg)),
            Case(name: "lift -o out.gif holds GIF", arguments: { ["lift", path($0, "a.png"), "-o", path($0, "out.gif")] }, status: .ok,
                 creates: ["out.gif"], check: format("out.gif", starts: gif)),
            Case(name: "lift --mask-only -o m.bmp holds BMP", arguments: { ["lift", path($0, "a.png"), "--mask-only", "-o", path($0, "m.bmp")] },
                 status: .ok, creates: ["m.bmp"], check: format("m.bmp", starts: bmp)),
            // Cut at 90%, and at 99% (only the last rows missing: libvips'
            // loader refused that only some of the time, until the decoder
            // checked for the IEND chunk itself).
            Case(name: "PNG truncated at 90% to blur", setup: { try photo.prefix(photo.count * 90 / 100).write(to: $0.appendingPathComponent("t.png")) },
                 arguments: { ["blur", path($0, "t.png")] }, status: .failure, says: "not a decodable image"),
            Case(name: "PNG truncated at 90% to faces", setup: { try photo.prefix(photo.count * 90 / 100).write(to: $0.appendingPathComponent("t.png")) },
                 arguments: { ["faces", path($0, "t.png")] }, status: .failure, says: "not a decodable image"),
            Case(name: "PNG truncated at 90% to lift", setup: { try photo.prefix(photo.count * 90 / 100).write(to: $0.appendingPathComponent("t.png")) },
                 arguments: { ["lift", path($0, "t.png")] }, status: .failure, says: "not a decodable image"),
            Case(name: "PNG truncated at 99% to blur", setup: { try photo.prefix(photo.count * 99 / 100).write(to: $0.appendingPathComponent("t99.png")) },
                 arguments: { ["blur", path($0, "t99.png")] }, status: .failure, says: "cut short"),
            Case(name: "PNG truncated at 99% to faces", setup: { try photo.prefix(photo.count * 99 / 100).write(to: $0.appendingPathComponent("t99.png")) },
                 arguments: { ["faces", path($0, "t99.png")] }, status: .failure, says: "cut short"),
            Case(name: "PNG claiming 60000x60000", setup: { try Data(TestImages.pngHeader(width: 60000, height: 60000)).write(to: $0.appendingPathComponent("bomb.png")) },
                 arguments: { ["blur", path($0, "bomb.png")] }, status: .failure, says: "over the limit"),
            Case(name: "fresh HOME is where models are looked for",
                 arguments: { _ in ["models", "path", "centerface"] }, status: .failure, says: "/tmp/veil-fresh-home/.cache/veil",
                 environment: ["HOME": "/tmp/veil-fresh-home", "VEIL_HOME": "", "XDG_CACHE_HOME": ""]),
        ]
    }

    /// A two-frame 16x16 animated GIF (NETSCAPE loop), each frame one colour.
    static func animatedGIF() -> [UInt8] {
        var out = Array("GIF89a".utf8) + [16, 0, 16, 0, 0xf1, 0, 0]  // 4-colour global table
        out += [200, 160, 120, 40, 40, 40, 255, 255, 255, 0, 0, 0]
        out += [0x21, 0xff, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for colour in [UInt8(0), 1] {
            out += [0x21, 0xf9, 4, 0, 10, 0, 0, 0]  // 0.1 s
            out += [0x2c, 0, 0, 0, 0, 16, 0, 16, 0, 0, 2]
            // LZW with a clear code before every pixel keeps codes 3 bits wide.
            var bits: [Bool] = []
            func emit(_ code: Int) { for i in 0..<3 { bits.append(code >> i & 1 == 1) } }
            for _ in 0..<256 { emit(4); emit(Int(colour)) }
            emit(5)
            var data: [UInt8] = []
            for start in stride(from: 0, to: bits.count, by: 8) {
                var byte: UInt8 = 0
                for (i, bit) in bits[start..<min(start + 8, bits.count)].enumerated() where bit { byte |= 1 << i }
                data.append(byte)
            }
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                out += [UInt8(block.count)] + block
            }
            out += [0]
        }
        return out + [0x3b]
    }

    // MARK: - Running

    struct Run { var status: Int32; var stderr: String; var crashed: Bool; var hung: Bool }

    /// Runs veil; `crashed` when a signal ended it or the runtime printed a trap.
    static func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: Veil.binary.path) else { throw XCTSkip("\(Veil.binary.path) not built") }
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("veil-hostile-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let process = Process()
        process.executableURL = Veil.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value.isEmpty ? nil : value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errURL)
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        var hung = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            hung = true
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        let trap = ["Fatal error", "Stack dump", "Illegal instruction", "Segmentation fault", "AddressSanitizer"].contains { stderr.contains($0) }
        return Run(status: process.terminationStatus, stderr: stderr,
                   crashed: !hung && (process.terminationReason == .uncaughtSignal || trap), hung: hung)
    }

    /// Every file below `dir` (hidden ones too) with its bytes' digest.
    static func snapshot(_ dir: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: dir.path)
        while let relative = walker?.nextObject() as? String {
            let url = dir.appendingPathComponent(relative)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else { continue }
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey])
            guard values?.isRegularFile == true else { files[relative] = Data(); continue }
            files[relative] = try Data(contentsOf: url)
        }
        return files
    }
}
