import VeilKit
import XCTest

/// The one-pass renderer: a crowd of regions gives the pixels the per-face
/// definition gives, geometry is clipped to the image, hostile numbers never
/// trap, and cancellation stops a render that would run for minutes.
final class CoverRendererTests: XCTestCase {
    /// The sample photo scaled to 960x540, as interleaved RGB.
    private func photo() throws -> (VeilImage, [UInt8]) {
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 960, height: 540)
        let (bytes, bands) = try image.interleavedPixels()
        XCTAssertEqual(bands, 3)
        return (try VeilImage(pixels: bytes, width: 960, height: 540, bands: 3), bytes)
    }

    /// 500 faces of 10-14 px on a 25 x 20 grid whose masks (and blur
    /// neighbourhoods) never overlap.
    private let crowd: [CoverRegion] = (0..<500).map { i in
        let col = i % 25, row = i / 25, side = Double(10 + i % 5)
        let shape = CoverRegion.Shape.allCases[i % 3]
        return CoverRegion(rect: ImageRect(x: Double(col) * 38.4 + 19.2 - side / 2 + Double(i % 5), y: Double(row) * 27 + 13.5 - side / 2,
                                           width: side, height: side * (shape == .disc ? 1.2 : 1)), shape: shape)
    }

    /// All 500 at once equal, byte for byte, an independent reference: the
    /// whole photo pixelated by libvips, blended through the mask formula
    /// (d in radii from the centre, 255 inside 0.8, 0 past 1.1) computed here.
    func testCrowdEqualsTheFormulaWithLibvipsPixelation() throws {
        let (image, original) = try photo()
        let out = try FaceCover(style: .pixelate()).apply(to: image, regions: crowd).pixelBytes()
        var mask = [UInt8](repeating: 0, count: 960 * 540)
        for region in crowd {
            let r = region.rect, k = 1 / 1.5
            let (rx, ry) = region.shape == .disc ? (min(r.width, r.height) * k, min(r.width, r.height) * k) : (r.width * k, r.height * k)
            for y in max(0, Int(r.midY - 1.1 * ry) - 1)...min(539, Int(r.midY + 1.1 * ry) + 1) {
                for x in max(0, Int(r.midX - 1.1 * rx) - 1)...min(959, Int(r.midX + 1.1 * rx) + 1) {
                    let dx = (Double(x) + 0.5 - r.midX) / rx, dy = (Double(y) + 0.5 - r.midY) / ry
                    let d = region.shape == .box ? max(abs(dx), abs(dy)) : (dx * dx + dy * dy).squareRoot()
                    mask[y * 960 + x] = max(mask[y * 960 + x], UInt8(max(0, min(255, (1.1 - d) * 255 / 0.3))))
                }
            }
        }
        let reference = try image.blended(with: image.pixellated(cell: FaceCover.cellSize(for: image.size)),
                                          mask: VeilImage(pixels: mask, width: 960, height: 540, bands: 1)).pixelBytes()
        XCTAssertGreaterThan(mask.filter { $0 > 0 }.count, 960 * 540 / 20, "the crowd covers a real share")
        XCTAssertEqual(original.count, out.count)
        var differing = 0, off = 0
        for i in out.indices where out[i] != reference[i] { differing += 1; off = max(off, abs(Int(out[i]) - Int(reference[i]))) }
        // The mask's d is computed in double here and in float by libvips: a
        // value on a rounding edge may move by one level.
        XCTAssertLessThanOrEqual(differing, out.count / 1000, "max off \(off)")
        XCTAssertLessThanOrEqual(off, 1)
    }

    /// All at once on a frame buffer equals one face at a time, for the
    /// styles without a neighbourhood across faces (solid, blur).
    func testCrowdAtOnceEqualsOneFaceAtATime() throws {
        let (_, original) = try photo()
        for style in [CoverStyle.solid(RGB(200, 10, 10, 180)), .blur(strength: 0.5)] {
            let renderer = try FaceCover(style: style).renderer()
            var once = original, oneByOne = original
            try renderer.render(into: &once, width: 960, height: 540, regions: crowd)
            for region in crowd { try renderer.render(into: &oneByOne, width: 960, height: 540, regions: [region]) }
            XCTAssertEqual(zip(once, oneByOne).filter { $0 != $1 }.count, 0, "\(style)")
            XCTAssertGreaterThan(zip(once, original).filter { $0 != $1 }.count, original.count / 20, "\(style) covered too little")
        }
    }

    /// The renderer values rim pixels through a table of the fade's steps;
    /// SoftMask computes the formula itself. White over black through the
    /// renderer gives the mask's bytes (the blend is exact at every level),
    /// so the two must agree byte for byte, for several profiles and shapes.
    func testTabulatedFadeGivesTheFormulasBytes() throws {
        let size = PixelSize(width: 640, height: 360)
        var state: UInt64 = 42
        func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
        let regions = (0..<300).map { i in
            CoverRegion(rect: ImageRect(x: next() * 620 - 10, y: next() * 340 - 10, width: 3 + next() * 60, height: 3 + next() * 60),
                        shape: CoverRegion.Shape.allCases[i % 3])
        }
        for profile in [MaskProfile(), MaskProfile(inner: 0.5, outer: 1.5, scale: 1.3), MaskProfile(inner: 0.95, outer: 1, scale: 0.7)] {
            let formula = try SoftMask(regions: regions, profile: profile).render(size: size).pixelBytes()
            var bytes = [UInt8](repeating: 0, count: size.width * size.height * 3)
            try FaceCover(style: .solid(RGB(255, 255, 255)), profile: profile).renderer()
                .render(into: &bytes, width: size.width, height: size.height, regions: regions)
            let table = stride(from: 0, to: bytes.count, by: 3).map { bytes[$0] }
            XCTAssertEqual(zip(table, formula).filter { $0 != $1 }.count, 0, "\(profile)")
            XCTAssertGreaterThan(Set(formula).count, 200, "the rims hold most levels")
        }
    }

    /// The photo API and the buffer API give the same pixels.
    func testBufferAPIMatchesThePhotoAPI() throws {
        let (image, original) = try photo()
        let strokes = [Stroke(points: [.init(x: 10, y: 500), .init(x: 900, y: 20)], width: 14)]
        for style in [CoverStyle.pixelate(), .blur(), .solid(RGB(1, 2, 3))] {
            var bytes = original
            try FaceCover(style: style).renderer().render(into: &bytes, width: 960, height: 540, regions: crowd, strokes: strokes)
            let photo = try FaceCover(style: style).apply(to: image, regions: crowd, strokes: strokes).pixelBytes()
            XCTAssertEqual(zip(bytes, photo).filter { $0 != $1 }.count, 0, "\(style)")
        }
    }

    /// `reach` holds every pixel a render changes, for every style: the video
    /// writer takes only those rectangles from the covered RGB and keeps the
    /// decoder's own pixels elsewhere, so a pixel changed outside them would
    /// be a face shown. Regions of each shape, at the edges too, strokes
    /// (a capsule, a filled polygon, one running off the image) and a
    /// sticker; and the reach stays near the covers (not the whole frame).
    func testReachHoldsEveryPixelARenderChanges() throws {
        let (_, original) = try photo()
        let dir = try TestData.scratch(self)
        var rgba = [UInt8](repeating: 255, count: 30 * 20 * 4)
        for i in stride(from: 0, to: rgba.count, by: 4) { rgba[i + 1] = UInt8(i % 251) }
        let sticker = dir.appendingPathComponent("sticker.png")
        try ImageEncoder(format: .png).write(VeilImage(pixels: rgba, width: 30, height: 20, bands: 4), to: sticker)
        let regions = Array(crowd.prefix(60)) + [
            CoverRegion(rect: ImageRect(x: -30, y: -20, width: 90, height: 70), shape: .disc),
            CoverRegion(rect: ImageRect(x: 900, y: 480, width: 120, height: 100), shape: .box),
            CoverRegion(rect: ImageRect(x: 400, y: 380, width: 160, height: 130), shape: .ellipse),
        ]
        let strokes = [Stroke(points: [.init(x: 30, y: 520), .init(x: 700, y: 300), .init(x: 1200, y: 600)], width: 17),
                       Stroke(points: [.init(x: 600, y: 40), .init(x: 700, y: 60), .init(x: 650, y: 150)], width: 1, filled: true)]
        for style in [CoverStyle.pixelate(), .blur(), .solid(RGB(250, 0, 250)), .image(path: sticker.path)] {
            let renderer = try FaceCover(style: style).renderer()
            var bytes = original
            try renderer.render(into: &bytes, width: 960, height: 540, regions: regions, strokes: strokes)
            var inside = [Bool](repeating: false, count: 960 * 540)
            for r in renderer.reach(regions: regions, strokes: strokes, width: 960, height: 540) {
                XCTAssertTrue(r.x >= 0 && r.y >= 0 && r.x + r.width <= 960 && r.y + r.height <= 540, "\(r) is clipped")
                for y in r.y..<r.y + r.height { for x in r.x..<r.x + r.width { inside[y * 960 + x] = true } }
            }
            var changed = 0, outside = 0
            for p in 0..<960 * 540 where bytes[3 * p] != original[3 * p] || bytes[3 * p + 1] != original[3 * p + 1] || bytes[3 * p + 2] != original[3 * p + 2] {
                changed += 1
                if !inside[p] { outside += 1 }
            }
            XCTAssertGreaterThan(changed, 960 * 540 / 50, "\(style) covered something")
            XCTAssertEqual(outside, 0, "\(style): pixels changed outside the reach")
            XCTAssertLessThan(inside.filter { $0 }.count, 960 * 540 / 2, "\(style): the reach stays near the covers")
        }
    }

    /// A stroke to (500000000, 375000000) is clipped first: it covers the
    /// diagonal inside the image, nothing else, and the work is bounded by
    /// the image's rows (one cancellation check per 64 rows of work).
    func testStrokeIsClippedToTheImage() throws {
        let (_, original) = try photo()
        var bytes = original, checks = 0
        let stroke = Stroke(points: [.init(x: 0, y: 0), .init(x: 500_000_000, y: 375_000_000)], width: 10)
        try FaceCover(style: .solid(RGB(0, 255, 0))).renderer().render(into: &bytes, width: 960, height: 540, strokes: [stroke],
                                                                      isCancelled: { checks += 1; return false })
        XCTAssertLessThanOrEqual(checks, 2 * (540 / 64 + 1), "one check per 64 rows, while masking and while filling")
        for x in stride(from: 10, to: 700, by: 37) {
            let y = Int(Double(x) * 0.75), i = (y * 960 + x) * 3
            XCTAssertEqual(Array(bytes[i..<i + 3]), [0, 255, 0], "on the line at \(x),\(y)")
            let far = ((y + 20) * 960 + x) * 3
            XCTAssertEqual(Array(bytes[far..<far + 3]), Array(original[far..<far + 3]), "off the line at \(x),\(y + 20)")
        }
        XCTAssertEqual(Array(bytes[(539 * 960 + 5) * 3..<(539 * 960 + 5) * 3 + 3]), Array(original[(539 * 960 + 5) * 3..<(539 * 960 + 5) * 3 + 3]))
    }

    /// NaN, infinities and values past any Int render without trapping: the
    /// ones without a place are skipped, the ones larger than the image cover
    /// all of it.
    func testHostileGeometryNeverTraps() throws {
        let (image, original) = try photo()
        let nan = Double.nan, inf = Double.infinity, huge = 1e300
        let junk = [ImageRect(x: nan, y: 0, width: 10, height: 10), ImageRect(x: 0, y: 0, width: inf, height: inf),
                    ImageRect(x: -inf, y: 5, width: 10, height: nan), ImageRect(x: huge, y: -huge, width: huge, height: huge),
                    ImageRect(x: 10, y: 10, width: -50, height: 0), ImageRect(x: -huge, y: -huge, width: 1, height: 1)]
        let strokes = [Stroke(points: [.init(x: nan, y: 1), .init(x: 3, y: inf), .init(x: -huge, y: huge), .init(x: huge, y: -huge)], width: 3),
                       Stroke(points: [.init(x: 1, y: 1)], width: nan), Stroke(points: [.init(x: -1e12, y: 3), .init(x: 1e12, y: 3)], width: inf)]
        for style in [CoverStyle.pixelate(strength: 20), .blur(strength: 20), .solid(RGB(9, 9, 9, 9))] {
            for profile in [MaskProfile(), MaskProfile(inner: nan, outer: inf, scale: huge), MaskProfile(inner: 2, outer: 1, scale: 1)] {
                let cover = FaceCover(style: style, profile: profile)
                XCTAssertEqual(try cover.apply(to: image, regions: Array(junk.prefix(3)).map { CoverRegion(rect: $0) }).pixelBytes(), original,
                               "regions without a place change nothing")
                for shape in CoverRegion.Shape.allCases {
                    let out = try cover.apply(to: image, regions: junk.map { CoverRegion(rect: $0, shape: shape) }, strokes: strokes)
                    XCTAssertEqual(out.size, image.size)
                }
            }
        }
        // A region far larger than the image covers all of it, as a stroke wider than the image does.
        let all = try FaceCover(style: .solid(RGB(7, 8, 9))).apply(to: image, regions: [CoverRegion(rect: ImageRect(x: -1e9, y: -1e9, width: 3e9, height: 3e9))])
        XCTAssertTrue(try all.pixelBytes().elementsEqual(repeatElement([7, 8, 9] as [UInt8], count: 960 * 540).joined()))
    }

    /// A render that would take minutes (2,000 regions each larger than the
    /// photo) stops at the first check after cancellation, both through the
    /// buffer API's closure and through the task running the photo API.
    func testCancellationStopsAHugeRender() async throws {
        let (image, original) = try photo()
        let everything = [CoverRegion](repeating: CoverRegion(rect: ImageRect(x: -100, y: -100, width: 1200, height: 800)), count: 2000)
        var bytes = original, checks = 0
        XCTAssertThrowsError(try FaceCover(style: .blur()).renderer().render(into: &bytes, width: 960, height: 540, regions: everything,
                                                                            isCancelled: { checks += 1; return checks == 3 })) {
            XCTAssertTrue($0 is CancellationError, "\($0)")
        }
        XCTAssertEqual(checks, 3)
        let task = Task { try FaceCover(style: .pixelate()).apply(to: image, regions: everything) }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let started = Date()
        do {
            _ = try await task.value
            XCTFail("a cancelled render finished")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "cancellation took effect late")
    }
}
