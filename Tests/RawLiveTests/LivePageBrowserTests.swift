import Foundation
import RawCore
import RawDevelop
import RawImageIO
import Synchronization
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// The page in headless chromium against a server fed synthetic frames: it renders without script errors, draws
    /// changing frames, shows the readouts, draws peaking marks only when asked, and its buttons send commands.
    /// Needs Selenium in the tests' Python (`$PYTHON`, or `RAWBURST_SELENIUM_PYTHON`) and chromium + chromedriver, which
    /// `make deps` installs; `RAWBURST_LIVE_SHOTS` names a folder for the screenshots.
    @Suite struct LivePageBrowserTests {
        static let python = ProcessInfo.processInfo.environment["RAWBURST_SELENIUM_PYTHON"] ?? Python.executableName

        /// A 320x214 picture with a bright bar moving with the sequence number (so every frame differs).
        static func movingJPEG(_ sequence: UInt64) -> [UInt8] {
            let width = 320, height = 214
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            let bar = Int(sequence * 7 % UInt64(width))
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    let lit = abs(x - bar) < 12
                    pixels[i] = lit ? 250 : UInt8(x * 200 / width)
                    pixels[i + 1] = lit ? 250 : UInt8(y * 200 / height)
                    pixels[i + 2] = lit ? 250 : 90
                }
            }
            let image = try! DevelopedImage(width: width, height: height, samples: .uint8(pixels), colorSpace: .sRGB,
                                            metadata: try! FrameMetadata())
            return try! JPEGEncoder(quality: 85).encode(image)
        }

        @Test func pageRendersFramesOverlaysAndSendsCommands() throws {
            // Installed by `make deps`: missing, the test fails rather than passing unseen.
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "chromium-driver is missing: make deps")
            try #require(Python.hasModule("selenium"), "selenium is missing: make deps")
            let tmp = try TemporaryDirectory()
            let shots = ProcessInfo.processInfo.environment["RAWBURST_LIVE_SHOTS"] ?? tmp.path
            let harness = try LiveHarness(folder: tmp.path, token: "page-token")
            defer { harness.stop() }
            let producing = Atomic<Bool>(true)
            let producer = Thread {
                var sequence: UInt64 = 1
                while producing.load(ordering: .relaxed) {
                    let wanted = harness.server.overlays
                    var frame = LiveFrames.frame(sequence, masks: wanted.peaking || wanted.zebra)
                    frame.jpeg = Self.movingJPEG(sequence)
                    frame.width = 320
                    frame.height = 214
                    frame.panes = [try! PixelRect(top: 0, left: 0, height: 214, width: 320)]
                    frame.peaking = wanted.peaking ? LiveFrames.mask(width: 160, height: 107, seed: 2) : nil
                    frame.zebra = wanted.zebra ? LiveFrames.mask(width: 40, height: 27, seed: 1) : nil
                    harness.server.publish(frame)
                    if sequence % 5 == 0 { harness.server.publish(LiveFrames.status()) }
                    sequence += 1
                    Thread.sleep(forTimeInterval: 1.0 / 20)
                }
            }
            harness.server.publish(LiveFrames.status())
            producer.start()
            defer { producing.store(false, ordering: .relaxed) }
            let script = tmp.url.appendingPathComponent("page_check.py")
            try Data(Self.check.utf8).write(to: script)
            let result = try ExternalTool(Self.python).run([script.path, harness.address.url, shots], timeout: 90)
            try result.requireSuccess()
            let report = try JSONValue(parsing: result.standardOutput)
            #expect(report["errors"]?.array?.isEmpty == true, "browser console errors: \(report["errors"] ?? .null)")
            #expect((report["distinctStates"]?.int ?? 0) >= 10, "distinct canvas states in 2 s: \(report["distinctStates"] ?? .null)")
            #expect((report["framesIn2s"]?.int ?? 0) >= 10)
            #expect(report["readoutIso"]?.string == "400 A")
            #expect(report["readoutShutter"]?.string == "1/100")
            #expect(report["readoutFocus"]?.string == "1.50 m")
            #expect(report["state"]?.string?.lowercased() == "recording #1", "the badge (upper case by CSS)")
            #expect(report["overlayMarkedOff"]?.int == 0, "no peaking marks while peaking is off")
            #expect((report["overlayMarkedOn"]?.int ?? 0) > 1000, "peaking marks drawn: \(report["overlayMarkedOn"] ?? .null)")
            #expect(report["peakingFraction"]?.double == LiveFrames.mask(width: 160, height: 107, seed: 2).fraction)
            #expect((report["zebraPixels"]?.int ?? 0) > 500, "zebra stripes drawn: \(report["zebraPixels"] ?? .null)")
            #expect(report["refusal"]?.string == "iso: ISO 12800 is outside 100...6400")
            let commands = harness.handler.commands
            #expect(commands.contains(.trigger))
            #expect(commands.contains(.setISO(12800)))
            #expect(commands.contains(.autoExposureLock(true)))
            #expect(commands.contains { if case .tap = $0 { true } else { false } })
        }

        /// The Selenium side (chromium headless, an explicit chromedriver: Selenium Manager never downloads anything).
        static let check = #"""
            import json, sys, time, hashlib
            from selenium import webdriver
            from selenium.webdriver.chrome.options import Options
            from selenium.webdriver.chrome.service import Service
            from selenium.webdriver.common.by import By
            from selenium.webdriver.support.ui import Select
            url, shots = sys.argv[1], sys.argv[2]
            opts = Options()
            opts.binary_location = "/usr/bin/chromium"
            for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,760",
                      "--no-first-run", "--disable-background-networking", "--disable-component-update",
                      "--disable-default-apps", "--disable-sync"]:
                opts.add_argument(a)
            opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
            driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
            out = {}
            try:
                driver.get(url)
                deadline = time.time() + 15
                while time.time() < deadline and driver.execute_script("return window.rawburstLive.frames") < 2:
                    time.sleep(0.05)
                time.sleep(0.5)
                sample = "const c = document.getElementById('picture'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 0; for (let i = 0; i < d.length; i += 97) { h = (h * 31 + d[i]) >>> 0; } return h;"
                f0 = driver.execute_script("return window.rawburstLive.frames")
                states, end = set(), time.time() + 2
                while time.time() < end:
                    states.add(driver.execute_script(sample))
                    time.sleep(0.03)
                out["distinctStates"] = len(states)
                out["framesIn2s"] = driver.execute_script("return window.rawburstLive.frames") - f0
                overlay = "const c = document.getElementById('overlay'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) { if (d[i] > 200 && d[i + 1] < 80 && d[i + 3] > 200) n++; } return n;"
                out["overlayMarkedOff"] = driver.execute_script(overlay)
                driver.save_screenshot(shots + "/live-page.png")
                driver.find_element(By.ID, "peaking").click()
                deadline = time.time() + 5
                while time.time() < deadline and driver.execute_script("return window.rawburstLive.peakingFraction") is None:
                    time.sleep(0.05)
                time.sleep(0.3)
                out["overlayMarkedOn"] = driver.execute_script(overlay)
                out["peakingFraction"] = driver.execute_script("return window.rawburstLive.peakingFraction")
                driver.save_screenshot(shots + "/live-page-peaking.png")
                driver.find_element(By.ID, "zebra").click()
                time.sleep(0.5)
                stripes = "const c = document.getElementById('overlay'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) { if (d[i] > 200 && d[i + 1] > 200 && d[i + 2] > 200 && d[i + 3] > 150) n++; } return n;"
                out["zebraPixels"] = driver.execute_script(stripes)
                driver.save_screenshot(shots + "/live-page-zebra.png")
                for key, ident in [("readoutIso", "readout-iso"), ("readoutShutter", "readout-shutter"),
                                   ("readoutFocus", "readout-focus"), ("state", "state")]:
                    out[key] = driver.find_element(By.ID, ident).text
                Select(driver.find_element(By.ID, "iso")).select_by_value("6400")
                driver.execute_script("const s = document.getElementById('iso'); const o = document.createElement('option'); o.value = '12800'; s.appendChild(o); s.value = '12800'; s.dispatchEvent(new Event('change'));")
                driver.find_element(By.ID, "ae-lock").click()
                driver.find_element(By.ID, "record").click()
                driver.find_element(By.ID, "overlay").click()
                deadline = time.time() + 5
                while time.time() < deadline and not driver.find_element(By.ID, "refusal").text:
                    time.sleep(0.05)
                out["refusal"] = driver.find_element(By.ID, "refusal").text
                driver.set_window_size(390, 844)
                time.sleep(0.4)
                driver.save_screenshot(shots + "/live-page-phone.png")
                out["errors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            finally:
                driver.quit()
            print(json.dumps(out))
            """#
    }
}
