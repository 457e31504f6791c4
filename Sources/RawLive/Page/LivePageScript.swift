/// The page's script, first part: the connection, the binary frame (`LiveWire`) parsed with a DataView, the picture
/// and the overlays (peaking, zebra, grid, AF box, crosshair) and the histogram.
enum LivePageScript {
    static let viewer = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const token = new URLSearchParams(location.search).get("token");
        const live = window.rawburstLive = { frames: 0, lastMeta: null, lastStatus: null, peakingFraction: null };
        const view = { socket: null, busy: false, pending: null, peaking: null, zebra: null, panes: [],
                       width: 0, height: 0, drawnTimes: [] };
        const picture = $("picture"), overlay = $("overlay");
        const pictureContext = picture.getContext("2d", { willReadFrequently: true });
        const overlayContext = overlay.getContext("2d", { willReadFrequently: true });

        function withToken(path) { return token ? path + "?token=" + encodeURIComponent(token) : path; }

        function connect() {
          const scheme = location.protocol === "https:" ? "wss://" : "ws://";
          const socket = new WebSocket(scheme + location.host + withToken("/ws"));
          socket.binaryType = "arraybuffer";
          view.socket = socket;
          $("conn").textContent = "connecting";
          socket.onopen = () => { $("conn").textContent = ""; sendOverlays(); };
          socket.onmessage = (event) => {
            if (typeof event.data === "string") { textMessage(JSON.parse(event.data)); }
            else { frameMessage(event.data); }
          };
          socket.onclose = (event) => {
            view.socket = null;
            $("state").textContent = "disconnected";
            $("state").className = "badge";
            $("conn").textContent = event.reason ? event.reason : "reconnecting";
            setTimeout(connect, event.code === 1013 ? 5000 : 1000);
          };
        }

        function send(command) {
          if (view.socket && view.socket.readyState === WebSocket.OPEN) {
            view.socket.send(JSON.stringify(command));
            return;
          }
          fetch(withToken("/command"), { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(command) })
            .then((r) => r.json()).then((reply) => [].concat(reply).forEach(textMessage))
            .catch((e) => showRefusal("not sent: " + e));
        }

        // For scripts and tests: send a command as the controls do.
        window.rawburstLiveSend = send;

        function textMessage(message) {
          if (message.type === "status") { statusMessage(message); }
          else if (message.type === "reply") { replyMessage(message); }
        }

        // The binary frame: see LiveWire (little-endian header, JSON, JPEG, peaking bits, zebra bits).
        function parseFrame(buffer) {
          const d = new DataView(buffer);
          const magic = String.fromCharCode(d.getUint8(0), d.getUint8(1), d.getUint8(2), d.getUint8(3));
          if (magic !== "RBLV") { throw new Error("not a rawburst frame"); }
          const headerLength = d.getUint16(6, true);
          const u32 = (offset) => d.getUint32(offset, true);
          const frame = {
            version: d.getUint16(4, true),
            sequence: Number(d.getBigUint64(8, true)),
            width: u32(32), height: u32(36),
            peaking: { width: u32(48), height: u32(52), length: u32(56) },
            zebra: { width: u32(60), height: u32(64), length: u32(68) },
          };
          let offset = headerLength;
          const jsonLength = u32(40), jpegLength = u32(44);
          frame.meta = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, offset, jsonLength)));
          offset += jsonLength;
          frame.jpeg = new Uint8Array(buffer, offset, jpegLength);
          offset += jpegLength;
          for (const mask of [frame.peaking, frame.zebra]) {
            mask.bits = mask.length ? new Uint8Array(buffer, offset, mask.length) : null;
            offset += mask.length;
          }
          return frame;
        }

        function frameMessage(buffer) {
          let frame;
          try { frame = parseFrame(buffer); } catch (e) { console.warn(e.message); return; }
          if (view.busy) { view.pending = frame; return; }
          draw(frame);
        }

        function draw(frame) {
          view.busy = true;
          createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" })).then((bitmap) => {
            if (picture.width !== bitmap.width || picture.height !== bitmap.height) {
              picture.width = overlay.width = bitmap.width;
              picture.height = overlay.height = bitmap.height;
            }
            pictureContext.drawImage(bitmap, 0, 0);
            bitmap.close();
            view.width = bitmap.width; view.height = bitmap.height;
            view.peaking = frame.peaking.bits ? frame.peaking : null;
            view.zebra = frame.zebra.bits ? frame.zebra : null;
            view.panes = frame.meta.panes || [];
            live.frames += 1;
            live.lastMeta = frame.meta;
            live.peakingFraction = frame.meta.peakingFraction === undefined ? null : frame.meta.peakingFraction;
            const now = performance.now();
            view.drawnTimes.push(now);
            while (view.drawnTimes.length && view.drawnTimes[0] < now - 2000) { view.drawnTimes.shift(); }
            drawOverlay();
            drawHistogram(frame.meta.histogram);
            frameReadouts(frame.meta);
          }).catch((e) => console.warn("picture: " + e)).finally(() => {
            view.busy = false;
            if (view.pending) { const next = view.pending; view.pending = null; draw(next); }
          });
        }

        const peakingColours = { red: [255, 40, 40], yellow: [255, 230, 0], cyan: [0, 230, 255], white: [255, 255, 255] };

        // A mask as an RGBA canvas of its own size (marked cells in colour, the rest transparent).
        function maskCanvas(mask, rgb) {
          const canvas = document.createElement("canvas");
          canvas.width = mask.width; canvas.height = mask.height;
          const context = canvas.getContext("2d");
          const image = context.createImageData(mask.width, mask.height);
          const rowBytes = (mask.width + 7) >> 3;
          for (let y = 0; y < mask.height; y++) {
            for (let x = 0; x < mask.width; x++) {
              if (mask.bits[y * rowBytes + (x >> 3)] & (0x80 >> (x & 7))) {
                const i = (y * mask.width + x) * 4;
                image.data[i] = rgb[0]; image.data[i + 1] = rgb[1]; image.data[i + 2] = rgb[2]; image.data[i + 3] = 255;
              }
            }
          }
          context.putImageData(image, 0, 0);
          return canvas;
        }

        function drawZebra(c) {
          const marks = document.createElement("canvas");
          marks.width = overlay.width; marks.height = overlay.height;
          const m = marks.getContext("2d");
          m.imageSmoothingEnabled = false;
          m.drawImage(maskCanvas(view.zebra, [255, 255, 255]), 0, 0, overlay.width, overlay.height);
          m.globalCompositeOperation = "source-in";
          m.strokeStyle = "rgba(255,255,255,0.85)";
          m.lineWidth = 4;
          m.beginPath();
          for (let k = -overlay.height; k < overlay.width; k += 8) {
            m.moveTo(k, overlay.height); m.lineTo(k + overlay.height, 0);
          }
          m.stroke();
          c.drawImage(marks, 0, 0);
        }

        // A pane's picture is its sensor's readout turned by the pane's TIFF/EXIF orientation (mirror included). A
        // point of the picture (x, y in 0...1) in the sensor's own coordinates, which the settings use, and back.
        function toSensor(o, x, y) {
          switch (o) {
            case 2: return [1 - x, y];
            case 3: return [1 - x, 1 - y];
            case 4: return [x, 1 - y];
            case 5: return [y, x];
            case 6: return [y, 1 - x];
            case 7: return [1 - y, 1 - x];
            case 8: return [1 - y, x];
            default: return [x, y];
          }
        }
        function toPicture(o, x, y) { return toSensor(o === 6 ? 8 : o === 8 ? 6 : o, x, y); }

        function currentSettings() {
          const s = live.lastStatus;
          return s && s.controls ? s.controls.settings : null;
        }

        function drawOverlay() {
          const c = overlayContext, w = overlay.width, h = overlay.height;
          c.clearRect(0, 0, w, h);
          c.imageSmoothingEnabled = false;
          if ($("zebra").checked && view.zebra) { drawZebra(c); }
          if ($("peaking").checked && view.peaking) {
            c.drawImage(maskCanvas(view.peaking, peakingColours[$("peaking-colour").value]), 0, 0, w, h);
          }
          const panes = view.panes.length ? view.panes : [{ left: 0, top: 0, width: w, height: h }];
          const settings = currentSettings();
          const lineWidth = Math.max(1, Math.round(w / 640));
          for (const [index, p] of panes.entries()) {
            if ($("grid").checked) {
              c.strokeStyle = "rgba(255,255,255,0.45)"; c.lineWidth = lineWidth;
              c.beginPath();
              for (let k = 1; k < 3; k++) {
                c.moveTo(p.left + p.width * k / 3, p.top); c.lineTo(p.left + p.width * k / 3, p.top + p.height);
                c.moveTo(p.left, p.top + p.height * k / 3); c.lineTo(p.left + p.width, p.top + p.height * k / 3);
              }
              c.stroke();
              const zone = meteringZone(settings);
              if (zone !== null) {
                // The zone's centre on the sensor, shown where the picture has it.
                const [zx, zy] = toPicture(p.orientation, (zone % 3 + 0.5) / 3, (Math.floor(zone / 3) + 0.5) / 3);
                c.strokeStyle = "rgba(255,176,0,0.95)"; c.lineWidth = lineWidth * 2;
                c.strokeRect(p.left + p.width * (Math.floor(zx * 3) / 3), p.top + p.height * (Math.floor(zy * 3) / 3),
                             p.width / 3, p.height / 3);
              }
            }
            if ($("af-box").checked && settings && settings.focusPoint && index === 0) {
              const size = Math.min(p.width, p.height) * 0.08;
              const [fx, fy] = toPicture(p.orientation, settings.focusPoint.x, settings.focusPoint.y);
              const x = p.left + fx * p.width, y = p.top + fy * p.height;
              c.strokeStyle = settings.autoFocusLock ? "rgba(255,176,0,1)" : "rgba(80,255,120,0.95)";
              c.lineWidth = lineWidth * 2;
              c.strokeRect(x - size / 2, y - size / 2, size, size);
            }
            if ($("crosshair").checked) {
              const cx = p.left + p.width / 2, cy = p.top + p.height / 2, r = Math.min(p.width, p.height) * 0.04;
              c.strokeStyle = "rgba(255,255,255,0.9)"; c.lineWidth = lineWidth;
              c.beginPath(); c.moveTo(cx - r, cy); c.lineTo(cx + r, cy); c.moveTo(cx, cy - r); c.lineTo(cx, cy + r); c.stroke();
            }
          }
        }

        // The zone to highlight: the one asked for (status), else the one the newest frame was metered on.
        function meteringZone(settings) {
          if (settings && typeof settings.focusZone === "number") { return settings.focusZone; }
          const sensor = live.lastMeta && live.lastMeta.sensors ? live.lastMeta.sensors[0] : null;
          for (const metering of [settings && settings.metering, sensor && sensor.settings.metering]) {
            const m = typeof metering === "string" ? metering.match(/^zone:(\d)$/) : null;
            if (m) { return Number(m[1]); }
          }
          return null;
        }

        function drawHistogram(histogram) {
          const canvas = $("histogram"), c = canvas.getContext("2d"), w = canvas.width, h = canvas.height;
          c.clearRect(0, 0, w, h);
          if (!histogram) { return; }
          const channels = [["luma", "rgba(200,200,200,0.55)"], ["red", "rgba(255,60,60,0.6)"],
                            ["green", "rgba(60,220,60,0.6)"], ["blue", "rgba(70,120,255,0.6)"]];
          let peak = 1;
          for (const [name] of channels) { for (const v of histogram[name] || []) { peak = Math.max(peak, v); } }
          c.globalCompositeOperation = "lighter";
          for (const [name, colour] of channels) {
            const bins = histogram[name] || [];
            c.fillStyle = colour;
            const bw = w / Math.max(1, bins.length);
            bins.forEach((v, i) => {
              const bh = h * Math.sqrt(v / peak);
              c.fillRect(i * bw, h - bh, Math.ceil(bw), bh);
            });
          }
          c.globalCompositeOperation = "source-over";
          const clipped = histogram.clipped || [];
          const labels = [];
          // A monochrome sensor: one luma trace and one clipping fraction, shown on the first indicator as "Y".
          const mono = !!histogram.monochrome;
          $("clip-r").textContent = mono ? "Y" : "R";
          $("clip-g").hidden = mono;
          $("clip-b").hidden = mono;
          ["clip-r", "clip-g", "clip-b"].forEach((id, i) => {
            if (mono && i > 0) { return; }
            const on = (clipped[i] || 0) > 0.001;
            $(id).className = on ? "on" : "";
            if (on) { labels.push((mono ? "" : "RGB"[i] + " ") + (clipped[i] * 100).toFixed(1) + "%"); }
          });
          $("clip-text").textContent = labels.length ? "clipped " + labels.join(" ") : "";
        }

        // A point of the overlay in the pane it falls in: {pane index, x, y in 0...1 of its sensor's own frame}.
        function panePoint(event) {
          const rect = overlay.getBoundingClientRect();
          const px = (event.clientX - rect.left) * overlay.width / rect.width;
          const py = (event.clientY - rect.top) * overlay.height / rect.height;
          const panes = view.panes.length ? view.panes : [{ left: 0, top: 0, width: overlay.width, height: overlay.height }];
          for (const [index, p] of panes.entries()) {
            if (px >= p.left && px < p.left + p.width && py >= p.top && py < p.top + p.height) {
              const [x, y] = toSensor(p.orientation, (px - p.left) / p.width, (py - p.top) / p.height);
              return { index, x, y };
            }
          }
          return null;
        }

        overlay.addEventListener("click", (event) => {
          const point = panePoint(event);
          if (!point) { return; }
          const x = Math.min(1, Math.max(0, point.x)), y = Math.min(1, Math.max(0, point.y));
          if ($("zone-mode").checked) {
            send({ cmd: "zone", zone: Math.min(2, Math.floor(y * 3)) * 3 + Math.min(2, Math.floor(x * 3)) });
          } else {
            send({ cmd: "tap", x: Number(x.toFixed(4)), y: Number(y.toFixed(4)) });
          }
        });
        """#
}
