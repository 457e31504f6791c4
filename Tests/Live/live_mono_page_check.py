"""The viewfinder's page with a monochrome sensor, in a real headless browser (Debian's chromium + chromedriver under
Selenium).

Usage: live_mono_page_check.py RAWBURST WORKDIR MONO_DNG

Replays the monochrome DNG MONO_DNG (`capture --replay ... --live 127.0.0.1:0`), opens the page it prints, waits for
previews and reads what the page drew: the picture's and the histogram's pixels (their largest difference between
red, green and blue), the clipping indicators' texts, visibility and state. Prints one JSON object; the Swift test
(MonochromeCLITests) asserts on it.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_process import LiveProcess  # noqa: E402

rawburst, work, dng = sys.argv[1:4]
env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"))
result = {}
live = LiveProcess([rawburst, "capture", "--replay", dng, "--fps", "5", "--frames", "150", "--live", "127.0.0.1:0",
                    "--live-size", "320", "-o", os.path.join(work, "out")], env=env)


def finish():
    try:
        live.proc.kill()
    except Exception:
        pass
    print(json.dumps(result))
    sys.exit(0)


url = live.wait_for_address(120)
if not url:
    result["error"] = "rawburst printed no address"
    result["stderr"] = live.stderr(4000)
    finish()

opts = Options()
opts.binary_location = "/usr/bin/chromium"
for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
          "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
          "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]:
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
try:
    driver.get(url)
    end = time.time() + 90
    while time.time() < end and not driver.execute_script("return window.rawburstLive && window.rawburstLive.frames > 2"):
        time.sleep(0.1)
    if not driver.execute_script("return window.rawburstLive && window.rawburstLive.frames > 2"):
        result["error"] = "the page drew fewer than three previews"
        result["stderr"] = live.stderr(4000)
    else:
        time.sleep(0.5)
        result.update(driver.execute_script("""
            function chroma(id) {
                const c = document.getElementById(id), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                let worst = 0, drawn = 0, distinct = new Set();
                for (let i = 0; i < d.length; i += 4) {
                    if (d[i + 3] === 0 || (d[i] === 0 && d[i + 1] === 0 && d[i + 2] === 0)) continue;
                    drawn++;
                    distinct.add(d[i]);
                    worst = Math.max(worst, Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]));
                }
                return {maxChroma: worst, drawn: drawn, distinct: distinct.size};
            }
            const meta = window.rawburstLive.lastMeta;
            return {
                picture: chroma('picture'), histogram: chroma('histogram'),
                clipR: document.getElementById('clip-r').textContent, clipROn: document.getElementById('clip-r').className,
                clipGHidden: document.getElementById('clip-g').hidden, clipBHidden: document.getElementById('clip-b').hidden,
                clipText: document.getElementById('clip-text').textContent,
                monochrome: meta.histogram.monochrome, clipped: meta.histogram.clipped,
                red: meta.histogram.red.length, luma: meta.histogram.luma.length
            };"""))
        result["browserLog"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
finally:
    driver.quit()
finish()
