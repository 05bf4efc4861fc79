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
        let whole = schedule.tiling.whole(for: hd), tiles = schedule.tiling.tiles(for: hd)
        XCTAssertEqual(all.count, whole.count + tiles.count)
        XCTAssertGreaterThan(tiles.count, 1)
        var seen: [DetectionPass] = []
        for index in 1...(2 * tiles.count) {
            let passes = schedule.passes(for: index, size: hd)
            if index % 2 == 0 {
                XCTAssertEqual(passes.map(\.region), whole.map(\.region), "frame \(index)")
            } else {
                XCTAssertEqual(passes.count, 1, "frame \(index)")
                seen += passes
            }
        }
        XCTAssertEqual(Set(seen), Set(tiles))
        XCTAssertLessThanOrEqual(2 * tiles.count, VideoAnonymizer().detection.grace, "a tile must come round before its faces expire")
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
        XCTAssertFalse(whole.isEmpty)
        XCTAssertEqual(whole[0].scale, first[0].scale)
        XCTAssertEqual(Set(whole.map(\.minFace)), [0])
    }

    /// A 1080p whole pass (1.1 megapixels for the network) runs in parts of
    /// at most `maxPassPixels`, at the same scale, covering the frame.
    func testTheWholePassIsCutToTheMemoryBudget() {
        let schedule = DetectionSchedule()
        let parts = schedule.tiling.whole(for: hd)
        XCTAssertGreaterThan(parts.count, 1)
        for part in parts {
            XCTAssertLessThanOrEqual(Double(part.region.width * part.region.height) * part.scale * part.scale,
                                     Double(schedule.tiling.maxPassPixels) * 1.01, "\(part.region)")
        }
        XCTAssertEqual(Set(parts.map(\.scale)).count, 1)
        XCTAssertEqual(parts.map(\.region.x).min(), 0)
        XCTAssertEqual(parts.map { $0.region.x + $0.region.width }.max(), hd.width)
        XCTAssertEqual(parts.map { $0.region.y + $0.region.height }.max(), hd.height)
        // Unbounded, the same tiling gives the one pass it always gave.
        var one = schedule.tiling
        one.maxPassPixels = .max
        XCTAssertEqual(one.whole(for: hd).count, 1)
        XCTAssertEqual(one.whole(for: hd)[0].scale, parts[0].scale)
    }

    /// A live source's 1080p frames, kept up with, get the cheaper whole pass
    /// (one part, within `liveWholePixels`) and the same tiles; a file's
    /// frames, a live source's 720p frames (one whole pass, no tiles) and a
    /// request that set it aside keep the schedule's.
    func testALiveSourcesLargeFramesGetTheCheaperWholePass() {
        var live = VideoAnonymizer()
        live.source.realtime = true
        let schedule = live.liveSchedule(for: hd)
        XCTAssertEqual(schedule.wholePixels, 400_000)
        let whole = schedule.tiling.whole(for: hd)
        XCTAssertEqual(whole.count, 1)
        XCTAssertLessThanOrEqual(Double(hd.width * hd.height) * whole[0].scale * whole[0].scale, 400_000 * 1.01)
        XCTAssertLessThan(whole[0].scale, live.detection.schedule.tiling.whole(for: hd)[0].scale)
        XCTAssertEqual(schedule.tiling.tiles(for: hd), live.detection.schedule.tiling.tiles(for: hd))
        XCTAssertEqual(live.liveSchedule(for: PixelSize(width: 1280, height: 720)), live.detection.schedule)
        XCTAssertEqual(VideoAnonymizer().liveSchedule(for: hd), VideoAnonymizer().detection.schedule)
        live.detection.liveWholePixels = nil
        XCTAssertEqual(live.liveSchedule(for: hd), live.detection.schedule)
    }

    /// Which detections may end a sighting found once (`BoxTracker.Limits.onceLife`): those that
    /// looked at the whole frame at full resolution. A 960x540 frame's one pass does, every frame;
    /// at 1080p only the first frame of a shot does, a tile in turn or the shrunk whole pass not.
    func testOnlyALookAtTheWholeFrameInFullEndsASightingFoundOnce() {
        let schedule = DetectionSchedule()
        let small = PixelSize(width: 960, height: 540), hd = PixelSize(width: 1920, height: 1080)
        XCTAssertTrue(DetectionSchedule.looksEverywhere(schedule.passes(for: 1, size: small), size: small))
        XCTAssertTrue(DetectionSchedule.looksEverywhere(schedule.passes(for: 0, size: hd), size: hd))
        XCTAssertTrue(DetectionSchedule.looksEverywhere(schedule.passes(for: 7, size: hd, newShot: true), size: hd))
        for index in 1...8 {
            XCTAssertFalse(DetectionSchedule.looksEverywhere(schedule.passes(for: index, size: hd), size: hd), "frame \(index)")
        }
        // Found once, then missed by looks that were not everywhere: a candidate's life, not none.
        var tracker = BoxTracker(grace: 25)
        tracker.update(frame: 0, detections: [(ImageRect(x: 400, y: 300, width: 30, height: 36), 0.1)])
        var shown = 1
        for frame in 1..<20 {
            tracker.update(frame: frame, detections: [], everywhere: false)
            if !tracker.boxes(at: frame).isEmpty { shown += 1 }
        }
        XCTAssertEqual(shown, 1 + BoxTracker.Limits().candidateLife)
    }

    /// A live 1080p stream's first frame runs its tiles at 0.6 (every later
    /// frame waits for it), a file's at full resolution; the tiles in turn
    /// after it stay at full resolution either way.
    func testALiveStreamsFirstFrameTilesSmaller() {
        let network = { (passes: [DetectionPass]) in passes.reduce(0.0) { $0 + Double($1.region.width * $1.region.height) * $1.scale * $1.scale } }
        var live = VideoAnonymizer()
        live.source.realtime = true
        let schedule = live.liveSchedule(for: hd), file = VideoAnonymizer().liveSchedule(for: hd)
        let first = schedule.passes(for: 0, size: hd), fileFirst = file.passes(for: 0, size: hd)
        let tiles = first.filter { $0.minFace == 0 }
        XCTAssertFalse(tiles.isEmpty)
        XCTAssertTrue(tiles.allSatisfy { $0.scale == 0.6 }, "\(tiles.map(\.scale))")
        XCTAssertTrue(fileFirst.filter { $0.minFace == 0 }.allSatisfy { $0.scale == 1 })
        XCTAssertLessThan(network(first), 0.5 * network(fileFirst))
        // The whole of the frame is still looked at.
        XCTAssertEqual(Set(tiles.flatMap { [$0.region.x, $0.region.x + $0.region.width] }).max(), hd.width)
        XCTAssertEqual(Set(tiles.flatMap { [$0.region.y, $0.region.y + $0.region.height] }).max(), hd.height)
        XCTAssertTrue(schedule.passes(for: 3, size: hd).allSatisfy { $0.scale == 1 })
    }
}
