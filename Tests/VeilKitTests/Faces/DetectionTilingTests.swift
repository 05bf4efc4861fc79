@testable import VeilKit
import XCTest

final class DetectionTilingTests: XCTestCase {
    let hd = PixelSize(width: 1920, height: 1080)

    /// Tiles cover every pixel, stay within the pixel budget once scaled, and
    /// flag exactly the sides where a neighbour lies; neighbours overlap by at
    /// least the overlap (so a face that small is whole in one of them).
    func testTilesCoverTheImageWithinBudgetAndOverlap() {
        for tiling in [DetectionTiling(), DetectionTiling(tileScale: 2), DetectionTiling(tilePixels: 520_000, overlap: 96)] {
            for size in [hd, PixelSize(width: 4000, height: 3000), PixelSize(width: 333, height: 2001)] {
                let tiles = tiling.tiles(for: size)
                var covered = [Bool](repeating: false, count: size.width * size.height)
                for tile in tiles {
                    let r = tile.region
                    XCTAssertLessThanOrEqual(Double(r.width * r.height) * tile.scale * tile.scale, Double(tiling.tilePixels) * 1.01)
                    XCTAssertEqual(tile.innerEdges.contains(.left), r.x > 0)
                    XCTAssertEqual(tile.innerEdges.contains(.top), r.y > 0)
                    XCTAssertEqual(tile.innerEdges.contains(.right), r.x + r.width < size.width)
                    XCTAssertEqual(tile.innerEdges.contains(.bottom), r.y + r.height < size.height)
                    for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { covered[y * size.width + x] = true } }
                    for other in tiles where other.region.x > r.x && other.region.y == r.y && other.region.x < r.x + r.width {
                        XCTAssertGreaterThanOrEqual(Double(r.x + r.width - other.region.x), Double(tiling.overlap) / tiling.tileScale - 2)
                    }
                }
                XCTAssertTrue(covered.allSatisfy { $0 }, "\(size) with \(tiling)")
            }
        }
    }

    /// Small images get one full-resolution pass unless tiles are upsampled;
    /// large ones a shrunk whole pass that leaves small faces to the tiles.
    func testPassesForSmallAndLargeImages() {
        let small = PixelSize(width: 640, height: 480)
        XCTAssertEqual(DetectionTiling().passes(for: small).map(\.scale), [1])
        XCTAssertEqual(DetectionTiling().passes(for: small)[0].minFace, 0)
        let up = DetectionTiling(tileScale: 2).passes(for: small)
        XCTAssertGreaterThan(up.count, 1)
        XCTAssertEqual(up[0].scale, 1)
        XCTAssertTrue(up.dropFirst().allSatisfy { $0.scale == 2 })
        let large = DetectionTiling().passes(for: hd)
        XCTAssertLessThan(large[0].scale, 1)
        XCTAssertEqual(large[0].minFace, DetectionTiling().wholeMinFace)
    }

    /// With tiles, the whole pass is shrunk until a face as large as the
    /// tiles' overlap is `tiledWholeFaceSide` network pixels, never past the
    /// budget's scale and never where no tiles run.
    func testTheWholePassBesideTilesIsOnlyAsLargeAsTheFacesTilesCutNeed() {
        let tiling = DetectionTiling(overlap: 128, tiledWholeFaceSide: 56)
        let photo = PixelSize(width: 1600, height: 898)
        XCTAssertEqual(tiling.wholeScale(for: photo), 56.0 / 128, accuracy: 1e-9)
        XCTAssertEqual(DetectionTiling(overlap: 128).wholeScale(for: photo), (1_100_000 / 1_436_800.0).squareRoot(), accuracy: 1e-9)
        let passes = tiling.passes(for: photo)
        XCTAssertEqual(passes[0].scale, 56.0 / 128, accuracy: 1e-9)
        XCTAssertTrue(passes.dropFirst().allSatisfy { $0.scale == 1 }, "the tiles keep their own scale")
        // A 24-megapixel photo: the budget's scale is already below the cap.
        let huge = PixelSize(width: 6000, height: 4000)
        XCTAssertEqual(tiling.wholeScale(for: huge), (1_100_000 / 24_000_000.0).squareRoot(), accuracy: 1e-9)
        // No tiles: the photo's own scale.
        XCTAssertEqual(tiling.wholeScale(for: PixelSize(width: 1024, height: 768)), 1)
        // Upsampled tiles overlap by fewer image pixels: the cap follows.
        let up = DetectionTiling(overlap: 128, tileScale: 2, tiledWholeFaceSide: 56)
        XCTAssertEqual(up.wholeScale(for: photo), min((1_100_000 / 1_436_800.0).squareRoot(), 56.0 / 64), accuracy: 1e-9)
    }

    /// The inner-edge rule: a face touching an inner side is dropped, one
    /// touching the image border or clear of the edges is kept; the whole
    /// pass's minimum size applies.
    func testInnerEdgeRule() {
        let pass = DetectionPass(region: PixelRect(x: 500, y: 0, width: 400, height: 300), scale: 1,
                                 innerEdges: [.left, .bottom], minFace: 0)
        XCTAssertFalse(pass.keeps(ImageRect(x: 1, y: 100, width: 20, height: 20)), "against the inner left edge")
        XCTAssertFalse(pass.keeps(ImageRect(x: 100, y: 285, width: 20, height: 15)), "against the inner bottom edge")
        XCTAssertTrue(pass.keeps(ImageRect(x: 100, y: 0, width: 20, height: 20)), "against the image's top border")
        XCTAssertTrue(pass.keeps(ImageRect(x: 380, y: 100, width: 20, height: 20)), "against the image's right border")
        XCTAssertTrue(pass.keeps(ImageRect(x: 100, y: 100, width: 20, height: 20)))
        var whole = pass
        whole.innerEdges = []
        whole.minFace = 48
        XCTAssertFalse(whole.keeps(ImageRect(x: 100, y: 100, width: 20, height: 20)))
        XCTAssertTrue(whole.keeps(ImageRect(x: 100, y: 100, width: 60, height: 50)))
        // A part of a whole pass keeps a face too large for the overlap, cut or not.
        var part = pass
        part.keepsCutFrom = 150
        XCTAssertFalse(part.keeps(ImageRect(x: 1, y: 100, width: 20, height: 20)))
        XCTAssertTrue(part.keeps(ImageRect(x: 1, y: 100, width: 160, height: 190)))
    }
}
