import Foundation
@testable import VeilKit
import XCTest

/// Operations' options (`VipsHandle.call`) are set as typed values: numbers,
/// booleans, enums by nick and arrays of doubles reach libvips as given, and a
/// value that is not one, or is out of the option's range, is a clear error
/// naming it, never a silent default.
final class OperationOptionsTests: XCTestCase {
    private func image() throws -> VeilImage {
        try VeilImage(pixels: (0..<(8 * 4 * 3)).map { UInt8($0 * 2 % 256) }, width: 8, height: 4, bands: 3)
    }

    func testNumbersEnumsBooleansAndArraysReachTheOperation() throws {
        let source = try image()
        let resized = try VeilImage(source.handle.call("resize", "scale=1.5,vscale=0.5,kernel=nearest"))
        XCTAssertEqual([resized.width, resized.height], [12, 2])
        let tiny = try VeilImage(source.handle.call("resize", "scale=2.5e-1,vscale=1"))
        XCTAssertEqual(tiny.width, 2)
        let scaled = try VeilImage(source.handle.call("linear", "a=1 1 2,b=0 10 0")).asUChar()
        let p = try source.pixelBytes(), q = try scaled.pixelBytes()
        XCTAssertEqual([q[0], q[1], q[2]], [p[0], p[1] + 10, min(255, p[2] * 2)])
        let joined = try VeilImage(VipsHandle.call("join", ["in1": source.handle, "in2": source.handle], "direction=vertical,expand=true"))
        XCTAssertEqual([joined.width, joined.height], [8, 8])
        let band = try VeilImage(source.handle.call("extract_band", "band=1,n=2"))
        XCTAssertEqual(band.bands, 2)
    }

    func testABadOrOutOfRangeValueIsAnErrorNamingIt() throws {
        let source = try image()
        for (name, options, says) in [("resize", "scale=abc", "scale=abc is not a valid value"),
                                      ("resize", "scale=0.5,kernel=sharpest", "sharpest"),
                                      ("extract_band", "band=1x", "band=1x is not a valid value"),
                                      ("gaussblur", "sigma=-3", "sigma=-3 is not a valid value"),
                                      ("linear", "a=1 x,b=0", "a=1 x is not a valid value"),
                                      ("resize", "scale=0.5,nonsense=1", "no option nonsense"),
                                      ("resize", "scale", "option scale has no value")] {
            XCTAssertThrowsError(try source.handle.call(name, options), "\(name) \(options)") { error in
                XCTAssertTrue("\(error)".contains(says), "\(name) \(options): \(error)")
            }
        }
    }
}
