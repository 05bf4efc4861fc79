#!/usr/bin/env python3
"""The web editor in headless Chromium (Debian's), driven through selenium.

usage: serve-browser-test.py URL PHOTO ARTIFACTS_DIR FACELESS_PHOTO NOT_AN_IMAGE

Run by ServeBrowserTests (Tests/VeilServeTests); needs scripts/setup-browser.

Opens the page, uploads PHOTO in the Faces tab, checks in the rendered canvas
that the face is covered (pixels differ from the original inside the face),
clicks it to uncover it (pixels equal the original), confirms, downloads the
photo and the editing state (the status says confirmed only once Confirm is
pressed, and no longer once a box is added); then (issue 19's editor fixes) opens a
faceless photo with a file that is no image: the strip says how many faces
each photo has, the bad file leaves no tab and its error goes once another
photo is shown; outlines can be hidden; Solid takes a colour and the picture
style an uploaded picture; the same photo under a long name says its faces
were found before (not "saved edits"), and its long status moves nothing on
the page; then lifts the subject in the Subject tab, and
with Crop on a tap on the cropped view is mapped back through the crop.
A screenshot of each state goes to ARTIFACTS_DIR. Exit 0 on success, 1 with a
one-line reason otherwise.
"""
import json
import os
import shutil
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

url, photo, artifacts = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
faceless, not_image = os.path.abspath(sys.argv[4]), os.path.abspath(sys.argv[5])
downloads = os.path.join(artifacts, "downloads")
os.makedirs(downloads, exist_ok=True)
for name in os.listdir(artifacts):
    if name.endswith(".png"):
        os.remove(os.path.join(artifacts, name))
for name in os.listdir(downloads):
    os.remove(os.path.join(downloads, name))

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800"):
    options.add_argument(flag)
options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
step = 0


def shot(name):
    global step
    step += 1
    driver.save_screenshot(os.path.join(artifacts, f"{step:02d}-{name}.png"))


def fail(message):
    shot("failure")
    errors = driver.find_element(By.ID, "error").text
    print(f"browser test: {message}" + (f" (page says: {errors})" if errors else ""))
    driver.quit()
    sys.exit(1)


def wait_for(condition, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script(condition):
            return
        time.sleep(0.1)
    fail(f"timed out waiting for {what}")


def wait_downloads(folder, timeout):
    """The two downloads, complete: Chromium writes NAME.crdownload (a cold
    profile is slow to start) and renames it when done; a file is taken once
    no partial file is left and its size held still for two polls, and the
    state is parsed, retried until the deadline. Returns (names, state)."""
    end = time.time() + timeout
    sizes, last_error = {}, "nothing downloaded"
    while time.time() < end:
        names = sorted(os.listdir(folder))
        partial = [n for n in names if n.endswith((".crdownload", ".tmp")) or n.startswith(".com.google.Chrome")]
        images = [n for n in names if n.endswith(".png")]
        states = [n for n in names if n.endswith(".json")]
        current = {n: os.path.getsize(os.path.join(folder, n)) for n in images + states}
        stable = current and current == sizes and all(current.values())
        sizes = current
        if not partial and images and states and stable:
            try:
                with open(os.path.join(folder, states[0])) as f:
                    return names, json.load(f)
            except (OSError, ValueError) as error:
                last_error = f"the state is not readable yet: {error}"
        else:
            last_error = f"downloads so far: {names}"
        time.sleep(0.25)
    fail(f"the downloads did not complete in {timeout} s ({last_error})")


def status_text():
    """The whole status line (its text, not what the ellipsis leaves shown)."""
    return driver.execute_script("return document.getElementById('status-text').textContent")


def layout_now():
    """Where the page's parts sit: what a status line must never move."""
    return driver.execute_script("""
const at = (q) => document.querySelector(q).getBoundingClientRect();
return {header: at('header').bottom, toolbar: at('#faces .toolbar').top, toolbarBottom: at('#faces .toolbar').bottom,
        strip: at('#photos').top, canvas: at('#faces-canvas').top, canvasLeft: at('#faces-canvas').left};
""")


def rendered():
    return int(driver.execute_script("return Number(document.body.dataset.rendered || 0)"))


def wait_rendered(after, what):
    wait_for(f"return Number(document.body.dataset.rendered || 0) > {after} && document.body.dataset.busy === '0'", what)


# Mean absolute difference between the canvas and the original photo inside
# the inner 60% of the first detected face.
FACE_DIFF = """
const p = photo(), f = p.state.faces.faces[0].box, c = document.getElementById('faces-canvas');
const W = c.width, H = c.height;
const x = Math.round((f.x + f.width * 0.2) * W), y = Math.round((f.y + f.height * 0.2) * H);
const w = Math.round(f.width * 0.6 * W), h = Math.round(f.height * 0.6 * H);
const shown = c.getContext('2d').getImageData(x, y, w, h).data;
const o = document.createElement('canvas'); o.width = W; o.height = H;
const octx = o.getContext('2d'); octx.drawImage(p.original, 0, 0);
const orig = octx.getImageData(x, y, w, h).data;
let total = 0;
for (let i = 0; i < shown.length; i += 4) for (let k = 0; k < 3; k++) total += Math.abs(shown[i + k] - orig[i + k]);
return total / (w * h * 3);
"""

try:
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    driver.get(url)
    if "Veil" not in driver.title:
        fail(f"the page title is {driver.title!r}")
    shot("empty")

    # Open the photo: the face is covered at once.
    driver.find_element(By.ID, "faces-file").send_keys(photo)
    wait_rendered(0, "the first render")
    if driver.execute_script("return document.body.dataset.faces") != "1":
        fail("expected one face in the sample photo")
    covered = driver.execute_script(FACE_DIFF)
    shot("covered")
    if covered < 8:
        fail(f"the face does not look covered (mean difference {covered:.1f})")
    said = status_text()
    if "not detected again" in said or "saved edits" in said:
        fail(f"a fresh server's first answer says it did not detect: {said!r}")

    # Click the face: uncovered.
    canvas = driver.find_element(By.ID, "faces-canvas")
    box = driver.execute_script("const f = photo().state.faces.faces[0].box; return [f.x + f.width / 2, f.y + f.height / 2];")
    size = canvas.size
    before = rendered()
    ActionChains(driver).move_to_element_with_offset(canvas, int((box[0] - 0.5) * size["width"]), int((box[1] - 0.5) * size["height"])).click().perform()
    wait_rendered(before, "the render after the click")
    uncovered = driver.execute_script(FACE_DIFF)
    shot("uncovered")
    if uncovered > 1:
        fail(f"the face is still covered after the click (mean difference {uncovered:.1f})")
    # An edit is not a confirmation: only Confirm says confirmed.
    if driver.execute_script("return document.body.dataset.confirmed") != "0" or "confirmed" in status_text():
        fail(f"the photo is said confirmed before Confirm was pressed: {status_text()!r}")

    # Confirm, then download the photo and its state.
    before = rendered()
    driver.find_element(By.ID, "confirm").click()
    wait_rendered(before, "the render after confirming")
    if driver.execute_script("return document.body.dataset.confirmed") != "1":
        fail("confirming did not mark the state confirmed")
    if not status_text().endswith(", confirmed."):
        fail(f"the status does not say confirmed after Confirm: {status_text()!r}")
    shot("confirmed")
    driver.find_element(By.ID, "download-result").click()
    driver.find_element(By.ID, "download-state").click()
    names, state = wait_downloads(downloads, 30)
    images = [n for n in names if n.endswith(".png")]
    with open(os.path.join(downloads, images[0]), "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("the downloaded photo is not a PNG")
    if state["regions"] != {"status": "confirmed", "regions": []}:
        fail(f"the downloaded state has regions {state['regions']}")
    shot("downloaded")

    # Drag a box, then paint with the pen: both cover more, re-rendered live.
    def drag(tool, x0, y0, x1, y1):
        driver.find_element(By.ID, tool).click()
        before = rendered()
        w, h = canvas.size["width"], canvas.size["height"]
        chain = ActionChains(driver).move_to_element_with_offset(canvas, int((x0 - 0.5) * w), int((y0 - 0.5) * h)).click_and_hold()
        for i in range(1, 9):
            t = i / 8
            chain = chain.move_to_element_with_offset(canvas, int((x0 + (x1 - x0) * t - 0.5) * w), int((y0 + (y1 - y0) * t - 0.5) * h))
        chain.release().perform()
        wait_rendered(before, f"the render after the {tool} drag")

    drag("tool-box", 0.70, 0.05, 0.95, 0.30)
    if driver.execute_script("return document.body.dataset.covered") != "1":
        fail("the dragged box is not among the covered regions")
    if driver.execute_script("return document.body.dataset.confirmed") != "0" or "confirmed" in status_text():
        fail(f"a box added after Confirm is still said confirmed: {status_text()!r}")
    shot("box")
    drag("tool-pen", 0.05, 0.60, 0.30, 0.95)
    strokes = driver.execute_script("return photo().state.strokes.length")
    if strokes != 1:
        fail(f"expected one pen stroke in the state, found {strokes}")
    shot("pen")

    # The strip: as photos load, each says how many faces it has; a file that
    # is no image leaves no tab, and its error goes once another photo is shown.
    before = rendered()
    driver.find_element(By.ID, "faces-file").send_keys(faceless + "\n" + not_image)
    wait_for("return Number(document.body.dataset.refused || 0) > 0 && document.body.dataset.busy === '0'", "the refusal of the file that is no image")
    wait_for(f"return Number(document.body.dataset.rendered || 0) > {before}", "the faceless photo")
    strip = driver.execute_script("return [...document.querySelectorAll('#photos button')].map((b) => b.textContent)")
    if len(strip) != 2 or "notes.jpg" in " ".join(strip):
        fail(f"the strip holds {strip}, not the two photos")
    if not strip[0].endswith("1 face") or not strip[1].endswith("no faces"):
        fail(f"the strip does not say how many faces each photo has: {strip}")
    if not driver.find_element(By.ID, "error").is_displayed() or "notes.jpg" not in driver.find_element(By.ID, "error").text:
        fail("the file that is no image was not reported")
    shot("strip")
    driver.execute_script("showPhoto(0)")
    if driver.find_element(By.ID, "error").is_displayed():
        fail("the error banner stays up while another photo is shown")

    # Outlines hidden: the canvas is then the rendered photo itself.
    OUTLINE_DIFF = """
const p = photo(), c = document.getElementById('faces-canvas'), o = document.createElement('canvas');
o.width = c.width; o.height = c.height; o.getContext('2d').drawImage(p.image, 0, 0);
const a = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, b = o.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let n = 0; for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
return n;
"""
    if driver.execute_script(OUTLINE_DIFF) == 0:
        fail("no outlines are drawn over the photo")
    driver.find_element(By.ID, "outlines").click()
    if driver.execute_script(OUTLINE_DIFF) != 0:
        fail("outlines are still drawn once hidden")
    shot("outlines-hidden")
    driver.find_element(By.ID, "outlines").click()

    # Solid takes a colour; the picture style an uploaded picture.
    # (The face was uncovered above: cover it again first.)
    before = rendered()
    driver.execute_script("toggleAt({x: (photo().state.faces.faces[0].box.x + photo().state.faces.faces[0].box.width / 2) * fcanvas.width, y: (photo().state.faces.faces[0].box.y + photo().state.faces.faces[0].box.height / 2) * fcanvas.height})")
    wait_rendered(before, "the face covered again")
    CENTRE = """
const f = photo().state.faces.faces[0].box, c = document.getElementById('faces-canvas');
return Array.from(c.getContext('2d').getImageData(Math.round((f.x + f.width / 2) * c.width), Math.round((f.y + f.height / 2) * c.height), 1, 1).data.slice(0, 3));
"""
    before = rendered()
    driver.execute_script("document.getElementById('style').value = 'solid'; document.getElementById('style').dispatchEvent(new Event('change'));")
    wait_rendered(before, "the solid style")
    before = rendered()
    driver.execute_script("const c = document.getElementById('solid-color'); c.value = '#ff00ff'; c.dispatchEvent(new Event('change'));")
    wait_rendered(before, "the solid colour")
    centre = driver.execute_script(CENTRE)
    if not (centre[0] > 200 and centre[1] < 60 and centre[2] > 200):
        fail(f"Solid with #ff00ff paints {centre} at the face's centre")
    shot("solid-magenta")
    driver.execute_script("document.getElementById('style').value = 'image'; document.getElementById('style').dispatchEvent(new Event('change'));")
    before = rendered()
    driver.find_element(By.ID, "picture-file").send_keys(faceless)
    wait_rendered(before, "the picture style")
    centre = driver.execute_script(CENTRE)
    style = driver.execute_script("return photo().state.style")
    if not style.startswith("image=") or max(abs(v - 128) for v in centre) > 12:
        fail(f"the picture style is {style!r} and paints {centre} at the face's centre (the picture is grey 128)")
    shot("picture")

    # The same photo again under a long name: the status says what happened (the
    # faces found before reused, no edits brought back) and, cut to one line,
    # moves nothing: the header, toolbar, strip and photo keep their places.
    driver.execute_script("showPhoto(0)")
    before = rendered()
    layout = layout_now()
    long_name = os.path.join(tempfile.mkdtemp(), "holiday-2026-12-04-the-whole-family-on-the-terrace-before-lunch-IMG_20261204_101010-edited-final" + os.path.splitext(photo)[1])
    shutil.copy(photo, long_name)
    driver.find_element(By.ID, "faces-file").send_keys(long_name)
    wait_rendered(before, "the photo under a long name")
    said = status_text()
    if "(found before in the same photo, not detected again)" not in said or "saved edits" in said:
        fail(f"a first open that reused the detection says {said!r}")
    if driver.execute_script("return document.getElementById('status-text').title") != said:
        fail("the status line's title does not hold the whole status")
    cut = driver.execute_script("const t = document.getElementById('status-text'); return [t.scrollWidth, t.clientWidth];")
    if cut[0] <= cut[1]:
        fail(f"the status {said!r} fits its line ({cut}): too short to test the layout")
    moved = {k: (layout[k], v) for k, v in layout_now().items() if abs(v - layout[k]) > 0.5}
    shot("long-status")
    if moved:
        fail(f"a long status moved the page (before, after): {moved}")

    # Narrow window: still usable.
    driver.set_window_size(600, 800)
    shot("narrow")
    driver.set_window_size(1280, 800)

    # Subject tab: click the subject, get a cut-out.
    driver.find_element(By.ID, "tab-subject").click()
    driver.find_element(By.ID, "subject-file").send_keys(photo)
    wait_for("return !document.getElementById('subject-canvas').hidden", "the subject photo")
    scanvas = driver.find_element(By.ID, "subject-canvas")
    ActionChains(driver).move_to_element_with_offset(scanvas, 0, int(scanvas.size["height"] * 0.2)).click().perform()
    wait_for("return Number(document.body.dataset.lifted || 0) > 0 && document.body.dataset.busy === '0'", "the lifted subject")
    shot("subject")

    # Crop on: the result shows part of the photo; a tap on it is mapped back through the crop.
    before = int(driver.execute_script("return Number(document.body.dataset.lifted || 0)"))
    driver.find_element(By.ID, "crop").click()
    wait_for(f"return Number(document.body.dataset.lifted || 0) > {before} && document.body.dataset.busy === '0'", "the cropped subject")
    crop = driver.execute_script("return subject.crop")
    if not crop:
        fail("the cropped answer did not say where it sits in the photo")
    before = int(driver.execute_script("return Number(document.body.dataset.lifted || 0)"))
    ActionChains(driver).move_to_element_with_offset(scanvas, 0, int(scanvas.size["height"] * 0.25)).click().perform()
    wait_for(f"return Number(document.body.dataset.lifted || 0) > {before} && document.body.dataset.busy === '0'", "the tap on the cropped view")
    tap = [float(v) for v in driver.execute_script("return document.body.dataset.tap").split(",")]
    W, H = driver.execute_script("return [subject.original.naturalWidth, subject.original.naturalHeight]")
    want = [(crop["x"] + crop["width"] * 0.5) / W, (crop["y"] + crop["height"] * 0.75) / H]
    if abs(tap[0] - want[0]) > 0.02 or abs(tap[1] - want[1]) > 0.02:
        fail(f"the tap on the cropped view was sent as {tap}, not mapped through the crop {crop} ({want})")
    shot("subject-cropped")
    print(f"browser test: ok (face difference covered {covered:.1f}, uncovered {uncovered:.2f}; downloads {names})")
finally:
    driver.quit()
