@testable import VeilKit
import XCTest

/// Where the finer passes go: the areas round small sightings, joined where they touch.
final class DetectionRefinementTests: XCTestCase {
    private let refinement = DetectionRefinement()  // hints >= 0.07, under 32 px, reach 64, at 1.5x
    private let size = PixelSize(width: 2000, height: 1000)

    private func face(_ x: Double, _ y: Double, side: Double = 12, score: Float = 0.3) -> DetectedFace {
        DetectedFace(box: ImageRect(x: x, y: y, width: side, height: side), score: score, landmarks: [])
    }

    func testNoSmallSightingNoArea() {
        XCTAssertEqual(refinement.areas(for: size, seen: []), [])
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, side: 80, score: 0.9)]), [], "a large face asks for nothing finer")
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, score: 0.05)]), [], "below the hint score")
    }

    /// A weak sighting (below 0.1) is a hint only beside another: a lone one
    /// on a portrait asks for nothing; two within reach, or one strong, do.
    func testAWeakSightingIsAHintOnlyInCompany() {
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, score: 0.075)]), [], "lone and weak")
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, score: 0.075), face(1500, 500, score: 0.075)]), [], "two, far apart")
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, score: 0.075), face(560, 520, score: 0.08)]).count, 1, "two, within reach")
        XCTAssertEqual(refinement.areas(for: size, seen: [face(500, 500, score: 0.12)]).count, 1, "one, strong enough alone")
        let weakBesideStrong = refinement.hints(in: [face(500, 500, score: 0.075), face(540, 500, score: 0.5), face(1500, 900, score: 0.075)])
        XCTAssertEqual(weakBesideStrong.map(\.box.x), [500, 540], "the far weak one is dropped")
        // Within reach, their corners in buckets two apart were they only `reach` wide.
        let wide = DetectedFace(box: ImageRect(x: 63, y: 500, width: 31, height: 12), score: 0.075, landmarks: [])
        XCTAssertEqual(refinement.hints(in: [wide, face(31 + 63 + 64, 500, score: 0.075)]).count, 2, "a gap of exactly reach")
    }

    func testAnAreaHoldsItsHintWithReachRoundIt() throws {
        let area = try XCTUnwrap(refinement.areas(for: size, seen: [face(500, 400)]).first)
        XCTAssertLessThanOrEqual(area.x, 500 - 64)
        XCTAssertLessThanOrEqual(area.y, 400 - 64)
        XCTAssertGreaterThanOrEqual(area.x + area.width, 512 + 64)
        XCTAssertGreaterThanOrEqual(area.y + area.height, 412 + 64)
        XCTAssertLessThan(area.width, 64 * 2 + 12 + 2 * DetectionRefinement.cell, "no more than the reach and a cell each side")
    }

    func testFarHintsMakeTwoAreasAndNearOnesOne() {
        XCTAssertEqual(refinement.areas(for: size, seen: [face(200, 200), face(1500, 700)]).count, 2)
        XCTAssertEqual(refinement.areas(for: size, seen: [face(200, 200), face(300, 220)]).count, 1)
    }

    func testAreasStayInsideTheImage() {
        for area in refinement.areas(for: size, seen: [face(0, 0), face(1995, 995), face(-30, 500)]) {
            XCTAssertGreaterThanOrEqual(area.x, 0); XCTAssertGreaterThanOrEqual(area.y, 0)
            XCTAssertLessThanOrEqual(area.x + area.width, size.width); XCTAssertLessThanOrEqual(area.y + area.height, size.height)
            XCTAssertGreaterThan(area.width, 0); XCTAssertGreaterThan(area.height, 0)
        }
    }

    func testJoinedAreasDoNotOverlap() {
        // An L of hints: its groups' boxes overlap and are joined.
        var seen = (0..<20).map { face(100 + Double($0) * 40, 100) }
        seen += (0..<15).map { face(100, 140 + Double($0) * 40) }
        seen += [face(700, 600), face(1400, 300)]
        let areas = refinement.areas(for: size, seen: seen)
        for (i, a) in areas.enumerated() {
            for b in areas[(i + 1)...] {
                let apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
                XCTAssertTrue(apart, "\(a) and \(b) overlap")
            }
        }
    }

    func testACrowdOfHintsIsOneAreaAndItsTilesKeepTheBudget() {
        let crowd = (0..<1000).map { face(Double($0 % 50) * 30 + 100, Double($0 / 50) * 30 + 100) }
        let areas = refinement.areas(for: size, seen: crowd)
        XCTAssertEqual(areas.count, 1)
        let tiling = DetectionTiling()
        let passes = refinement.passes(for: size, tiling: tiling, seen: crowd)
        XCTAssertGreaterThan(passes.count, 1)
        for pass in passes {
            XCTAssertEqual(pass.scale, refinement.scale)
            XCTAssertLessThanOrEqual(Double(pass.region.width * pass.region.height) * pass.scale * pass.scale, Double(tiling.tilePixels) * 1.01)
        }
        // Every hint lies inside some pass.
        for h in crowd {
            XCTAssertTrue(passes.contains { p in
                Double(p.region.x) <= h.box.x && Double(p.region.y) <= h.box.y
                    && Double(p.region.x + p.region.width) >= h.box.x + h.box.width && Double(p.region.y + p.region.height) >= h.box.y + h.box.height
            })
        }
    }

    func testAFaceCutByTheAreasBorderIsKeptButNotByASharedSide() throws {
        let crowd = (0..<400).map { face(Double($0 % 40) * 30 + 100, Double($0 / 40) * 30 + 100) }
        let passes = refinement.passes(for: size, tiling: DetectionTiling(), seen: crowd)
        let outer = try XCTUnwrap(passes.first)
        // The first tile's top and left are the area's border: a face cut there is kept.
        XCTAssertTrue(outer.keeps(ImageRect(x: 0, y: 0, width: 10, height: 10)))
        XCTAssertTrue(outer.innerEdges.contains(.right) || outer.innerEdges.contains(.bottom), "tiles of one area share sides")
    }
}
