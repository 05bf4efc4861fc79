import VeilKit
import VeilVocabulary
import XCTest

/// A group declared once (`ParsableOptions`) reads each option as its one
/// line says, from any source, and leaves what a source does not declare alone.
final class ParsableOptionsTests: XCTestCase {
    /// A source that declares only some names, as a command's `Arguments` do.
    struct Declaring: OptionSource {
        var given: [String: String], declared: Set<String>
        func values(_ name: String) -> [String] { given[name].map { [$0] } ?? [] }
        func flag(_ name: String) -> Bool { given[name] != nil }
        func spelling(_ name: String) -> String { "--" + name }
        func declares(_ name: String) -> Bool { declared.contains(name) }
    }

    func testAGroupReadsEachOptionAsDeclaredAndKeepsDefaultsForTheRest() throws {
        let encoding = try EncodingOptions(Options(["crf": "23", "preset": "slow", "no-audio": ""]))
        XCTAssertEqual(encoding.crf, 23)
        XCTAssertEqual(encoding.preset, "slow")
        XCTAssertTrue(encoding.dropAudio)
        XCTAssertNil(encoding.codec)
        let settings = encoding.settings(format: "mov")
        XCTAssertEqual(settings.crf, 23)
        XCTAssertEqual(settings.format, "mov")
        XCTAssertEqual(try EncodingOptions(Options([:])).settings(format: nil).crf, EncoderSettings().crf, "absent: the library's default")
        // The range is the declaration's, and the message names the option as the source spells it.
        XCTAssertThrowsError(try EncodingOptions(Options(["crf": "52"]))) { error in
            XCTAssertTrue("\(error)".hasPrefix("--crf must be"), "\(error)")
        }
    }

    func testAnOptionASourceDoesNotDeclareIsNotRead() throws {
        let source = Declaring(given: ["detect-every": "3", "grace": "7"], declared: ["grace"])
        let detection = try DetectionOptions(source)
        XCTAssertNil(detection.every)
        XCTAssertEqual(detection.grace, 7)
        XCTAssertEqual(detection.video(VideoAnonymizer.Detection()).grace, 7)
    }

    func testAnAliasIsReadWhereDeclaredAndTheCoverMatchesTheOldParser() throws {
        XCTAssertEqual(try CoverOptions(Options(["maskScale": "1.5"]), allowingFiles: false).maskScale, 1.5)
        XCTAssertNil(try CoverOptions(Declaring(given: ["maskScale": "1.5"], declared: ["mask-scale"]), allowingFiles: false).maskScale)
        let cover = try CoverOptions(Options(["cover": "text", "text-match": "plates", "shape": "box"]), allowingFiles: false)
        XCTAssertFalse(cover.coverFaces)
        XCTAssertTrue(cover.coverText)
        XCTAssertTrue(cover.namesCoverSet)
        XCTAssertEqual(cover.video().shape, .box)
        XCTAssertEqual(try CoverOptions.read(\.shape, from: Options(["shape": "ellipse", "style": "nonsense"])), .ellipse,
                       "one option read alone: the others are not parsed")
        XCTAssertThrowsError(try CoverOptions(Options(["shape": "round"]), allowingFiles: false)) { error in
            XCTAssertEqual("\(error)", "--shape must be disc, ellipse or box, not 'round'")
        }
    }

    /// A re-render's cover: what was given, else the state's, else the request's default.
    func testAVideosCoverTakesTheStatesWhereNoneIsGiven() throws {
        var state = VideoEditingState(source: .init(file: "in.mp4", sha256: "0", size: 1, width: 64, height: 64, framesPerSecond: 25, frames: 1),
                                      style: .solid(RGB(0, 0, 0)), shape: .ellipse, maskScale: 1.3, tracks: [], manual: [])
        let given = try CoverOptions(Options(["shape": "box"]), allowingFiles: false).video(over: state)
        XCTAssertEqual(given.shape, .box)
        XCTAssertEqual(given.face.style, .solid(RGB(0, 0, 0)))
        XCTAssertEqual(given.face.profile.scale, 1.3)
        state.maskScale = 2
        XCTAssertEqual(try CoverOptions(Options([:]), allowingFiles: false).video(over: state).face.profile.scale, 2)
        XCTAssertEqual(try CoverOptions(Options([:]), allowingFiles: false).video().face.profile.scale, VideoAnonymizer.Cover().face.profile.scale)
    }

    /// Every declared option has a name, help, and (taking a value) a sample its own line parses.
    func testEveryDeclaredSampleParses() throws {
        func check<Group: ParsableOptions>(_ type: Group.Type) throws {
            for option in Group.options {
                XCTAssertFalse(option.help.isEmpty, option.name)
                guard let sample = option.sample else { XCTAssertNil(option.value, "\(option.name) takes a value but has no sample"); continue }
                XCTAssertNoThrow(try Group(Options([option.name: sample])), "\(Group.self).\(option.name) \(sample)")
            }
        }
        try check(CoverOptions.self)
        try check(DetectionOptions.self)
        try check(EncodingOptions.self)
        try check(SourceOptions.self)
        try check(FaceOptions.self)
        try check(TextOptions.self)
        try check(EditOptions.self)
        try check(VideoEditOptions.self)
        try check(LiftOptions.self)
    }

    /// Lift's options that go together or not at all are checked as a whole
    /// when the group is made into a lift, said as the source spells them.
    func testLiftsOptionsAreCheckedAsAWhole() throws {
        let none: (String?) throws -> VeilImage = { _ in throw InputError("no background here") }
        for (given, message) in [(["tap": "0.5,0.5", "instances": "1"], "give --tap or --instances, not both"),
                                 (["people": "", "sides": "320"], "--people uses the person model; --sides tunes the subject model"),
                                 (["people": "", "no-stretch": ""], "--people uses the person model; --no-stretch tunes the subject model"),
                                 (["max-people": "3"], "--max-people tunes the person model: give --people too"),
                                 (["mask-only": "", "effect": "bokeh"], "--mask-only writes the mask; it takes no --effect"),
                                 (["effect": "replace=x.png"], "no background here")] {
            XCTAssertThrowsError(try SubjectLift(Options(given), background: none), "\(given)") { XCTAssertEqual("\($0)", message) }
        }
        let people = try SubjectLift(Options(["people": "", "max-people": "3", "quality": "fast"]), background: none)
        XCTAssertEqual(people.people?.maximumInstances, 3)
        XCTAssertEqual(people.people?.segmentation.qualityLevel, .fast)
        XCTAssertEqual(try SubjectLift(Options(["people": ""]), background: none).people?.maximumInstances, 255, "every person by default")
        let tuned = try SubjectLift(Options(["sides": "320,384", "mirror": "", "threshold": "0.6", "no-stretch": ""]), background: none).request
        XCTAssertEqual(tuned.inputSides, [320, 384])
        XCTAssertTrue(tuned.averagesMirroredMap)
        XCTAssertFalse(tuned.stretchesMap)
        XCTAssertEqual(tuned.foregroundThreshold, 0.6)
        // The path stays as given until the caller reads the background: a request names none.
        guard case .replace(path: "x.png")? = try LiftOptions(Options(["effect": "replace=x.png"])).effect else { return XCTFail() }
    }
}
