@testable import VeilKit
import XCTest

final class DetectionScheduleTests: XCTestCase {
    let hd = PixelSize(width: 1920, height: 1080)

    /// First frame: every pass of the tiler; then the whole frame and each
    /// tile in turn, so every tile is visited within the tracker's grace.
    func testPassesAlternateAndVisitEveryTileWithinTheGrace() {
        let schedule = DetectionSchedule()
        let all = schedule.passes(for: 0, size: hd)
        XCTAssertEqual(all, schedule.tiling.passes(for: hd))
        let tiles = Array(all.dropFirst())
        XCTAssertGreaterThan(tiles.count, 1)
        var seen: [DetectionPass] = []
        for index in 1...(2 * tiles.count) {
            let passes = schedule.passes(for: index, size: hd)
            XCTAssertEqual(passes.count, 1, "frame \(index)")
            if index % 2 == 0 { XCTAssertEqual(passes.map { [$0.region.description, "\($0.scale)"] }, [[all[0].region.description, "\(all[0].scale)"]], "frame \(index)") } else { seen += passes }
        }
        XCTAssertEqual(Set(seen), Set(tiles))
        XCTAssertLessThanOrEqual(2 * tiles.count, VideoAnonymizer().grace, "a tile must come round before its faces expire")
        // A small frame is one whole pass at full resolution, every time.
        XCTAssertEqual(schedule.passes(for: 5, size: PixelSize(width: 640, height: 360)).map(\.scale), [1])
        XCTAssertEqual(DetectionSchedule(every: 3).passes(for: 4, size: hd), [])
    }

    /// In video the shrunk whole pass, alone on its frames, keeps small faces
    /// (the tiles come one a frame); with every tile on frame 0 it keeps only
    /// large ones, as for a photo.
    func testAWholePassAloneKeepsSmallFaces() {
        let schedule = DetectionSchedule()
        let size = PixelSize(width: 1920, height: 1080)
        let first = schedule.passes(for: 0, size: size)
        XCTAssertGreaterThan(first.count, 2)
        XCTAssertEqual(first[0].minFace, schedule.tiling.wholeMinFace)
        let whole = schedule.passes(for: 2, size: size)
        XCTAssertEqual(whole.count, 1)
        XCTAssertEqual(whole[0].scale, first[0].scale)
        XCTAssertEqual(whole[0].minFace, 0)
    }
}
