"""What the editor's browser tests share: headless Chromium (Debian's) through
selenium, downloads into ARTIFACTS/downloads, numbered screenshots, waits on
conditions in the page, and a one-line failure (exit 1)."""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


class Browser:
    def __init__(self, artifacts, size=(1280, 800)):
        self.artifacts = os.path.abspath(artifacts)
        self.downloads = os.path.join(self.artifacts, "downloads")
        os.makedirs(self.downloads, exist_ok=True)
        for folder, suffix in ((self.artifacts, ".png"), (self.downloads, "")):
            for name in os.listdir(folder):
                path = os.path.join(folder, name)
                if os.path.isfile(path) and name.endswith(suffix):
                    os.remove(path)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={size[0]},{size[1]}", "--autoplay-policy=no-user-gesture-required"):
            options.add_argument(flag)
        options.add_experimental_option("prefs", {"download.default_directory": self.downloads, "download.prompt_for_download": False})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        self.step = 0

    def shot(self, name):
        self.step += 1
        path = os.path.join(self.artifacts, f"{self.step:02d}-{name}.png")
        self.driver.save_screenshot(path)
        return path

    def fail(self, message):
        self.shot("failure")
        try:
            errors = self.driver.find_element("id", "error").text
        except Exception:  # noqa: BLE001 - the page may be gone
            errors = ""
        print(f"browser test: {message}" + (f" (page says: {errors})" if errors else ""))
        self.driver.quit()
        sys.exit(1)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    # Mean absolute difference between the Faces tab's rendered result (the
    # server's answer, without the outlines the canvas carries) and the input,
    # inside a box [x, y, w, h] in pixels less `inset` of its size on each side.
    RESULT_DIFF = """
const [[bx, by, bw, bh], q] = arguments, p = photo(), W = p.original.naturalWidth, H = p.original.naturalHeight;
const x = Math.round(bx + bw * q), y = Math.round(by + bh * q), w = Math.max(1, Math.round(bw * (1 - 2 * q))), h = Math.max(1, Math.round(bh * (1 - 2 * q)));
const pixels = (img) => { const c = document.createElement('canvas'); c.width = W; c.height = H; const ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0); return ctx.getImageData(x, y, w, h).data; };
const a = pixels(p.image), o = pixels(p.original);
let total = 0;
for (let i = 0; i < a.length; i += 4) for (let k = 0; k < 3; k++) total += Math.abs(a[i + k] - o[i + k]);
return total / (w * h * 3);
"""

    def result_difference(self, box, inset=0.0):
        """How far the rendered result is from the input inside `box` (mean absolute difference, 0...255)."""
        return self.js(self.RESULT_DIFF, box, inset)

    def rendered(self):
        """How many answers the Faces tab has rendered (the page's counter)."""
        return int(self.js("return Number(document.body.dataset.rendered || 0)"))

    def wait_rendered(self, after, what):
        """Until the Faces tab has rendered more than `after` answers and is idle."""
        self.wait_for(f"return Number(document.body.dataset.rendered || 0) > {after} && document.body.dataset.busy === '0'", what, timeout=120)

    def wait_for(self, condition, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(condition):
                return
            time.sleep(0.1)
        self.fail(f"timed out waiting for {what}")

    def open_live(self, url, name):
        """The editor at URL on its Live tab with source NAME picked, once its first frame is in the <img>."""
        self.driver.get(url)
        self.driver.find_element(By.ID, "tab-live").click()
        self.wait_for("return Number(document.body.dataset.liveSources || 0) > 0", "the list of live sources")
        Select(self.driver.find_element(By.ID, "live-pick")).select_by_value(name)
        self.wait_for("return document.getElementById('live-view').naturalWidth > 0", "the first frame in the browser", 60)

    def live_shown(self):
        """Frames of the live source shown so far, as the Live tab reports them."""
        return int(self.js("return Number(document.body.dataset.liveShown || 0)"))

    def wait_downloads(self, suffixes, timeout):
        """One complete file for each suffix: Chromium writes NAME.crdownload
        and renames it when done; a file is taken once no partial file is left
        and every size held still for two polls. Returns {suffix: path}."""
        end, sizes = time.time() + timeout, {}
        while time.time() < end:
            names = sorted(os.listdir(self.downloads))
            partial = [n for n in names if n.endswith((".crdownload", ".tmp")) or n.startswith(".com.google.Chrome")]
            found = {s: next((n for n in names if n.endswith(s)), None) for s in suffixes}
            current = {n: os.path.getsize(os.path.join(self.downloads, n)) for n in found.values() if n}
            if not partial and all(found.values()) and current == sizes and all(current.values()):
                return {s: os.path.join(self.downloads, n) for s, n in found.items()}
            sizes = current
            time.sleep(0.25)
        self.fail(f"the downloads {suffixes} did not complete in {timeout} s (folder: {sorted(os.listdir(self.downloads))})")
