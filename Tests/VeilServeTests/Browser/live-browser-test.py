#!/usr/bin/env python3
"""The editor's Live tab in headless Chromium, driven through selenium.

usage: live-browser-test.py URL SOURCE_NAME PICTURE ARTIFACTS_DIR

Run by ServeLiveBrowserTests against `veil serve --live NAME=udp://...`
while ffmpeg sends pan-small paced in real time. Picks the source, waits
for frames to arrive in the <img> (the server's count of frames shown
grows), and copies three frames the browser shows into
ARTIFACTS_DIR/live-N.png (canvas.drawImage of the <img>); then turns the
style to Solid magenta and keeps live-solid.png; then uploads PICTURE for
the picture style. judge-live.py then compares the frames with the labels.
Exit 0 on success, 1 with a one-line reason.
"""
import base64
import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import Browser

url, name, picture, artifacts = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3]), sys.argv[4]
b = Browser(artifacts)
d = b.driver

# The frame the <img> shows now, as PNG bytes.
GRAB = """
const img = document.getElementById('live-view'), c = document.createElement('canvas');
c.width = img.naturalWidth; c.height = img.naturalHeight;
c.getContext('2d').drawImage(img, 0, 0);
return c.toDataURL('image/png').split(',')[1];
"""


def grab(path):
    with open(os.path.join(artifacts, path), "wb") as f:
        f.write(base64.b64decode(b.js(GRAB)))



try:
    b.open_live(url, name)
    b.wait_for("return Number(document.body.dataset.liveShown || 0) > 25", "frames to keep arriving", 60)
    first = b.live_shown()
    for i in range(3):
        time.sleep(0.7)
        grab(f"live-{i}.png")
    time.sleep(1.2)
    if b.live_shown() <= first:
        b.fail("frames stopped arriving")
    b.shot("live")

    # Solid magenta, from the next frame on.
    Select(d.find_element(By.ID, "live-style")).select_by_value("solid")
    b.js("const c = document.getElementById('live-color'); c.value = '#ff00ff'; c.dispatchEvent(new Event('change'));")
    b.wait_for("return document.body.dataset.liveStyle === 'solid' && document.body.dataset.busy === '0'", "the solid style")
    time.sleep(2.5)
    grab("live-solid.png")
    b.shot("live-solid")

    # The picture style, with an uploaded picture.
    Select(d.find_element(By.ID, "live-style")).select_by_value("image")
    d.find_element(By.ID, "live-picture").send_keys(picture)
    b.wait_for("return document.body.dataset.liveStyle === 'image' && document.body.dataset.busy === '0'", "the picture style")
    time.sleep(2.5)
    grab("live-picture.png")
    b.shot("live-picture")
    figures = d.find_element(By.ID, "live-figures").text
    print(f"browser test: ok ({b.live_shown()} frames shown; {figures})")
finally:
    d.quit()
