#!/usr/bin/env python3
"""The editor's Video tab in headless Chromium, driven through selenium.

usage: video-browser-test.py URL VIDEO_NAME ARTIFACTS_DIR

Run by ServeVideoBrowserTests (Tests/VeilServeTests) against `veil serve
--media DIR` holding VIDEO_NAME. Picks the video (its faces are found and
tracked), plays it (frames advance, boxes drawn over), goes to a frame,
clicks a track's box to uncover it, drags a box where no face is, paints a
pen stroke elsewhere over 10 frames from there, renders
(progress bar, no detection the second time), downloads the covered video
and its state. Writes ARTIFACTS_DIR/video-check.json naming the downloads,
the frame, the dropped track, the added box and the stroke, for the pixel check that
follows (judge-video.py). Exit 0 on success, 1 with a one-line reason.
"""
import json
import os
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import Browser

url, name, artifacts = sys.argv[1], sys.argv[2], sys.argv[3]
b = Browser(artifacts)
d = b.driver
FRAME = 40

# The largest box on the frame whose 1.6x grown box meets no other box: its
# pixels can be judged alone once it is uncovered.
ALONE = """
const boxes = boxesAt(arguments[0]), grow = (q, k) => ({ x: q.x - q.width * (k - 1) / 2, y: q.y - q.height * (k - 1) / 2, width: q.width * k, height: q.height * k });
const meets = (a, c) => a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
const inside = (q) => q.x > 0.02 && q.y > 0.02 && q.x + q.width < 0.98 && q.y + q.height < 0.98;
const alone = boxes.filter((q) => q.kind === 'track' && inside(q.box) && boxes.every((o) => o === q || !meets(grow(q.box, 1.6), grow(o.box, 1.6))));
alone.sort((p, q) => q.box.width * q.box.height - p.box.width * p.box.height);
return alone.length ? alone[0] : null;
"""
# A 70x50 px place on the frame that meets no box on frames FRAME..FRAME+10, grown 2x (nor arguments[1], when given).
EMPTY = """
const f0 = arguments[0], W = vid.state.source.width, H = vid.state.source.height, w = 70 / W, h = 50 / H;
const meets = (a, c) => a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
const grown = arguments[1] ? [{ x: arguments[1].x - w, y: arguments[1].y - h, width: arguments[1].width + 2 * w, height: arguments[1].height + 2 * h }] : [];
for (let f = f0; f <= f0 + 10; f++) for (const q of boxesAt(f)) grown.push({ x: q.box.x - q.box.width / 2, y: q.box.y - q.box.height / 2, width: q.box.width * 2, height: q.box.height * 2 });
for (let y = 0.15; y < 0.8; y += 0.05) for (let x = 0.1; x < 0.8; x += 0.05) {
  const c = { x, y, width: w, height: h };
  if (grown.every((g) => !meets(c, g))) return c;
}
return null;
"""

try:
    d.get(url)
    d.find_element(By.ID, "tab-video").click()
    b.wait_for("return Number(document.body.dataset.videos || 0) > 0", "the media folder's list")
    b.shot("video-list")
    Select(d.find_element(By.ID, "video-pick")).select_by_value(name)
    b.wait_for("return Number(document.body.dataset.videoRendered || 0) >= 1 && document.body.dataset.busy === '0'", "the first analysis", 240)
    tracks = int(b.js("return Number(document.body.dataset.videoTracks)"))
    d.refresh()
    d.find_element(By.ID, "tab-video").click()
    b.wait_for("return Number(document.body.dataset.videos || 0) > 0", "the media folder's list again")
    first_label = b.js(f"return [...document.getElementById('video-pick').options].find((o) => o.value === '{name}').textContent")
    if "(edited)" in first_label:
        b.fail(f"the picker says a video nobody edited is edited: {first_label!r}")
    Select(d.find_element(By.ID, "video-pick")).select_by_value(name)
    b.wait_for("return vid.state !== null && document.body.dataset.busy === '0'", "the state after a reload", 60)
    if tracks < 1:
        b.fail("the video's state has no tracks")
    if b.js("return vid.state.tracks.every((t) => t.status === 'covered') && vid.state.manual.length === 0") is not True:
        b.fail("a fresh video's tracks are not all covered")
    # The timeline: tracks packed into lanes 8 px tall (scrolling past 180 px), its frame line over the slider's thumb.
    lanes = int(b.js("return Number(document.body.dataset.videoLanes || 0)"))
    tall = b.js("return document.getElementById('video-timeline').clientHeight")
    if not 0 < lanes <= tracks or tall < lanes * 8:
        b.fail(f"{tracks} tracks in {lanes} lanes, the timeline {tall} px tall")
    b.js("seekFrame(vid.frames - 1)")
    gap = b.js("""const t = document.getElementById('video-timeline').getBoundingClientRect(), s = document.getElementById('video-seek').getBoundingClientRect();
return Math.abs(t.left + timelineX().at(vid.frame) - (s.right - 8));""")
    if gap > 3:
        b.fail(f"the timeline's frame line is {gap:.0f} px off the slider's thumb on the last frame")
    b.js("seekFrame(0)")
    b.wait_for("return document.body.dataset.videoFrame === '0' && !player.seeking", "the seek back to the start")

    # Play: Chromium decodes the video and frames advance under the boxes.
    d.find_element(By.ID, "video-play").click()
    b.wait_for("return player.currentTime > 0.8 && Number(document.body.dataset.videoFrame) > 10", "the video to play", 30)
    d.find_element(By.ID, "video-play").click()
    if b.js("return player.videoWidth") != b.js("return vid.state.source.width"):
        b.fail("the player does not show the video at its size")
    b.shot("playing")

    # Go to the frame and uncover a track by clicking its box.
    b.js(f"seekFrame({FRAME});")
    b.wait_for(f"return document.body.dataset.videoFrame === '{FRAME}' && !player.seeking", "the seek")
    target = b.js(ALONE, FRAME)
    if not target:
        b.fail(f"no track stands alone on frame {FRAME}")
    overlay = d.find_element(By.ID, "video-overlay")

    def at(x, y):
        """Offsets from the overlay's centre for a normalized point."""
        size = overlay.size
        return int((x - 0.5) * size["width"]), int((y - 0.5) * size["height"])

    box = target["box"]
    ActionChains(d).move_to_element_with_offset(overlay, *at(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)).click().perform()
    if b.js(f"return vid.pending.drop.has({target['id']})") is not True:
        b.fail(f"clicking track {target['id']}'s box {box} did not mark it uncovered: " + d.find_element(By.ID, "status-text").text)

    # Draw a box where there is no face: covered from there on, followed.
    empty = b.js(EMPTY, FRAME)
    if not empty:
        b.fail("no empty place for a box")
    d.find_element(By.ID, "video-tool-box").click()
    chain = ActionChains(d).move_to_element_with_offset(overlay, *at(empty["x"], empty["y"])).click_and_hold()
    for i in range(1, 9):
        chain = chain.move_to_element_with_offset(overlay, *at(empty["x"] + empty["width"] * i / 8, empty["y"] + empty["height"] * i / 8))
    chain.release().perform()
    if b.js("return vid.pending.add.length") != 1:
        b.fail("the dragged box was not added")

    # Paint a pen stroke, away from the box and the tracks, on this frame and the 9 after it.
    spot = b.js(EMPTY, FRAME, empty)
    if not spot:
        b.fail("no empty place for a pen stroke")
    d.find_element(By.ID, "video-tool-pen").click()
    frames = d.find_element(By.ID, "video-pen-frames")
    frames.clear()
    frames.send_keys("10")
    mid = spot["y"] + spot["height"] / 2
    chain = ActionChains(d).move_to_element_with_offset(overlay, *at(spot["x"], mid)).click_and_hold()
    for i in range(1, 9):
        chain = chain.move_to_element_with_offset(overlay, *at(spot["x"] + spot["width"] * i / 8, mid))
    chain.release().perform()
    pen = b.js("return vid.pending.strokes")
    if len(pen) != 1 or pen[0]["first"] != FRAME or pen[0]["last"] != FRAME + 9:
        b.fail(f"the pen stroke was not kept for frames {FRAME}...{FRAME + 9}: {pen}")
    # Merge two tracks (the Merge tool: one, then the other on a frame after the first has ended),
    # as one person the tracker lost and found again as a new track.
    pair = b.js("""
const tracks = vid.state.tracks.filter((t) => t.id !== arguments[1] && t.status === "covered");
const alone = (f, id) => {
  const all = boxesAt(f).filter((q) => q.kind === "track"), q = all.find((o) => o.id === id);
  if (!q) return null;
  const cx = q.box.x + q.box.width / 2, cy = q.box.y + q.box.height / 2;
  return all.every((o) => o === q || !(o.box.x <= cx && cx <= o.box.x + o.box.width && o.box.y <= cy && cy <= o.box.y + o.box.height)) ? q : null;
};
for (const a of tracks) {
  const first = a.frames[0][0], last = a.frames[a.frames.length - 1][0];
  const qa = alone(first, a.id); if (!qa) continue;
  for (const c of tracks) {
    const f = c.frames[0][0];
    if (f <= last) continue;
    const qc = alone(f, c.id); if (qc) return [{ frame: first, id: a.id, box: qa.box }, { frame: f, id: c.id, box: qc.box }];
  }
}
return null;""", FRAME, target["id"])
    if not pair:
        b.fail("no two tracks, one after the other, to merge")
    d.find_element(By.ID, "video-tool-merge").click()
    for q in pair:
        b.js("seekFrame(arguments[0])", q["frame"])
        b.wait_for(f"return vid.frame === {q['frame']}", f"frame {q['frame']}", 10)
        ActionChains(d).move_to_element_with_offset(overlay, *at(q["box"]["x"] + q["box"]["width"] / 2, q["box"]["y"] + q["box"]["height"] / 2)).click().perform()
    if b.js("return vid.pending.merge") != [[pair[0]["id"], pair[1]["id"]]]:
        b.fail(f"the Merge tool did not join tracks {pair[0]['id']} and {pair[1]['id']}: {b.js('return vid.pending.merge')}")
    merged_frames = {s[0] for t in b.js("return vid.state.tracks") if t["id"] in (pair[0]["id"], pair[1]["id"]) for s in t["frames"]}
    b.js("seekFrame(arguments[0])", FRAME)
    b.shot("edited")

    # Render: a progress bar, then the state read back with the edits in it.
    d.find_element(By.ID, "video-render").click()
    b.wait_for("return !document.getElementById('video-progress').hidden", "the progress bar", 10)
    b.wait_for("return Number(document.body.dataset.videoRendered) >= 1 && document.body.dataset.busy === '0'", "the render", 240)
    state = b.js("return vid.state")
    dropped = [t for t in state["tracks"] if t["status"] == "dropped"]
    if [t["id"] for t in dropped] != [target["id"]]:
        b.fail(f"the rendered state drops {[t['id'] for t in dropped]}, not [{target['id']}]")
    if len(state["manual"]) != 1 or not any(s[0] == FRAME for s in state["manual"][0].get("followed") or []):
        b.fail(f"the added box is not in the rendered state as followed from frame {FRAME}: {state['manual']}")
    ids = {t["id"] for t in state["tracks"]}
    if pair[1]["id"] in ids or pair[0]["id"] not in ids:
        b.fail(f"track {pair[1]['id']} was not merged into {pair[0]['id']}")
    if {s[0] for s in next(t for t in state["tracks"] if t["id"] == pair[0]["id"])["frames"]} != merged_frames:
        b.fail(f"the merged track {pair[0]['id']} does not hold both tracks' frames")
    strokes = state.get("strokes") or []
    if len(strokes) != 1 or (strokes[0]["first"], strokes[0]["last"]) != (FRAME, FRAME + 9) or len(strokes[0]["stroke"]["points"]) < 2:
        b.fail(f"the pen stroke is not in the rendered state on frames {FRAME}...{FRAME + 9}: {strokes}")
    if "without detecting again" not in d.find_element(By.ID, "status-text").text:
        b.fail("the re-render did not say it reused the tracks: " + d.find_element(By.ID, "status-text").text)
    b.shot("rendered")

    # The covered video plays in place of the source, at the same frame.
    d.find_element(By.ID, "video-show-result").click()
    b.wait_for(f"return player.currentSrc.includes('/result') && player.readyState >= 2 && !player.seeking && document.body.dataset.videoFrame === '{FRAME}'",
               "the covered video at the same frame", 30)
    b.shot("covered")
    d.find_element(By.ID, "video-show-result").click()

    # Download the covered video and its state.
    d.find_element(By.ID, "video-download").click()
    d.find_element(By.ID, "video-download-state").click()
    files = b.wait_downloads([".mp4", ".veil.json"], 60)
    with open(files[".mp4"], "rb") as f:
        if f.read(12)[4:8] != b"ftyp":
            b.fail("the downloaded video is not an mp4")
    with open(files[".veil.json"]) as f:
        saved = json.load(f)
    if saved["tracks"] != state["tracks"]:
        b.fail("the downloaded state is not the one shown")
    sighting = next(s for s in next(t for t in saved["tracks"] if t["id"] == target["id"])["frames"] if s[0] == FRAME)
    added = next(s for s in saved["manual"][0]["followed"] if s[0] == FRAME)
    with open(os.path.join(artifacts, "video-check.json"), "w") as f:
        json.dump({"video": files[".mp4"], "state": files[".veil.json"], "frame": FRAME, "dropped": sighting[1:5], "added": added[1:5],
                   "stroke": saved["strokes"][0]}, f)
    # Opened again (a fresh page): the edits come back, nothing is detected.
    d.refresh()
    d.find_element(By.ID, "tab-video").click()
    b.wait_for("return Number(document.body.dataset.videos || 0) > 0", "the list again")
    Select(d.find_element(By.ID, "video-pick")).select_by_value(name)
    b.wait_for("return vid.state !== null && document.body.dataset.busy === '0'", "the saved state", 30)
    again = b.js("return vid.state")
    if again["tracks"] != state["tracks"] or again["manual"] != state["manual"]:
        b.fail("the video opened again did not bring its edits back")
    if b.js("return Number(document.body.dataset.videoRendered || 0)") != 0:
        b.fail("opening the edited video again rendered it")
    label = b.js(f"return [...document.getElementById('video-pick').options].find((o) => o.value === '{name}').textContent")
    if not label.endswith("(edited)"):
        b.fail(f"the picker does not say the edited video is edited: {label!r}")
    print(f"browser test: ok ({tracks} tracks; dropped track {target['id']}; merged {pair[1]['id']} into {pair[0]['id']}; box added at frame {FRAME}; downloads {sorted(files.values())})")
finally:
    d.quit()
