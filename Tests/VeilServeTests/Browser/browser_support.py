"""What the editor's browser tests share: headless Chromium (Debian's) through
selenium, downloads into ARTIFACTS/downloads, numbered screenshots, waits on
conditions in the page, and a one-line failure (exit 1)."""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


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
