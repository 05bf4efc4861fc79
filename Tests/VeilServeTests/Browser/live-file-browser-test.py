#!/usr/bin/env python3
"""The editor's Live tab fed a file, in headless Chromium: frames arrive at the file's own rate.

usage: live-file-browser-test.py URL SOURCE_NAME FPS ARTIFACTS_DIR

Run by ServeLiveBrowserTests against `veil serve --live NAME=FILE`. Picks the
source, waits for the first frame in the <img>, then counts the frames the
page reports shown (the server's count, as the tab shows it) over 3 seconds:
a file read as a camera sends it gives about FPS a second, not the whole file
at once with most frames dropped. Exit 0 with "browser test: ok", 1 with a
one-line reason.
"""
import re
import sys
import time

from selenium.webdriver.common.by import By

from browser_support import Browser

url, name, fps, artifacts = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
b = Browser(artifacts)
d = b.driver



try:
    b.open_live(url, name)
    b.wait_for("return Number(document.body.dataset.liveShown || 0) > 0", "the count of frames shown", 30)
    start, first = time.monotonic(), b.live_shown()
    time.sleep(3)
    seconds, last = time.monotonic() - start, b.live_shown()
    figures = d.find_element(By.ID, "live-figures").text
    rate = (last - first) / seconds
    dropped = re.search(r"(\d+) dropped", figures)
    b.shot("live-file")
    if not dropped:
        b.fail(f"no count of dropped frames in '{figures}'")
    if rate > 1.5 * fps:
        b.fail(f"read faster than its frame rate: {rate:.1f} frames a second for a {fps:g} fps file ({figures})")
    if rate < 0.5 * fps:
        b.fail(f"frames came too slowly: {rate:.1f} a second for a {fps:g} fps file ({figures})")
    if int(dropped[1]) > 4:
        b.fail(f"frames dropped: {figures}")
    print(f"browser test: ok ({rate:.1f} frames a second over {seconds:.1f} s for a {fps:g} fps file; {figures})")
finally:
    d.quit()
