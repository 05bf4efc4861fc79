import VeilKit
@testable import VeilVocabulary
import XCTest

/// Options read by name from a dictionary, as the CLI and the service both present them.
struct DictionarySource: OptionSource {
    var given: [String: [String]] = [:]
    var switches: Set<String> = []
    func values(_ name: String) -> [String] { given[name] ?? [] }
    func flag(_ name: String) -> Bool { switches.contains(name) }
    func spelling(_ name: String) -> String { "--" + name }
}

final class TextNumberTests: XCTestCase {
    func testRefusesNonFiniteAndOutOfRange() {
        for text in ["nan", "inf", "-inf", "1e300", "1e309", "", " ", "1,2", "1e7.5"] {
            XCTAssertThrowsError(try TextNumber.double(text, in: -1e7...1e7, option: "--x"), text)
        }
        XCTAssertEqual(try TextNumber.double(" 2.5 ", in: 0...3, option: "--x"), 2.5)
        for text in ["9223372036854775807", "9223372036854775808", "-1", "1.5", "256"] {
            XCTAssertThrowsError(try TextNumber.int(text, in: 1...255, option: "--x"), text)
        }
        XCTAssertThrowsError(try TextNumber.list("1,2,3", count: 4, in: 0...10, option: "--x", what: "x,y,w,h"))
        XCTAssertThrowsError(try TextNumber.list("1,2,3,nan", count: 4, in: 0...10, option: "--x", what: "x,y,w,h"))
        XCTAssertEqual(try TextNumber.list("1, 2,3,4", count: 4, in: 0...10, option: "--x", what: "x,y,w,h"), [1, 2, 3, 4])
    }

    func testRegionEditsRefuseHostileNumbers() {
        for (name, value) in [("add", "1e300,0,10,10"), ("add", "nan,0,10,10"), ("add", "0,0,inf,inf"), ("add", "1e15,1e15,10,10"),
                              ("add", "0,0,0,10"), ("stroke", "0,0@1e300"), ("stroke", "5000000000,5000000000@4"), ("stroke", "0,0@nan"),
                              ("stroke", "0,0@0"), ("stroke", "@4"), ("drop", "9223372036854775807"), ("drop", "-1")] {
            XCTAssertThrowsError(try RegionEdits(DictionarySource(given: [name: [value]])), "\(name)=\(value)") {
                XCTAssertTrue($0 is InputError, "\($0)")
            }
        }
        XCTAssertNoThrow(try RegionEdits(DictionarySource(given: ["add": ["-100,-100,50,50"], "stroke": ["0,0 10,10@4"]])))
    }

    func testLiftOptionsRefuseHostileNumbers() {
        let none: (String?) throws -> VeilImage = { _ in throw InputError("no background") }
        for (name, value) in [("instances", "9223372036854775807"), ("instances", "0"), ("refine", "1e308,0.01"), ("refine", "inf,0.01"),
                              ("refine", "nan,nan"), ("refine", "colour:1,inf"), ("sides", "9223372036854775807"), ("tap", "nan,0.5"),
                              ("tap", "2,0.5"), ("threshold", "nan"), ("effect", "highlight=nan"), ("effect", "bokeh=inf")] {
            XCTAssertThrowsError(try SubjectLift(DictionarySource(given: [name: [value]]), background: none), "\(name)=\(value)") {
                XCTAssertTrue($0 is InputError, "\($0)")
            }
        }
    }
}
