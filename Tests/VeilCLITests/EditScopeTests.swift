import Foundation
import VeilKit
import XCTest

/// Edits change only what they name, states name their files from their own
/// folder, and pictures that show faces uncovered say so and are the owner's.
final class EditScopeTests: XCTestCase {
    /// A text-only state edited with `--drop t0` stays text-only: no face is
    /// detected or covered, the face's pixels are the original's.
    func testEditOfATextOnlyStateCoversNoFace() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.street(in: dir)
        let out = dir.appendingPathComponent("out.png")
        let first = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "text"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let edit = try Veil.run(["blur", scene.url.path, "-o", out.path, "--drop", "t0"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertTrue(edit.stdout.contains("from saved state"), edit.stdout)
        let state = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        XCTAssertEqual(state.faces, .notYet, "the edit detected faces")
        XCTAssertEqual(state.texts?.items.first?.covered, false)
        XCTAssertLessThan(try TestImages.meanAbsoluteDifference(scene.url, out, in: TestData.astronautFace), 1, "the face was covered")
        // Naming a cover set is what changes it.
        let faces = try Veil.run(["blur", scene.url.path, "-o", out.path, "--cover", "faces,text"])
        XCTAssertEqual(faces.status, 0, faces.stderr)
        XCTAssertGreaterThan(try TestImages.meanAbsoluteDifference(scene.url, out, in: TestData.astronautFace), 10, "--cover faces,text left the face")
    }

    func testContradictoryEditsAreUsageErrors() throws {
        let dir = try TestData.scratch(self)
        let photo = try TestData.astronaut()
        let out = dir.appendingPathComponent("out.png")
        for words in [["--drop", "0", "--undrop", "0"], ["--drop", "t1,t2", "--undrop", "t2"], ["--drop", "p0", "--undrop", "p0"]] {
            let r = try Veil.run(["blur", photo.path, "-o", out.path] + words)
            XCTAssertEqual(r.status, 2, "\(words): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("contradict"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        let clip = dir.appendingPathComponent("in.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=25", "-t", "1", "-c:v", "libx264", clip.path])
        let video = try Veil.run(["video", clip.path, "-o", dir.appendingPathComponent("o.mp4").path, "--drop-track", "3", "--keep-track", "3"])
        XCTAssertEqual(video.status, 2, video.stderr)
        XCTAssertTrue(video.stderr.contains("contradict"), video.stderr)
    }

    /// A photo's state names its input and output from its own folder, with
    /// the input's size: no absolute path in it.
    func testPhotoStateNamesFilesFromItsFolder() throws {
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("photos/a.png"), out = dir.appendingPathComponent("covered/a.png")
        try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try TestData.astronaut(), to: input)
        try TestData.requireFaceModel()
        XCTAssertEqual(try Veil.run(["blur", input.path, "-o", out.path]).status, 0)
        let text = try String(contentsOf: PhotoBlurrer.sidecar(for: out), encoding: .utf8)
        XCTAssertFalse(text.contains(dir.path), "an absolute path in the state: \(text.prefix(300))")
        let state = try EditingState.load(from: PhotoBlurrer.sidecar(for: out))
        XCTAssertEqual(state.source.file, "../photos/a.png")
        XCTAssertEqual(state.exported?.file, "a.png")
        XCTAssertEqual(state.source.size, try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
    }

    /// A video's state names its input from its folder: moved together with
    /// it, the sheet finds it; moved apart, it says where it looked.
    func testVideoStateTravelsWithItsInput() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let tree = dir.appendingPathComponent("tree")
        let input = tree.appendingPathComponent("clips/in.mp4"), out = tree.appendingPathComponent("covered/out.mp4")
        try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let face = try ImageDecoder().decode(.url(TestData.astronaut())).image.resized(width: 160, height: 160)
        let clip = try TestClip(path: input.path, width: 160, height: 160, fps: 10, audio: .none)
        for _ in 0..<8 { try clip.add(face) }
        try clip.close()
        XCTAssertEqual(try Veil.run(["video", input.path, "-o", out.path]).status, 0)
        let state = try VideoEditingState.load(from: PhotoBlurrer.sidecar(for: out))
        XCTAssertEqual(state.source.file, "../clips/in.mp4")
        let moved = dir.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: tree, to: moved)
        let sheet = dir.appendingPathComponent("sheet.png")
        let found = try Veil.run(["video", "tracks", moved.appendingPathComponent("covered/out.mp4.veil.json").path, "--sheet", sheet.path])
        XCTAssertEqual(found.status, 0, found.stderr)
        // The sheet shows faces uncovered: said so, and the owner's alone.
        XCTAssertTrue(found.stderr.contains("NOT covered"), found.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: sheet.path)[.posixPermissions] as? Int), 0o600)
        try FileManager.default.removeItem(at: moved.appendingPathComponent("clips/in.mp4"))
        let lost = try Veil.run(["video", "tracks", moved.appendingPathComponent("covered/out.mp4.veil.json").path, "--sheet", sheet.path])
        XCTAssertEqual(lost.status, 2, lost.stderr)
        XCTAssertTrue(lost.stderr.contains(moved.appendingPathComponent("clips/in.mp4").path), lost.stderr)
    }

    /// `veil blur --preview` and `veil faces --preview`: said so on their line, mode 0600.
    func testPreviewsSayFacesAreUncoveredAndAreTheOwners() throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let photo = dir.appendingPathComponent("a.png")
        try FileManager.default.copyItem(at: try TestData.astronaut(), to: photo)
        let blur = try Veil.run(["blur", photo.path, "--preview"])
        XCTAssertEqual(blur.status, 0, blur.stderr)
        XCTAssertTrue(blur.stderr.contains("NOT covered"), blur.stderr)
        let preview = dir.appendingPathComponent("a-veil.preview.jpg")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: preview.path)[.posixPermissions] as? Int), 0o600)
        let facesPreview = dir.appendingPathComponent("faces.png")
        let faces = try Veil.run(["faces", photo.path, "--preview", facesPreview.path])
        XCTAssertEqual(faces.status, 0, faces.stderr)
        XCTAssertTrue(faces.stderr.contains("NOT covered"), faces.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: facesPreview.path)[.posixPermissions] as? Int), 0o600)
        // The covered output itself is not restricted.
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("a-veil.png").path)[.posixPermissions] as? Int), 0o644)
    }
}
