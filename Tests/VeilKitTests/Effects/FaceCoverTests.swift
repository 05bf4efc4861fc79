import VeilKit
import XCTest

final class FaceCoverTests: XCTestCase {
    private func astronautAndFace() throws -> (VeilImage, CoverRegion) {
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        return (image, CoverRegion(rect: TestData.astronautFace))
    }

    /// Outside every mask the output is the original byte for byte; at the
    /// face centre it is changed; for every style.
    func testOnlyTheMaskedAreaChanges() throws {
        let (image, face) = try astronautAndFace()
        let original = try image.pixelBytes()
        let extent = ImageRect(x: face.rect.midX - 1.1 * face.rect.width / 1.5, y: face.rect.midY - 1.1 * face.rect.width / 1.5,
                               width: 2.2 * face.rect.width / 1.5, height: 2.2 * face.rect.width / 1.5).integral
        for style in [CoverStyle.pixelate(), .blur(), .solid(RGB(10, 20, 30))] {
            let out = try FaceCover(style: style).apply(to: image, regions: [face])
            let bytes = try out.pixelBytes()
            XCTAssertEqual(bytes.count, original.count)
            var changedOutside = 0
            for y in 0..<512 {
                for x in 0..<512 where !(x >= extent.x && x < extent.x + extent.width && y >= extent.y && y < extent.y + extent.height) {
                    let i = (y * 512 + x) * 3
                    if bytes[i] != original[i] || bytes[i + 1] != original[i + 1] || bytes[i + 2] != original[i + 2] { changedOutside += 1 }
                }
            }
            XCTAssertEqual(changedOutside, 0, "\(style)")
            let c = (Int(face.rect.midY) * 512 + Int(face.rect.midX)) * 3
            let centreDiffers = (0..<3).contains { bytes[c + $0] != original[c + $0] }
            XCTAssertTrue(centreDiffers, "\(style) left the face centre as it was")
            if case .solid = style { XCTAssertEqual(Array(bytes[c..<c + 3]), [10, 20, 30]) }
        }
    }

    /// Pixelation: inside the face, 2x2 neighbours within one cell are equal.
    /// The cover is drawn on a copy: the caller's image keeps its pixels
    /// (the photo API renders into a buffer of its own, never the input's).
    func testTheInputImageIsLeftAsItWas() throws {
        let (image, face) = try astronautAndFace()
        let before = try image.pixelBytes()
        let out = try FaceCover(style: .pixelate()).apply(to: image, regions: [face])
        XCTAssertEqual(try image.pixelBytes(), before)
        XCTAssertNotEqual(try out.pixelBytes(), before)
    }

    /// Cells of the photo's longest side / 60, or, when a sixth of the
    /// largest face is more, the first quarter-octave step above it: a face
    /// that fills a portrait gets about six cells across, never more.
    func testPixelateCellIsLongestSideOverSixtyOrASixthOfTheFace() throws {
        let (image, face) = try astronautAndFace()
        XCTAssertEqual(FaceCover.cellSize(for: image.size), 9)  // 512 / 60 rounded
        XCTAssertEqual(FaceCover.cellSize(for: image.size, largestFace: 30), 9)
        let side = min(face.rect.width, face.rect.height)
        let cell = FaceCover.cellSize(for: image.size, largestFace: side)
        let steps = (0...12).map { Int((512.0 / 60 * pow(2, Double($0) / 4)).rounded()) }
        XCTAssertTrue(steps.contains(cell), "\(cell) is a step of the ladder \(steps)")
        XCTAssertGreaterThanOrEqual(Double(cell), (side / 6).rounded())
        XCTAssertLessThanOrEqual(Double(cell), (side / 6 * pow(2, 0.25)).rounded())
        XCTAssertGreaterThan(cell, 9)
        let bytes = try FaceCover(style: .pixelate()).apply(to: image, regions: [face]).pixelBytes()
        // A cell fully inside the covered core: (cx, cy) is the cell's top-left.
        let cx = (Int(face.rect.midX) / cell) * cell, cy = (Int(face.rect.midY) / cell) * cell
        let first = Array(bytes[(cy * 512 + cx) * 3..<(cy * 512 + cx) * 3 + 3])
        for dy in 0..<cell {
            for dx in 0..<cell {
                let i = ((cy + dy) * 512 + cx + dx) * 3
                XCTAssertEqual(Array(bytes[i..<i + 3]), first)
            }
        }
        let next = ((cy) * 512 + cx + cell) * 3
        XCTAssertNotEqual(Array(bytes[next..<next + 3]), first, "the next cell has its own colour")
    }

    /// A tracked face's box changes by a few pixels a frame: the cell, and so
    /// the mosaic's grid, holds while it does (a close-up's 280–300 px face
    /// at 960x540 took 47–50 px cells, a new grid nearly every frame), and
    /// never falls below a sixth of the face, at any size.
    func testPixelateCellHoldsWhileAFaceJitters() {
        let frame = PixelSize(width: 960, height: 540)
        let cells = Set(stride(from: 280.0, through: 300, by: 0.5).map { FaceCover.cellSize(for: frame, largestFace: $0) })
        XCTAssertEqual(cells.count, 1, "cells \(cells.sorted())")
        var distinct = Set<Int>()
        for side in stride(from: 1.0, through: 2000, by: 0.25) {
            let cell = FaceCover.cellSize(for: frame, largestFace: side)
            XCTAssertGreaterThanOrEqual(Double(cell), (side / 6).rounded(), "a face of \(side) px")
            distinct.insert(cell)
        }
        // From 16 px (960 / 60) to 2000 / 6: four steps an octave, about 18 in all.
        XCTAssertLessThanOrEqual(distinct.count, 19, "cells \(distinct.sorted())")
        XCTAssertGreaterThanOrEqual(distinct.count, 16)
    }

    func testStickerIsCentredOnTheFace() throws {
        let (image, face) = try astronautAndFace()
        let dir = try TestData.scratch(self)
        // A red square sticker with a transparent border.
        var rgba = [UInt8](repeating: 0, count: 40 * 40 * 4)
        for y in 10..<30 { for x in 10..<30 { rgba.replaceSubrange((y * 40 + x) * 4..<(y * 40 + x) * 4 + 4, with: [255, 0, 0, 255]) } }
        let sticker = dir.appendingPathComponent("sticker.png")
        try ImageEncoder(format: .png).write(VeilImage(pixels: rgba, width: 40, height: 40, bands: 4), to: sticker)
        let out = try FaceCover(style: .image(path: sticker.path)).apply(to: image, regions: [face]).pixelBytes()
        let original = try image.pixelBytes()
        let c = (Int(face.rect.midY) * 512 + Int(face.rect.midX)) * 3
        XCTAssertEqual(Array(out[c..<c + 3]), [255, 0, 0])
        // The sticker's transparent border leaves the photo visible near the mask's edge.
        let edge = (Int(face.rect.midY) * 512 + Int(face.rect.midX) + 55) * 3
        XCTAssertEqual(Array(out[edge..<edge + 3]), Array(original[edge..<edge + 3]))
    }
}
