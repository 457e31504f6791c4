"""Drives `rawburst live` from its page in a real headless browser (Debian's chromium + chromedriver under Selenium).

Usage: live_page_check.py RAWBURST WORKDIR PROFILE

Starts `rawburst live` on 127.0.0.1 (any free port) looking at the Siemens star through the sensor PROFILE, opens
the page it prints, and does what a photographer would: watches the preview, turns peaking on, focuses with the
slider, sets ISO and shutter, taps the picture, records a burst and quits. Screenshots of each state go to
WORKDIR/shots/. Prints one JSON object of what it measured; the Swift test (LiveBrowserCLITests) asserts on it.
"""
import json
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_process import LiveProcess  # noqa: E402

rawburst, work, profile = sys.argv[1:4]
shots = os.path.join(work, "shots")
os.makedirs(shots, exist_ok=True)
out = os.path.join(work, "out")
env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"))
result = {"shots": []}

live = LiveProcess([rawburst, "live", "--profile", profile, "--scene", "siemens-star", "--fps", "10",
                    "--live", "127.0.0.1:0", "--live-size", os.environ.get("LIVE_SIZE", "320"), "-o", out, "--json"],
                   env=env)
proc = live.proc


def fail(message):
    result["error"] = message
    result["stderr"] = live.stderr(4000)
    print(json.dumps(result))
    try:
        proc.kill()
    except Exception:
        pass
    sys.exit(0)


address = {"url": live.wait_for_address(120)}
if not address["url"]:
    fail("rawburst live printed no address")
result["url"] = address["url"]

opts = Options()
opts.binary_location = "/usr/bin/chromium"
for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
          "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
          "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]:
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
driver.set_script_timeout(30)


def state(expr):
    return driver.execute_script("return " + expr)


def wait_for(expr, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        value = state(expr)
        if value:
            return value
        time.sleep(0.1)
    return None


def shot(name):
    path = os.path.join(shots, name)
    driver.save_screenshot(path)
    result["shots"].append(path)


def set_value(element_id, value):
    driver.execute_script("""
        const e = document.getElementById(arguments[0]);
        e.value = arguments[1];
        e.dispatchEvent(new Event('input', {bubbles: true}));
        e.dispatchEvent(new Event('change', {bubbles: true}));""", element_id, value)


def newest(expr, after, seconds=30):
    """The value of `expr` on the newest frame once `window.rawburstLive.frames` has passed `after`."""
    if not wait_for(f"window.rawburstLive && window.rawburstLive.frames > {after}", seconds):
        return None
    return state(expr)


def overlay_marked():
    return state("""(() => { const c = document.getElementById('overlay');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()""")


try:
    driver.get(address["url"])
    if not wait_for("window.rawburstLive && window.rawburstLive.frames > 0", 90):
        fail("the page drew no frame")
    result["browserLog"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    # The preview changes over time.
    sequences = set()
    first = state("window.rawburstLive.frames")
    end = time.time() + 2
    while time.time() < end:
        sequences.add(state("window.rawburstLive.lastMeta && window.rawburstLive.lastMeta.sequenceNumber"))
        time.sleep(0.03)
    result["framesIn2s"] = state("window.rawburstLive.frames") - first
    result["distinctSequencesIn2s"] = len(sequences - {None})
    # Only looking: the burst panel as a person reads it (hidden parts are not in innerText), with frames let go.
    wait_for("window.rawburstLive.lastStatus && window.rawburstLive.lastStatus.burst.produced > 10", 30)
    result["burstPanelLooking"] = state("document.getElementById('burst').innerText")
    shot("01-preview.png")

    # Peaking on: marked pixels in the overlay.
    driver.find_element(By.ID, "peaking").click()
    set_value("focus", driver.execute_script("return document.getElementById('focus').max"))  # start from AF's reach
    n = state("window.rawburstLive.frames")
    newest("window.rawburstLive.frames", n + 3)
    # Focus far too close: the star blurs and loses its marks; then at the star's 2 m: sharp again.
    def focus_at(metres):
        """Peaking fractions of the first frames taken at `metres` (sent as the page's own commands are)."""
        driver.execute_script("window.rawburstLiveSend({cmd: 'set', focus: arguments[0]})", f"{metres}m")
        seen = state("window.rawburstLive.frames")
        fractions = []
        for _ in range(40):
            if not wait_for(f"window.rawburstLive.frames > {seen}", 20):
                break
            seen = state("window.rawburstLive.frames")
            focus = state("window.rawburstLive.lastMeta.sensors[0].settings.focus")
            if isinstance(focus, (int, float)) and abs(focus - metres) < 1e-6:
                fractions.append(state("window.rawburstLive.peakingFraction"))
                if len(fractions) >= 3:
                    break
        return fractions

    result["peakingFractionsAt0.1m"] = focus_at(0.1)
    shot("02-peaking-defocused.png")
    result["overlayMarkedDefocused"] = overlay_marked()
    result["peakingFractionsAt2m"] = focus_at(2.0)
    result["overlayMarkedFocused"] = overlay_marked()
    shot("03-peaking-focused.png")
    # The slider itself moves focus as well: the page sends what it shows.
    set_value("focus", driver.execute_script("return document.getElementById('focus').min"))
    wait_for("window.rawburstLive.lastStatus.controls.settings.focus == 0.1", 10)
    result["focusAfterSliderAtMinimum"] = state("window.rawburstLive.lastStatus.controls.settings.focus")

    # ISO and shutter from the page's controls.
    set_value("iso", "400")
    set_value("shutter", driver.execute_script("""
        const s = document.getElementById('shutter');
        const o = [...s.options].find(o => Math.abs(parseFloat(o.value) - 1/125) < 1e-9);
        return o ? o.value : null;"""))
    # The frames already made ahead keep the settings they were made with (the source's declared latency): wait for
    # the first frame made with the new ones, however many frames that takes on a busy machine.
    wait_for("(m => m && m.sensors[0].settings.iso == 400 && Math.abs(m.sensors[0].settings.shutter - 0.008) < 1e-9)"
             "(window.rawburstLive.lastMeta)", 30)
    meta = state("window.rawburstLive.lastMeta")
    result["previewISO"] = meta["sensors"][0]["settings"]["iso"]
    result["previewShutter"] = meta["sensors"][0]["settings"]["shutter"]
    result["readoutISO"] = driver.find_element(By.ID, "readout-iso").text
    result["readoutShutter"] = driver.find_element(By.ID, "readout-shutter").text
    # An ISO out of range is refused on the page with the reason.
    driver.execute_script("window.rawburstLiveSend({cmd: 'set', iso: 102400})")
    result["refusal"] = wait_for("(t => t.includes('102400') ? t : null)(document.getElementById('refusal').textContent)", 10)
    shot("04-manual-exposure.png")

    # Tap a point: AF and metering move there.
    picture = driver.find_element(By.ID, "picture")
    w, h = picture.size["width"], picture.size["height"]
    ActionChains(driver).move_to_element_with_offset(picture, int(w * 0.25 - w / 2), int(h * 0.75 - h / 2)).click().perform()
    n = state("window.rawburstLive.frames")
    newest("window.rawburstLive.frames", n + 3)
    # The status comes on its own beat, after the frames: wait for the one that carries the tap (a loaded machine's is
    # seconds late), and report the last one seen when none does.
    status_point = "window.rawburstLive.lastStatus.controls.settings.focusPoint"
    wait_for(f"(p => p && Math.abs(p.x - 0.25) < 0.03 && Math.abs(p.y - 0.75) < 0.03)({status_point})", 30)
    result["tapStatusFocusPoint"] = state(status_point)
    result["tapFrameMetering"] = state("window.rawburstLive.lastMeta.sensors[0].settings.metering")
    shot("05-tap.png")

    # Record, then stop: the take's DNGs and manifest.
    set_value("iso", "400")
    driver.find_element(By.ID, "record").click()
    result["recordingSeen"] = bool(wait_for("window.rawburstLive.lastStatus && window.rawburstLive.lastStatus.burst.state == 'recording'", 30))
    wait_for("window.rawburstLive.lastStatus.burst.written >= 5", 60)
    result["burstPanelRecording"] = state("document.getElementById('burst').innerText")
    shot("06-recording.png")
    driver.find_element(By.ID, "stop").click()
    wait_for("window.rawburstLive.lastStatus.burst.take == 2", 60)
    shot("07-after-stop.png")
    # Errors the page logged at any step (read again at the end: the first read was after the first frame).
    result["browserLog"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    driver.find_element(By.ID, "quit").click()
finally:
    try:
        driver.quit()
    except Exception:
        pass

try:
    result["exitCode"] = proc.wait(60)
except subprocess.TimeoutExpired:
    proc.kill()
    result["exitCode"] = None
time.sleep(0.2)
take = os.path.join(out, "take-001")
dngs = sorted(f for f in os.listdir(take) if f.endswith(".dng")) if os.path.isdir(take) else []
result["dngs"] = len(dngs)
if dngs:
    tags = json.loads(subprocess.run(["exiftool", "-j", "-n", "-ISO", "-ExposureTime", os.path.join(take, dngs[-1])],
                                     capture_output=True, text=True).stdout)[0]
    result["dngISO"] = tags.get("ISO")
    result["dngExposureTime"] = tags.get("ExposureTime")
manifest_path = os.path.join(take, "manifest.json")
if os.path.exists(manifest_path):
    manifest = json.load(open(manifest_path))
    burst = manifest["burst"]
    result["manifestWritten"] = burst["written"]
    # Frames shown before Record are dropped (outside-pre-record, or late: either way never to be recorded).
    trigger = burst.get("triggeredAtSequenceNumber")
    result["triggeredAt"] = trigger
    result["manifestDropsOtherThanBeforeTrigger"] = [d for d in burst["dropped"] if d["reason"] != "outside-pre-record"
                                                     and (trigger is None or d["sequenceNumber"] >= trigger)]
    vf = manifest.get("viewfinder") or {}
    result["manifestPreviewLatencies"] = len(vf.get("frames", []))
    result["manifestLatencyP95"] = vf.get("latencyP95Milliseconds")
result["stderr"] = live.stderr(2000)
print(json.dumps(result))
