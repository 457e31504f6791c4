/// The page's script, second part: the readouts (from the newest frame's settings and the status), the burst figures,
/// the controls and what they send, and refusals.
enum LivePageControls {
    static let script = #"""
        const isoStops = [25, 50, 64, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000,
                          2500, 3200, 4000, 5000, 6400, 8000, 10000, 12800, 16000, 20000, 25600, 51200, 102400];
        const shutterStops = [1 / 32000, 1 / 16000, 1 / 8000, 1 / 4000, 1 / 2000, 1 / 1000, 1 / 500, 1 / 250, 1 / 125,
                              1 / 60, 1 / 30, 1 / 15, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8, 15, 30];
        const controlsState = { rangesKey: "", presetsKey: "", minimumFocus: 0.1, editing: {} };

        function shutterText(seconds) {
          if (!(seconds > 0)) { return "–"; }
          if (seconds < 0.95) { return "1/" + Math.round(1 / seconds); }
          return (Math.round(seconds * 10) / 10) + "s";
        }
        function focusText(focus) {
          if (focus === "infinity" || focus === null || focus === undefined) { return focus === "infinity" ? "∞" : "–"; }
          return focus < 10 ? focus.toFixed(2) + " m" : focus.toFixed(1) + " m";
        }
        function numberText(v, digits) { return typeof v === "number" ? v.toFixed(digits) : "–"; }

        function frameReadouts(meta) {
          $("frame-counter").textContent = String(meta.sequenceNumber);
          const fps = view.drawnTimes.length > 1
            ? (view.drawnTimes.length - 1) * 1000 / (view.drawnTimes[view.drawnTimes.length - 1] - view.drawnTimes[0]) : 0;
          $("fps").textContent = fps.toFixed(1);
          const sensor = (meta.sensors || [])[0];
          if (!sensor) { return; }
          const s = sensor.settings, automatic = s.automatic || [];
          const mark = (name, text) => automatic.includes(name) ? text + " A" : text;
          $("readout-iso").textContent = mark("iso", String(Math.round(s.iso)));
          $("readout-shutter").textContent = mark("shutter", shutterText(s.shutter));
          $("readout-aperture").textContent = s.aperture > 0 ? "f/" + numberText(s.aperture, 1) : "–";
          $("readout-focus").textContent = mark("focus", focusText(s.focus));
          const k = typeof sensor.kelvin === "number" ? Math.round(sensor.kelvin) + "K" : s.whiteBalance;
          const tint = typeof sensor.tint === "number" ? (sensor.tint >= 0 ? "+" : "") + sensor.tint.toFixed(0) : "";
          $("readout-wb").textContent = mark("white balance", k + tint);
          $("readout-ev").textContent = (s.exposureCompensation >= 0 ? "+" : "") + numberText(s.exposureCompensation, 1);
          $("readout-metering").textContent = s.metering || "–";
          $("readout-auto").textContent = automatic.length ? automatic.join(", ") : "manual";
        }

        function statusMessage(status) {
          live.lastStatus = status;
          const viewer = status.viewer || {};
          if (typeof viewer.latencyP50Milliseconds === "number") {
            $("latency").textContent = viewer.latencyP50Milliseconds.toFixed(0) + "/"
              + numberText(viewer.latencyP95Milliseconds, 0) + " ms";
          }
          if (status.burst) { burstFigures(status.burst); }
          if (status.source) { sourceRanges(status.source); }
          if (status.controls) { controlState(status.controls); }
          drawOverlay();
        }

        function burstFigures(b) {
          $("state").textContent = b.state + (b.take ? " #" + b.take : "");
          $("state").className = "badge " + b.state;
          $("pause").textContent = b.state === "paused" ? "Resume" : "Pause";
          const fill = (b.occupancy || []).length ? b.occupancy[b.occupancy.length - 1] : (b.slots ? b.queued / b.slots : null);
          $("fill").textContent = fill === null ? "–" : Math.round(100 * fill) + "%";
          // Before Record frames are only shown: the rate they come at, and no recording's figures (its drops
          // are counted for a recording only).
          const figures = b.recording || b.state === "ended";
          $("burst-fps").textContent = numberText(b.fps, 1);
          $("fps-kind").textContent = figures ? "fps" : "fps preview";
          $("not-recording").hidden = figures;
          $("recording-figures").hidden = !figures;
          $("mbps").textContent = numberText(b.megabytesPerSecond, 1);
          $("time-left").textContent = typeof b.secondsUntilFull === "number" ? b.secondsUntilFull.toFixed(0) + " s" : "∞";
          $("governor").textContent = b.governor + (b.previewsThinned ? " (previews thinned)" : "");
          $("written").textContent = String(b.written);
          $("drops").textContent = String(b.dropped);
          const reasons = Object.entries(b.droppedByReason || {}).filter(([, n]) => n > 0);
          $("drop-reasons").textContent = reasons.map(([r, n]) => r + " " + n).join(", ");
          const canvas = $("occupancy"), c = canvas.getContext("2d"), samples = b.occupancy || [];
          c.clearRect(0, 0, canvas.width, canvas.height);
          c.strokeStyle = "#ffb000"; c.lineWidth = 1; c.beginPath();
          samples.forEach((v, i) => {
            const x = canvas.width * i / Math.max(1, samples.length - 1), y = canvas.height * (1 - Math.min(1, v));
            if (i === 0) { c.moveTo(x, y); } else { c.lineTo(x, y); }
          });
          c.stroke();
        }

        function fillSelect(select, values, label, current) {
          const keep = select.value;
          select.textContent = "";
          const auto = document.createElement("option");
          auto.value = "auto"; auto.textContent = "Auto";
          select.appendChild(auto);
          for (const v of values) {
            const option = document.createElement("option");
            option.value = String(v); option.textContent = label(v);
            select.appendChild(option);
          }
          select.value = current !== undefined ? current : keep;
          if (select.selectedIndex < 0) { select.value = "auto"; }
        }

        function sourceRanges(source) {
          const key = [source.isoMinimum, source.isoMaximum, source.shutterMinimum, source.shutterMaximum,
                       source.minimumFocusMetres, source.adjustable].join(",");
          if (key === controlsState.rangesKey) { return; }
          controlsState.rangesKey = key;
          const isos = isoStops.filter((v) => v >= source.isoMinimum && v <= source.isoMaximum);
          fillSelect($("iso"), isos, String);
          const speeds = shutterStops.filter((v) => v >= source.shutterMinimum * 0.999 && v <= source.shutterMaximum * 1.001);
          fillSelect($("shutter"), speeds, shutterText);
          controlsState.minimumFocus = Math.max(0.01, source.minimumFocusMetres || 0.1);
          for (const id of ["iso", "shutter", "focus", "af", "wb", "kelvin", "tint", "ev", "auto", "ae-lock", "af-lock", "preset"]) {
            $(id).disabled = !source.adjustable;
          }
        }

        // The focus slider: 0...999 runs from the closest focus to 100 m on a log scale, 1000 is infinity.
        function sliderDistance(position) {
          if (position >= 1000) { return "inf"; }
          const near = controlsState.minimumFocus, far = 100;
          return near * Math.pow(far / near, position / 999);
        }
        function distanceSlider(metres) {
          if (metres === "infinity" || metres === null || metres === undefined) { return 1000; }
          const near = controlsState.minimumFocus, far = 100;
          return Math.max(0, Math.min(999, Math.round(999 * Math.log(metres / near) / Math.log(far / near))));
        }

        function controlState(controls) {
          const s = controls.settings || {};
          const active = document.activeElement;
          if (active !== $("iso")) { $("iso").value = s.iso === null || s.iso === undefined ? "auto" : String(s.iso); }
          if (active !== $("shutter")) {
            $("shutter").value = s.shutter === null || s.shutter === undefined ? "auto" : String(s.shutter);
          }
          if ($("iso").selectedIndex < 0) { $("iso").value = "auto"; }
          if ($("shutter").selectedIndex < 0) { $("shutter").value = "auto"; }
          if (active !== $("focus") && !controlsState.editing.focus) {
            $("focus").value = String(s.focus === null || s.focus === undefined ? 1000 : distanceSlider(s.focus));
            $("focus-value").textContent = s.focus === null || s.focus === undefined ? "AF" : focusText(s.focus);
          }
          if (active !== $("ev") && typeof s.exposureCompensation === "number") {
            $("ev").value = String(s.exposureCompensation);
            $("ev-value").textContent = s.exposureCompensation.toFixed(1);
          }
          if (active !== $("wb") && typeof s.whiteBalance === "string") {
            const wb = s.whiteBalance.toLowerCase();
            const m = wb.match(/^(\d+(?:\.\d+)?)k([+-]\d+(?:\.\d+)?)?$/);
            if (m) {
              $("wb").value = "kelvin";
              if (active !== $("kelvin")) { $("kelvin").value = m[1]; }
              if (active !== $("tint")) { $("tint").value = m[2] ? String(Number(m[2])) : "0"; }
            } else { $("wb").value = wb; }
          }
          $("ae-lock").setAttribute("aria-pressed", String(!!controls.autoExposureLock));
          $("af-lock").setAttribute("aria-pressed", String(!!controls.autoFocusLock));
          const presets = controls.presets || [];
          if (presets.join("\n") !== controlsState.presetsKey) {
            controlsState.presetsKey = presets.join("\n");
            const select = $("preset");
            select.textContent = "";
            for (const name of [""].concat(presets)) {
              const option = document.createElement("option");
              option.value = name; option.textContent = name || "–";
              select.appendChild(option);
            }
          }
          if (controls.lastRefusal) { showRefusal(controls.lastRefusal); }
        }

        function showRefusal(text) { $("refusal").textContent = text; }

        function replyMessage(reply) {
          if (reply.ok) {
            if ($("refusal").dataset.cmd === reply.cmd) { showRefusal(""); }
            return;
          }
          $("refusal").dataset.cmd = reply.cmd;
          showRefusal((reply.setting ? reply.setting + ": " : (reply.cmd ? reply.cmd + ": " : "")) + reply.reason);
        }

        function sendOverlays() {
          send({ cmd: "overlays", peaking: $("peaking").checked, peakingLevel: $("peaking-level").value,
                 zebra: $("zebra").checked, zebraLevel: Number($("zebra-level").value) });
        }

        for (const id of ["peaking", "peaking-level", "zebra", "zebra-level"]) { $(id).addEventListener("change", sendOverlays); }
        for (const id of ["peaking-colour", "grid", "crosshair", "af-box"]) { $(id).addEventListener("change", drawOverlay); }
        $("iso").addEventListener("change", () => {
          const v = $("iso").value;
          send({ cmd: "set", iso: v === "auto" ? null : Number(v) });
        });
        $("shutter").addEventListener("change", () => {
          const v = $("shutter").value;
          send({ cmd: "set", shutter: v === "auto" ? null : Number(v) });
        });
        let focusTimer = null;
        $("focus").addEventListener("input", () => {
          controlsState.editing.focus = true;
          const d = sliderDistance(Number($("focus").value));
          $("focus-value").textContent = d === "inf" ? "∞" : focusText(d);
          if (focusTimer) { return; }
          focusTimer = setTimeout(() => {
            focusTimer = null;
            const distance = sliderDistance(Number($("focus").value));
            send({ cmd: "set", focus: distance === "inf" ? "inf" : Number(distance.toFixed(3)) });
          }, 80);
        });
        $("focus").addEventListener("change", () => { setTimeout(() => { controlsState.editing.focus = false; }, 500); });
        $("af").addEventListener("click", () => { send({ cmd: "set", focus: null }); });
        function sendWhiteBalance() {
          const v = $("wb").value;
          if (v !== "kelvin") { send({ cmd: "set", wb: v }); return; }
          const tint = Math.round(Number($("tint").value) || 0);
          send({ cmd: "set", wb: Math.round(Number($("kelvin").value) || 5600) + "K" + (tint >= 0 ? "+" : "") + tint });
        }
        for (const id of ["wb", "kelvin", "tint"]) { $(id).addEventListener("change", sendWhiteBalance); }
        $("ev").addEventListener("input", () => { $("ev-value").textContent = Number($("ev").value).toFixed(1); });
        $("ev").addEventListener("change", () => { send({ cmd: "set", ev: Number(Number($("ev").value).toFixed(1)) }); });
        $("preset").addEventListener("change", () => { if ($("preset").value) { send({ cmd: "preset", name: $("preset").value }); } });
        $("auto").addEventListener("click", () => { send({ cmd: "auto" }); });
        $("ae-lock").addEventListener("click", () => {
          send({ cmd: "ae-lock", on: $("ae-lock").getAttribute("aria-pressed") !== "true" });
        });
        $("af-lock").addEventListener("click", () => {
          send({ cmd: "af-lock", on: $("af-lock").getAttribute("aria-pressed") !== "true" });
        });
        $("record").addEventListener("click", () => { send({ cmd: "trigger" }); });
        $("pause").addEventListener("click", () => {
          const paused = live.lastStatus && live.lastStatus.burst && live.lastStatus.burst.state === "paused";
          send({ cmd: paused ? "resume" : "pause" });
        });
        $("stop").addEventListener("click", () => { send({ cmd: "stop" }); });
        $("quit").addEventListener("click", () => { send({ cmd: "quit" }); });
        connect();
        """#
}
