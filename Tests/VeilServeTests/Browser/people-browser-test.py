#!/usr/bin/env python3
"""The web editor's people in headless Chromium (issue 31, item 3).

usage: people-browser-test.py URL PHOTO ARTIFACTS_DIR LABELS_JSON

Run by ServeBrowserTests (Tests/VeilServeTests); needs scripts/setup-browser.
PHOTO is two people standing apart (PeopleScene.twoApart) as PNG, LABELS their
bodies ({"bodies": [[x, y, w, h], [x, y, w, h]]}, pixels, below each face).

With Cover people on, the photo is opened: both people are found and covered
(their bodies changed in the rendered result), each outlined in orange. A
click on the first body uncovers that person alone: the body's pixels are the
input's, the other person still covered, nothing detected again. A second
click covers them again. Cover people off: the people leave the state and the
bodies are the input's again (faces stay covered). A screenshot of each state
goes to ARTIFACTS_DIR. Exit 0 on success, 1 with a one-line reason otherwise.
"""
import json
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser_support import Browser

url, photo, artifacts, labels = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
b = Browser(artifacts)
bodies = labels["bodies"]

# The person whose silhouette holds a box's centre.
PERSON = """
const [x, y, w, h] = arguments[0], p = photo(), W = p.original.naturalWidth, H = p.original.naturalHeight;
const hits = personAt(p.state, (x + w / 2) / W, (y + h / 2) / H);
return hits.length ? hits[0].person : -1;
"""
# Orange outline pixels anywhere on the canvas.
ORANGE = """
const c = document.getElementById('faces-canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 230 && d[i + 1] > 110 && d[i + 1] < 170 && d[i + 2] < 40) n++;
return n;
"""


rendered, wait_rendered = b.rendered, b.wait_rendered


def diffs():
    return [b.result_difference(box) for box in bodies]


def click(box, what):
    canvas = b.driver.find_element(By.ID, "faces-canvas")
    W, H = b.js("return [photo().original.naturalWidth, photo().original.naturalHeight]")
    size = canvas.size
    cx, cy = (box[0] + box[2] / 2) / W, (box[1] + box[3] / 2) / H
    before = rendered()
    ActionChains(b.driver).move_to_element_with_offset(canvas, int((cx - 0.5) * size["width"]), int((cy - 0.5) * size["height"])).click().perform()
    wait_rendered(before, what)


try:
    b.driver.get(url)
    b.driver.find_element(By.ID, "cover-people").click()
    b.driver.find_element(By.ID, "faces-file").send_keys(photo)
    wait_rendered(0, "the first render")
    count = int(b.js("return Number(document.body.dataset.people || 0)"))
    if count != 2:
        b.fail(f"{count} people found, not the 2 standing apart")
    first, second = b.js(PERSON, bodies[0]), b.js(PERSON, bodies[1])
    if first < 0 or second < 0 or first == second:
        b.fail(f"the two bodies are not two people's silhouettes (p{first}, p{second})")
    covered = diffs()
    b.shot("people-covered")
    if min(covered) < 5:
        b.fail(f"the two bodies do not both look covered (mean differences {covered[0]:.1f}, {covered[1]:.1f})")
    if b.js(ORANGE) < 50:
        b.fail("the people are not outlined in orange")

    click(bodies[0], "the render after clicking the first person")
    flags = b.js("return peopleItems(photo().state).map((t) => t.covered)")
    uncovered = diffs()
    b.shot("first-uncovered")
    if flags[first] or not flags[second]:
        b.fail(f"after the click the covered flags are {flags}, not p{second} alone")
    if uncovered[0] > 1 or uncovered[1] < 5:
        b.fail(f"after the click the bodies differ from the input by {uncovered[0]:.2f} and {uncovered[1]:.1f}: not the first uncovered alone")
    if b.js("return document.body.dataset.detector") != "reused":
        b.fail("uncovering a person ran the models again")

    click(bodies[0], "the render after clicking the first person again")
    again = diffs()
    if again[0] < 5:
        b.fail(f"the first person is not covered again after a second click (mean difference {again[0]:.1f})")
    b.shot("first-covered-again")

    before = rendered()
    b.driver.find_element(By.ID, "cover-people").click()
    wait_rendered(before, "the render with Cover people off")
    off = diffs()
    b.shot("people-off")
    if b.js("return photo().state.people ? 1 : 0") != 0 or max(off) > 1:
        b.fail(f"with Cover people off the state keeps people or the bodies differ from the input ({off[0]:.2f}, {off[1]:.2f})")
    print(f"browser test: ok (2 people; bodies covered {covered[0]:.1f}/{covered[1]:.1f}, first uncovered {uncovered[0]:.2f}/{uncovered[1]:.1f}, "
          f"covered again {again[0]:.1f}, off {off[0]:.2f}/{off[1]:.2f})")
finally:
    b.driver.quit()
