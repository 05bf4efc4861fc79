#!/usr/bin/env python3
"""The Video tab's person tool in headless Chromium, driven through selenium.

usage: video-people-browser-test.py URL VIDEO_NAME ARTIFACTS_DIR FRAME X Y

Run by ServeVideoPeopleBrowserTests against `veil serve --media DIR` holding
VIDEO_NAME: one person in two shots, another beside her in the second.
Picks the video (faces found, tracked and people proposed), checks each
track has a person and that the face at X,Y (pixels) on FRAME shares its
person with a track of the first shot, picks the Person tool (E), clicks
that face: her tracks in both shots show as uncovered before rendering, a
second click takes it back, a third gives it again; renders, checks the
state (her tracks dropped, the other covered), downloads the covered video
into ARTIFACTS_DIR/downloads. Exit 0 on success, 1 with a one-line reason.
"""
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import Browser

url, name, artifacts = sys.argv[1], sys.argv[2], sys.argv[3]
frame, px, py = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
b = Browser(artifacts)
d = b.driver

try:
    d.get(url)
    d.find_element(By.ID, "tab-video").click()
    b.wait_for("return Number(document.body.dataset.videos || 0) > 0", "the media folder's list", 120)
    Select(d.find_element(By.ID, "video-pick")).select_by_value(name)
    b.wait_for("return Number(document.body.dataset.videoRendered || 0) >= 1 && document.body.dataset.busy === '0'", "the first analysis", 300)
    tracks = b.js("return vid.state.tracks")
    if any(t.get("person") is None for t in tracks):
        b.fail(f"a track has no person proposed: {[(t['id'], t.get('person')) for t in tracks]}")
    b.js("seekFrame(arguments[0])", frame)
    b.wait_for(f"return document.body.dataset.videoFrame === '{frame}' && !player.seeking", "the seek", 30)
    W, H = b.js("return [vid.state.source.width, vid.state.source.height]")
    x, y = px / W, py / H
    hit = b.js("""return boxesAt(arguments[0]).find((q) => q.kind === 'track' && q.box.x <= arguments[1] && arguments[1] <= q.box.x + q.box.width
        && q.box.y <= arguments[2] && arguments[2] <= q.box.y + q.box.height) || null""", frame, x, y)
    if not hit:
        b.fail(f"no track at {px},{py} on frame {frame}")
    person = hit["person"]
    hers = [t["id"] for t in tracks if t.get("person") == person]
    others = [t["id"] for t in tracks if t.get("person") != person]
    if len(hers) < 2 or not any(t["frames"][0][0] < frame - 3 for t in tracks if t["id"] in hers) or not others:
        b.fail(f"the face at {px},{py} is person {person} with tracks {hers}, the others {others}: not one person in two shots beside another")

    overlay = d.find_element(By.ID, "video-overlay")

    def click():
        size = overlay.size
        ActionChains(d).move_to_element_with_offset(overlay, int((x - 0.5) * size["width"]), int((y - 0.5) * size["height"])).click().perform()

    d.find_element(By.TAG_NAME, "body").send_keys("e")
    if d.find_element(By.ID, "video-tool-person").get_attribute("aria-pressed") != "true":
        b.fail("E did not pick the person tool")
    SHOWN = "return vid.state.tracks.filter((t) => trackStatus(t) === 'dropped').map((t) => t.id).sort((a, c) => a - c)"
    click()
    if b.js(SHOWN) != sorted(hers) or b.js("return [...vid.pending.uncover]") != [person]:
        b.fail(f"a click on person {person} shows {b.js(SHOWN)} uncovered, pending {b.js('return [...vid.pending.uncover]')}: " + d.find_element(By.ID, "status-text").text)
    if f"Person {person}" not in d.find_element(By.ID, "status-text").text:
        b.fail("the status does not name the person: " + d.find_element(By.ID, "status-text").text)
    b.shot("person-uncovered")
    click()
    if b.js(SHOWN) != [] or b.js("return pendingCount()") != 0:
        b.fail(f"a second click did not take it back: {b.js(SHOWN)} uncovered")
    click()

    d.find_element(By.ID, "video-render").click()
    b.wait_for("return Number(document.body.dataset.videoRendered) >= 2 && document.body.dataset.busy === '0'", "the render", 300)
    state = b.js("return vid.state")
    dropped = sorted(t["id"] for t in state["tracks"] if t["status"] == "dropped")
    if dropped != sorted(hers):
        b.fail(f"the rendered state drops {dropped}, not person {person}'s tracks {hers}")
    if "without detecting again" not in d.find_element(By.ID, "status-text").text:
        b.fail("the re-render did not say it reused the tracks: " + d.find_element(By.ID, "status-text").text)
    b.shot("rendered")
    d.find_element(By.ID, "video-download").click()
    files = b.wait_downloads([".mp4"], 60)
    print(f"browser test: ok (person {person}: tracks {hers} uncovered, {others} covered; {files['.mp4']})")
finally:
    d.quit()
