import Foundation
import VeilKit
import XCTest

final class BlurCommandTests: XCTestCase {
    /// A JPEG of the sample photo with an EXIF block holding a GPS latitude.
    private func photoWithGPS(in dir: URL) throws -> URL {
        let jpeg = try ImageEncoder(format: .jpeg, quality: 92).encode(ImageDecoder().decode(.url(TestData.astronaut())).image)
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: TestImages.exifWithGPS(), at: 2)  // right after SOI
        let url = dir.appendingPathComponent("gps.jpg")
        try Data(bytes).write(to: url)
        return url
    }

    func testGPSIsDroppedUnlessKeepMetadata() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = try photoWithGPS(in: dir)
        XCTAssertTrue(TestImages.hasGPS(try Data(contentsOf: photo)), "the test photo itself lacks GPS")
        let plain = dir.appendingPathComponent("plain.jpg"), kept = dir.appendingPathComponent("kept.jpg")
        XCTAssertEqual(try Veil.run(["blur", photo.path, "-o", plain.path]).status, 0)
        XCTAssertEqual(try Veil.run(["blur", photo.path, "-o", kept.path, "--keep-metadata"]).status, 0)
        XCTAssertFalse(TestImages.hasGPS(try Data(contentsOf: plain)))
        XCTAssertFalse(try Data(contentsOf: plain).range(of: Data("Exif\0\0".utf8)) != nil, "EXIF left in the output")
        XCTAssertTrue(TestImages.hasGPS(try Data(contentsOf: kept)))
    }

    /// A folder with a damaged photo in the middle: the others are done, in
    /// order, the bad one is reported on one line, the exit status is 1, and no
    /// partial output is left for it.
    func testBatchCarriesOnPastABadFileInOrder() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in"), output = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let photo = try Data(contentsOf: TestData.astronaut())
        for name in ["a.png", "b.png", "sub/d.png", "e.png"] { try photo.write(to: input.appendingPathComponent(name)) }
        try Data(photo.prefix(5000)).write(to: input.appendingPathComponent("c.png"))
        try Data("not a photo".utf8).write(to: input.appendingPathComponent("notes.txt"))
        let result = try Veil.run(["blur", input.path, "--out-dir", output.path, "--jobs", "2"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let done = result.stdout.split(separator: "\n").filter { $0.contains(" -> ") }.map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(done.map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.png", "b.png", "e.png", "d.png"])
        XCTAssertTrue(result.stdout.contains("4 photos, 4 faces covered, 1 error,"), result.stdout)
        let errors = result.stderr.split(separator: "\n")
        XCTAssertEqual(errors.count, 1, result.stderr)
        XCTAssertTrue(errors[0].contains("c.png"), result.stderr)
        let written = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".veil") }.sorted()
        XCTAssertEqual(written, ["a.png", "a.png.veil.json", "b.png", "b.png.veil.json", "e.png", "e.png.veil.json", "sub", "sub/d.png", "sub/d.png.veil.json"])
    }

    func testDefaultOutputIsBesideTheInputAndTheInputIsNeverOverwritten() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = dir.appendingPathComponent("p.png")
        try FileManager.default.copyItem(at: TestData.astronaut(), to: photo)
        let before = try Data(contentsOf: photo)
        XCTAssertEqual(try Veil.run(["blur", photo.path]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("p-veil.png").path))
        // --out-dir naming the input's own folder would overwrite it: refused.
        let same = try Veil.run(["blur", photo.path, "--out-dir", dir.path])
        XCTAssertEqual(same.status, 1)
        XCTAssertTrue(same.stderr.contains("name it with -o"), same.stderr)
        XCTAssertEqual(try Data(contentsOf: photo), before)
    }

    func testUnwritableOutputFolderIsAClearError() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let blocker = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try Veil.run(["blur", try TestData.astronaut().path, "--out-dir", blocker.appendingPathComponent("out").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    /// A full disk (a 64 KB tmpfs) fails with a one-line error and leaves no
    /// partial or temporary file behind.
    func testFullDiskLeavesNothingPartial() throws {
        try TestData.requireFaceModel()
        let mountPoint = try TestData.scratch(self)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]
        mount.standardError = FileHandle.nullDevice
        try mount.run(); mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("cannot mount a tmpfs here (needs root)") }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint.path]
            try? umount.run(); umount.waitUntilExit()
        }
        let result = try Veil.run(["blur", try TestData.astronaut().path, "--out-dir", mountPoint.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.lowercased().contains("no space"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).filter { $0 != ".veil" }, [])
    }

    func testJPEGQualityFollowsTheSource() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        for quality in [60, 95] {
            let src = dir.appendingPathComponent("q\(quality).jpg")
            try ImageEncoder(format: .jpeg, quality: quality).write(image, to: src)
            let out = dir.appendingPathComponent("q\(quality)-out.jpg")
            XCTAssertEqual(try Veil.run(["blur", src.path, "-o", out.path]).status, 0)
            let a = try Data(contentsOf: src).count, b = try Data(contentsOf: out).count
            XCTAssertEqual(Double(b) / Double(a), 1, accuracy: 0.15, "q\(quality): \(a) -> \(b) bytes")
        }
    }

    func testCommandLineEditingAndBadFlags() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let out = dir.appendingPathComponent("e.png")
        let photo = try TestData.astronaut().path
        let edit = try Veil.run(["blur", photo, "-o", out.path, "--drop", "0", "--add", "380,40,60,60", "--stroke", "20,480 200,480@12", "--style", "solid=#00FF00"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let state = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        guard case let .confirmed(list) = state.regions else { return XCTFail("not confirmed") }
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(state.strokes.count, 1)
        XCTAssertEqual(state.style, .solid(RGB(0, 255, 0)))
        for bad in [["blur"], ["blur", photo, "--style", "sparkle"], ["blur", photo, "--add", "1,2,3"], ["blur", photo, photo, "--drop", "0"],
                    ["blur", photo, "--stroke", "1,2 3@"], ["blur", photo, "--jobs", "0"], ["blur", photo, "-o", "a.png", "--out-dir", "d"],
                    // A missing picture is found before any work, not after detection.
                    ["blur", photo, "--style", "image=/nonexistent/missing.png"]] {
            let r = try Veil.run(bad)
            XCTAssertEqual(r.status, 2, "\(bad): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(bad): \(r.stderr)")
        }
    }
}

extension TestImages {
    /// An APP1 segment: EXIF with IFD0 pointing at a GPS IFD with latitude N 48° 51'.
    static func exifWithGPS() -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xffff) + u16(v >> 16) }
        var tiff: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(26) + u32(0)  // IFD0: GPSInfo -> 26
        tiff += u16(2)  // GPS IFD at 26
        tiff += u16(0x0001) + u16(2) + u32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += u16(0x0002) + u16(5) + u32(3) + u32(56)
        tiff += u32(0)
        tiff += u32(48) + u32(1) + u32(51) + u32(1) + u32(0) + u32(1)  // at 56
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 255)] + payload
    }

    /// Whether a JPEG's EXIF has a GPS IFD pointer (tag 0x8825, either byte order).
    static func hasGPS(_ data: Data) -> Bool {
        guard let exif = data.range(of: Data("Exif\0\0".utf8)) else { return false }
        let tail = data[exif.upperBound...]
        return tail.range(of: Data([0x25, 0x88, 0x04, 0x00])) != nil || tail.range(of: Data([0x88, 0x25, 0x00, 0x04])) != nil
    }
}
