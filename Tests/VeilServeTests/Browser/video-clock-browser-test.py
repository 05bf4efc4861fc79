#!/usr/bin/env python3
"""The Video tab's frames on the video's own clock, in headless Chromium.

usage: video-clock-browser-test.py URL CLIPS.json ARTIFACTS_DIR

Run by ServeVideoClockBrowserTests against `veil serve --media DIR`. CLIPS.json
lists clips whose frames are not at index / fps (a late video start, an edit
list, a variable frame rate): each one's name, its frames as FFmpeg decodes
them (RGB, each frame's 4x4 blocks averaged: 160x90), the frames to seek to,
and a frame of the second shot with the astronaut's face on it (normalized).
For each clip: picks it (its faces found and tracked), seeks to each frame and
compares the picture the <video> shows (drawn to a canvas, blocks averaged the
same way) with every frame FFmpeg decoded: the nearest must be the frame the
page says it is on, and near it; plays and pauses, and the frame shown is
again the page's; then a click on the face hits its track. Exit 0 on
success, 1 with a one-line reason.
"""
import json
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import Browser

url, clips_path, artifacts = sys.argv[1], sys.argv[2], sys.argv[3]
clips = json.load(open(clips_path))
b = Browser(artifacts)
d = b.driver
W, H, K = 640, 360, 4
# How far the picture Chromium shows may be from FFmpeg's decode of the same
# frame (their YUV to RGB conversions differ: 2.97 to 3.57 on these clips),
# and how much nearer it must be than any other frame (frames differ by 6 or more).
NEAR, MARGIN = 4.0, 2.0

# The picture the <video> shows now, as 160x90 RGB means of 4x4 blocks.
PICTURE = f"""
const c = document.createElement('canvas'); c.width = {W}; c.height = {H};
const x = c.getContext('2d'); x.drawImage(player, 0, 0, {W}, {H});
const p = x.getImageData(0, 0, {W}, {H}).data, w = {W // K}, h = {H // K}, out = new Array(w * h * 3).fill(0);
for (let y = 0; y < {H}; y++) for (let i = 0; i < {W}; i++) for (let k = 0; k < 3; k++) out[((y >> 2) * w + (i >> 2)) * 3 + k] += p[(y * {W} + i) * 4 + k];
return out.map((v) => v / {K * K});
"""


def frames_of(path):
    data = open(path, "rb").read()
    n = (W // K) * (H // K) * 3
    return [data[i:i + n] for i in range(0, len(data), n)]


def difference(picture, frame):
    return sum(abs(p - f) for p, f in zip(picture, frame)) / len(frame)


def check_shown(clip, frames, what):
    """The picture shown is the frame the page is on: the nearest of all of them, and near."""
    page = int(b.js("return vid.frame"))
    picture = b.js(PICTURE)
    scores = [difference(picture, f) for f in frames]
    best, second = sorted(range(len(scores)), key=scores.__getitem__)[:2]
    label = b.js("return document.getElementById('video-frame-label').textContent")
    print(f"{clip['name']} {what}: page on frame {page} ({label}, currentTime {b.js('return player.currentTime'):.3f}); "
          f"shown: frame {best} (difference {scores[best]:.2f}; to frame {page}: {scores[page]:.2f}; the next nearest, {second}: {scores[second]:.2f})")
    if best != page or scores[page] > NEAR or scores[second] - scores[best] < MARGIN:
        b.fail(f"{clip['name']} {what}: the page says frame {page} but shows frame {best} "
               f"(difference to the page's frame {scores[page]:.2f}, to the shown one {scores[best]:.2f}, "
               f"to the next nearest {scores[second]:.2f})")
    return page


def go_to(clip, frames, f):
    """Seeks to frame f as the slider does; the page stays on it and shows it."""
    b.js(f"player.pause(); seekFrame({f})")
    b.wait_for("return !player.seeking && player.readyState >= 2", f"the seek to frame {f}")
    b.js("return new Promise((r) => setTimeout(r, 200))")  # the frame's requestVideoFrameCallback
    if b.js("return vid.frame") != f:
        b.fail(f"{clip['name']}: sent to frame {f}, the page went to frame {b.js('return vid.frame')} (currentTime {b.js('return player.currentTime'):.3f})")
    check_shown(clip, frames, f"seek to frame {f}")


try:
    d.get(url)
    d.find_element(By.ID, "tab-video").click()
    b.wait_for("return Number(document.body.dataset.videos || 0) > 0", "the media folder's list")
    rendered = 0
    for clip in clips:
        frames = frames_of(clip["frames"])
        Select(d.find_element(By.ID, "video-pick")).select_by_value(clip["name"])
        rendered += 1
        b.wait_for(f"return Number(document.body.dataset.videoRendered || 0) >= {rendered} && document.body.dataset.busy === '0' && vid.state !== null",
                   f"{clip['name']}'s first analysis", 240)
        b.wait_for("return player.readyState >= 2", f"{clip['name']} to load")
        if b.js("return vid.frames") != len(frames):
            b.fail(f"{clip['name']}: the state has {b.js('return vid.frames')} frames, FFmpeg decodes {len(frames)}")
        for f in clip["seek"]:
            go_to(clip, frames, f)
        b.shot(clip["name"] + "-seeked")

        # Played, then paused: the frame shown is the one the boxes are drawn for.
        b.js("seekFrame(2); player.play()")
        b.wait_for("return Number(document.body.dataset.videoFrame) >= 12", f"{clip['name']} to play", 30)
        b.js("player.pause()")
        b.wait_for("return player.paused", "the pause")
        b.js("return new Promise((r) => setTimeout(r, 300))")
        check_shown(clip, frames, "played and paused")

        # The face of the second shot: a click on it, where the picture shows it, hits its track.
        f, face = clip["faceFrame"], clip["face"]
        go_to(clip, frames, f)
        overlay = d.find_element(By.ID, "video-overlay")
        size = overlay.size
        cx, cy = face[0] + face[2] / 2, face[1] + face[3] / 2
        ActionChains(d).move_to_element_with_offset(overlay, int((cx - 0.5) * size["width"]), int((cy - 0.5) * size["height"])).click().perform()
        said = d.find_element(By.ID, "status-text").text
        if b.js("return vid.pending.drop.size") != 1:
            b.fail(f"{clip['name']}: a click on the face on frame {f} hit no track ({said!r})")
        print(f"{clip['name']}: the click on the face on frame {f}: {said}")
        b.shot(clip["name"] + "-face")
    print("browser test: ok")
    d.quit()
except SystemExit:
    raise
except Exception as error:  # noqa: BLE001 - any failure is one line
    b.fail(f"{type(error).__name__}: {error}")
