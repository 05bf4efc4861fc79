import Foundation
import VeilKit
import XCTest

/// `veil serve --media DIR` and `--live` over real HTTP: videos by name only
/// (nothing outside the folder, no hidden file, no symbolic link), Range
/// requests, a render in the background (first run detects, the next reuses
/// the tracks with the edits sent), and their refusals (edits the state cannot
/// take before any job is queued).
final class ServeMediaTests: XCTestCase {
    private func media() throws -> (folder: URL, clip: Data) {
        let scratch = try TestData.scratch(self)
        let clip = try TestData.panClip(in: scratch).video
        let folder = scratch.appendingPathComponent("media")
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try fm.copyItem(at: clip, to: folder.appendingPathComponent("clip.mp4"))
        try fm.copyItem(at: clip, to: folder.appendingPathComponent(".hidden.mp4"))
        try fm.copyItem(at: clip, to: folder.appendingPathComponent("inner/deep.mp4"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link.mp4").path, withDestinationPath: "/etc/passwd")
        return (folder, try Data(contentsOf: clip))
    }

    func testVideosAreReachedByNameOnlyAndRenderedInTheBackground() throws {
        let (folder, clip) = try media()
        let server = try ServeProcess(self, ["--media", folder.path])
        let list = try server.request("GET", "/v1/videos")
        XCTAssertEqual(list.status, 200)
        XCTAssertEqual((list.json?["videos"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["clip.mp4"], list.text)
        for path in ["/v1/videos/..%2F..%2Fetc%2Fpasswd", "/v1/videos/link.mp4", "/v1/videos/.hidden.mp4", "/v1/videos/notes.txt",
                     "/v1/videos/inner%2Fdeep.mp4", "/v1/videos/inner/deep.mp4", "/v1/videos/%2Fetc%2Fpasswd"] {
            XCTAssertEqual(try server.request("GET", path).status, 404, path)
        }
        let whole = try server.request("GET", "/v1/videos/clip.mp4")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, clip)
        let part = try server.request("GET", "/v1/videos/clip.mp4", headers: [("Range", "bytes=100-199")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, clip.subdata(in: 100..<200))
        XCTAssertEqual(part.headers["content-range"], "bytes 100-199/\(clip.count)")
        XCTAssertEqual(try server.request("GET", "/v1/videos/clip.mp4", headers: [("Range", "bytes=\(clip.count + 10)-")]).status, 416)
        XCTAssertEqual(try server.request("GET", "/v1/videos/clip.mp4/state").status, 404)
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4").status, 405)

        // Edits before any tracks: refused at once, no job queued.
        let early = try server.request("POST", "/v1/videos/clip.mp4/render?drop-track=1")
        XCTAssertEqual(early.status, 400, early.text)
        XCTAssertTrue(early.text.contains("clip.mp4 has no tracks yet: render it once without edits first"), early.text)
        XCTAssertEqual(try server.request("GET", "/v1/videos/clip.mp4/job").json?["status"] as? String, "idle")
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render?drop-track=x").status, 400)

        // The first render detects; the next reuses the tracks and applies the edit.
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render").status, 202)
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render").status, 409, "a second render while one runs")
        var job = try wait(server)
        XCTAssertEqual(job["status"] as? String, "done", "\(job)")
        XCTAssertEqual(job["detector"] as? String, "ran")
        let state = try server.request("GET", "/v1/videos/clip.mp4/state")
        XCTAssertEqual(state.json?["kind"] as? String, "video")
        let id = try XCTUnwrap((state.json?["tracks"] as? [[String: Any]])?.first?["id"] as? Int)
        let result = try server.request("GET", "/v1/videos/clip.mp4/result")
        XCTAssertEqual(result.body.subdata(in: 4..<8), Data("ftyp".utf8))
        XCTAssertEqual(result.headers["content-disposition"], "attachment; filename=\"clip-veil.mp4\"")
        // The track sheet: a thumbnail a track, a real PNG of the sheet's width.
        let sheet = try server.request("GET", "/v1/videos/clip.mp4/sheet")
        XCTAssertEqual(sheet.status, 200, sheet.text)
        XCTAssertEqual(sheet.headers["content-type"], "image/png")
        XCTAssertEqual(try ImageDecoder().decode(.data(sheet.body)).image.width, TrackSheet.columns * (TrackSheet.cell + 8) + 8)
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render?drop-trak=\(id)").status, 400, "a misspelled edit is refused")
        // A track the state does not have: 400 before any job, in the CLI's words for the same state.
        let missing = try server.request("POST", "/v1/videos/clip.mp4/render?drop-track=9999")
        XCTAssertEqual(missing.status, 400, missing.text)
        XCTAssertEqual(try server.request("GET", "/v1/videos/clip.mp4/job").json?["status"] as? String, "done", "no job was queued")
        let copy = try TestData.scratch(self).appendingPathComponent("cli")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in ["clip-veil.mp4", "clip-veil.mp4.veil.json"] {
            try FileManager.default.copyItem(at: server.stateDir.appendingPathComponent("videos/\(name)"), to: copy.appendingPathComponent(name))
        }
        let cli = try Veil.run(["video", folder.appendingPathComponent("clip.mp4").path, "-o", copy.appendingPathComponent("clip-veil.mp4").path,
                                "--drop-track", "9999"])
        XCTAssertNotEqual(cli.status, 0)
        let words = try XCTUnwrap(missing.json?["error"] as? String)
        XCTAssertTrue(words.hasPrefix("there is no track 9999 (tracks: "), words)
        XCTAssertTrue(cli.stderr.contains(words), "the CLI says \(cli.stderr), the route \(words)")
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render?drop-track=\(id)").status, 202)
        job = try wait(server)
        XCTAssertEqual(job["detector"] as? String, "reused", "\(job)")
        let edited = try server.request("GET", "/v1/videos/clip.mp4/state").json?["tracks"] as? [[String: Any]]
        XCTAssertEqual(edited?.first { $0["id"] as? Int == id }?["status"] as? String, "dropped")
        XCTAssertTrue((try server.request("GET", "/v1/videos").json?["videos"] as? [[String: Any]])?.first?["state"] as? Bool ?? false)
        // People, as the CLI spells them: every track of the first track's person uncovered; a person the state lacks, 400.
        let person = try XCTUnwrap((state.json?["tracks"] as? [[String: Any]])?.first?["person"] as? Int, "a first render proposes people")
        let nobody = try server.request("POST", "/v1/videos/clip.mp4/render?uncover-person=9999")
        XCTAssertEqual(nobody.status, 400, nobody.text)
        XCTAssertTrue(nobody.text.contains("no person 9999"), nobody.text)
        let retired = try server.request("POST", "/v1/videos/clip.mp4/render?keep-person=\(person)")
        XCTAssertEqual(retired.status, 400, retired.text)
        XCTAssertTrue(retired.text.contains("keep-person is now uncover-person"), retired.text)
        // A misspelling is never offered the retired name, nor told the route takes it.
        let misspelt = try server.request("POST", "/v1/videos/clip.mp4/render?keep-persn=\(person)")
        XCTAssertEqual(misspelt.status, 400, misspelt.text)
        XCTAssertTrue(misspelt.text.contains("unknown parameter 'keep-persn'"), misspelt.text)
        XCTAssertFalse(misspelt.text.contains("keep-person"), misspelt.text)
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render?uncover-person=\(person)").status, 202)
        XCTAssertEqual(try wait(server)["status"] as? String, "done")
        let theirs = (try server.request("GET", "/v1/videos/clip.mp4/state").json?["tracks"] as? [[String: Any]] ?? []).filter { $0["person"] as? Int == person }
        XCTAssertFalse(theirs.isEmpty)
        XCTAssertTrue(theirs.allSatisfy { $0["status"] as? String == "dropped" }, "\(theirs)")

        // Two boxes in one request: one followed, one with key frames (interpolated, not followed).
        let add = "5:10,10,40,40;10:100,100,60,40 30:300,100,60,40".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        XCTAssertEqual(try server.request("POST", "/v1/videos/clip.mp4/render?add=\(add)").status, 202)
        XCTAssertEqual(try wait(server)["status"] as? String, "done")
        let manual = try XCTUnwrap(try server.request("GET", "/v1/videos/clip.mp4/state").json?["manual"] as? [[String: Any]])
        XCTAssertEqual(manual.map { ($0["keys"] as? [Any])?.count }, [1, 2])
        XCTAssertEqual(manual.map { $0["follow"] as? Bool }, [true, false])
        XCTAssertFalse((manual[0]["followed"] as? [Any] ?? []).isEmpty, "the single box was followed")
        // A key frame past the video's end: the state's own refusal, at once.
        let late = try server.request("POST", "/v1/videos/clip.mp4/render?add=5000:10,10,40,40")
        XCTAssertEqual(late.status, 400, late.text)
        XCTAssertFalse((late.json?["error"] as? String ?? "").isEmpty)
        XCTAssertEqual(try server.request("GET", "/v1/videos/clip.mp4/job").json?["status"] as? String, "done")
    }

    private func wait(_ server: ServeProcess) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(240)
        while Date() < deadline {
            let job = try server.request("GET", "/v1/videos/clip.mp4/job").json ?? [:]
            if ["done", "failed"].contains(job["status"] as? String ?? "") { return job }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("the render did not end in time")
        return [:]
    }

    func testWithoutMediaOrLiveTheRoutesSaySo() throws {
        let server = try ServeProcess(self)
        let videos = try server.request("GET", "/v1/videos")
        XCTAssertEqual(videos.status, 404)
        XCTAssertTrue(videos.text.contains("--media"), videos.text)
        XCTAssertEqual((try server.request("GET", "/v1/live").json?["live"] as? [Any])?.count, 0)
        XCTAssertEqual(try server.request("GET", "/v1/live/cam").status, 404)
    }

    func testBadMediaAndLiveOptionsAreUsageMistakes() throws {
        for args in [["--media", "/nonexistent"], ["--live", "cam"], ["--live", "a/b=udp://x"], ["--live", "cam="],
                     ["--live", "cam=udp://127.0.0.1:1", "--live", "cam=udp://127.0.0.1:2"]] {
            let run = try Veil.run(["serve", "--port", "0"] + args, timeout: 20)
            XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
        }
    }
}
