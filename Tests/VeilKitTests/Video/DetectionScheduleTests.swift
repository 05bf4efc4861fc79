@testable import VeilKit
import XCTest

final class DetectionScheduleTests: XCTestCase {
    let hd = PixelSize(width: 1920, height: 1080)

    /// Tiles cover every pixel of the frame, each within the pixel budget, and
    /// the inner-edge flags are true exactly where a neighbour lies.
    func testTilesCoverTheFrameWithinTheirBudget() {
        let schedule = DetectionSchedule()
        let tiles = schedule.tiles(for: hd)
        XCTAssertGreaterThan(tiles.count, 1)
        var covered = [Bool](repeating: false, count: hd.width * hd.height)
        for tile in tiles {
            XCTAssertLessThanOrEqual(tile.rect.width * tile.rect.height, schedule.tilePixels)
            XCTAssertEqual(tile.inner[0], tile.rect.x > 0)
            XCTAssertEqual(tile.inner[1], tile.rect.y > 0)
            XCTAssertEqual(tile.inner[2], tile.rect.x + tile.rect.width < hd.width)
            XCTAssertEqual(tile.inner[3], tile.rect.y + tile.rect.height < hd.height)
            for y in tile.rect.y..<(tile.rect.y + tile.rect.height) {
                for x in tile.rect.x..<(tile.rect.x + tile.rect.width) { covered[y * hd.width + x] = true }
            }
        }
        XCTAssertTrue(covered.allSatisfy { $0 })
    }

    /// First frame: everything; then the whole frame and each tile in turn, so
    /// every tile is visited within the tracker's grace period.
    func testPassesAlternateAndVisitEveryTileWithinTheGrace() {
        let schedule = DetectionSchedule()
        guard case let .everything(_, tiles, _) = schedule.pass(for: 0, size: hd) else { return XCTFail("frame 0") }
        var seen = Set<PixelRect>()
        for index in 1...(2 * tiles.count) {
            switch schedule.pass(for: index, size: hd) {
            case .whole: XCTAssertEqual(index % 2, 0, "frame \(index)")
            case let .tile(rect, _): XCTAssertEqual(index % 2, 1); seen.insert(rect)
            default: XCTFail("frame \(index)")
            }
        }
        XCTAssertEqual(seen, Set(tiles))
        XCTAssertLessThanOrEqual(2 * tiles.count, VideoAnonymizer().grace, "a tile must come round before its faces expire")
        // A small frame is one whole pass at full resolution, every time.
        XCTAssertEqual(schedule.pass(for: 0, size: PixelSize(width: 640, height: 360)), .whole(scale: 1))
        XCTAssertEqual(DetectionSchedule(every: 3).pass(for: 4, size: hd), DetectionSchedule.Pass.none)
    }
}
