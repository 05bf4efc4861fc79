#!/usr/bin/env python3
"""The web editor's text regions in headless Chromium (issue 21, item 3).

usage: text-browser-test.py URL PHOTO ARTIFACTS_DIR LABELS_JSON

Run by ServeBrowserTests (Tests/VeilServeTests); needs scripts/setup-browser.
PHOTO is a text scene (bench/text_devset.py --scene street, or a real car) as PNG, LABELS its
labels ({"plate": {"box": [x, y, w, h]}, "sign": {...}}, pixels).

With Cover text on, the photo is opened: text is found and the plate and the
shop sign are both covered in the rendered result, their quadrilaterals drawn
in violet over it. A click on the plate uncovers it: the result shows the
plate's pixels as the input's, the sign still covered, and the server did not
detect again. A second click covers it again. Then the match `plates`: the
plate covered, the sign left as it was. Cover text off: the regions leave
the state and the result is the input's there again. A screenshot of each state goes to
ARTIFACTS_DIR. Exit 0 on success, 1 with a one-line reason otherwise.
"""
import json
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser_support import Browser

url, photo, artifacts, labels = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
b = Browser(artifacts)

# The index of the text region whose quadrilateral holds a labelled box's centre.
REGION = """
const [bx, by, bw, bh] = arguments[0], p = photo(), W = p.original.naturalWidth, H = p.original.naturalHeight;
return textItems(p.state).findIndex((t) => inPolygon((bx + bw / 2) / W, (by + bh / 2) / H, t.corners));
"""
# Violet outline pixels on the canvas within 3 px of the midpoint of a region's top edge.
OUTLINE = """
const t = textItems(photo().state)[arguments[0]], c = document.getElementById('faces-canvas');
const x = Math.round((t.corners[0][0] + t.corners[1][0]) / 2 * c.width), y = Math.round((t.corners[0][1] + t.corners[1][1]) / 2 * c.height);
const d = c.getContext('2d').getImageData(x - 3, y - 3, 7, 7).data;
let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i + 2] > 200 && d[i + 1] < 190 && d[i + 2] - d[i + 1] > 50) n++;
return n;
"""


rendered, wait_rendered = b.rendered, b.wait_rendered


def diffs():
    # Inside the central half of each labelled box.
    return b.result_difference(labels["plate"]["box"], 0.25), b.result_difference(labels["sign"]["box"], 0.25)


def click_region(index):
    canvas = b.driver.find_element(By.ID, "faces-canvas")
    cx, cy = b.js("const t = textItems(photo().state)[arguments[0]]; return [t.corners.reduce((s, c) => s + c[0], 0) / 4, t.corners.reduce((s, c) => s + c[1], 0) / 4];", index)
    size = canvas.size
    before = rendered()
    ActionChains(b.driver).move_to_element_with_offset(canvas, int((cx - 0.5) * size["width"]), int((cy - 0.5) * size["height"])).click().perform()
    wait_rendered(before, f"the render after clicking text region t{index}")


try:
    b.driver.get(url)
    b.driver.find_element(By.ID, "cover-text").click()
    if b.driver.find_element(By.ID, "text-match-label").is_displayed() is False:
        b.fail("the match field is not shown once Cover text is on")
    b.driver.find_element(By.ID, "faces-file").send_keys(photo)
    wait_rendered(0, "the first render")
    count = int(b.js("return Number(document.body.dataset.texts || 0)"))
    plate, sign = b.js(REGION, labels["plate"]["box"]), b.js(REGION, labels["sign"]["box"])
    if plate < 0 or sign < 0 or plate == sign:
        b.fail(f"the plate and the sign are not two of the {count} text regions found (plate t{plate}, sign t{sign})")
    if b.js("return textItems(photo().state).every((t) => t.covered)") is not True:
        b.fail("not every text region is covered without a match")
    covered = diffs()
    b.shot("text-covered")
    if min(covered) < 8:
        b.fail(f"the plate and the sign do not both look covered (mean differences {covered[0]:.1f}, {covered[1]:.1f})")
    violet = b.js(OUTLINE, plate)
    if violet == 0:
        b.fail("the plate's quadrilateral is not drawn in violet over the photo")

    # A click on the plate uncovers it alone, without detecting again.
    click_region(plate)
    flags = b.js("return textItems(photo().state).map((t) => t.covered)")
    uncovered = diffs()
    b.shot("plate-uncovered")
    if flags[plate] or not all(f for i, f in enumerate(flags) if i != plate):
        b.fail(f"after the click the covered flags are {flags}, not every region but t{plate}")
    if uncovered[0] > 1:
        b.fail(f"the plate is still covered after the click (mean difference {uncovered[0]:.2f})")
    if uncovered[1] < 8:
        b.fail(f"the sign was uncovered with the plate (mean difference {uncovered[1]:.1f})")
    if b.js("return document.body.dataset.detector") != "reused":
        b.fail("uncovering a text region ran the detector again")
    if b.js("return document.body.dataset.textsCovered") != str(count - 1):
        b.fail(f"the page counts {b.js('return document.body.dataset.textsCovered')} covered text regions, not {count - 1}")

    # Clicked again: covered again.
    click_region(plate)
    again = diffs()
    if again[0] < 8 or not b.js("return photo().state.texts.items[arguments[0]].covered", plate):
        b.fail(f"the plate is not covered again after a second click (mean difference {again[0]:.1f})")
    b.shot("plate-covered-again")

    # Only plates: found again with the match, the sign left alone.
    before = rendered()
    field = b.driver.find_element(By.ID, "text-match")
    field.send_keys("plates")
    b.js("document.getElementById('text-match').dispatchEvent(new Event('change'))")
    wait_rendered(before, "the render with the match plates")
    b.wait_for("return photo().state.texts && photo().state.texts.match === 'plates' && document.body.dataset.busy === '0'", "the state of the match plates")
    matched = diffs()
    b.shot("plates-only")
    if matched[0] < 8 or matched[1] > 1:
        b.fail(f"with the match plates the plate (difference {matched[0]:.1f}) should be covered and the sign ({matched[1]:.2f}) not")

    # Cover text off: the regions leave the state, and the plate is the input's again.
    before = rendered()
    b.driver.find_element(By.ID, "cover-text").click()
    wait_rendered(before, "the render with Cover text off")
    off = diffs()
    b.shot("text-off")
    if b.js("return photo().state.texts ? photo().state.texts.items.length : -1") != -1 or max(off) > 1:
        b.fail(f"with Cover text off the state keeps text or the plate/sign differ from the input ({off[0]:.2f}, {off[1]:.2f})")
    print(f"browser test: ok ({count} text regions; plate/sign difference covered {covered[0]:.1f}/{covered[1]:.1f}, "
          f"plate uncovered {uncovered[0]:.2f}/{uncovered[1]:.1f}, plates only {matched[0]:.1f}/{matched[1]:.2f})")
finally:
    b.driver.quit()
