/// The viewfinder page: one self-contained HTML document (inline style and script, no external URL, a `data:`
/// favicon), served at `/`. It reads the token from its own address and passes it to `/ws` and `/command`.
///
/// Stable element ids (for the browser tests): `#picture`, `#overlay` (canvases), `#peaking`, `#zebra`, `#grid`,
/// `#crosshair` (checkboxes), `#peaking-colour`, `#iso`, `#shutter`, `#focus` (range), `#wb`, `#ev`, `#auto`, `#ae-lock`,
/// `#af-lock`, `#record`, `#pause`, `#stop`, `#quit`, `#refusal`, `#frame-counter`, `#readout-iso`,
/// `#readout-shutter`, `#readout-focus`, `#state`; and `window.rawburstLive = {frames, lastMeta, lastStatus,
/// peakingFraction}`.
public enum LivePage {
    /// The whole page.
    public static let html: String = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>rawburst live</title>
        <link rel="icon" href="data:,">
        <style>
        \(LivePageStyle.css)
        </style>
        </head>
        <body>
        \(body)
        <script>
        \(LivePageScript.viewer)
        \(LivePageControls.script)
        </script>
        </body>
        </html>
        """

    static let body = #"""
        <header>
          <span class="brand">rawburst</span>
          <span id="state" class="badge">connecting</span>
          <span>frame <b id="frame-counter">0</b></span>
          <span><b id="fps">–</b> fps</span>
          <span>latency <b id="latency">–</b></span>
          <span id="conn" class="muted"></span>
        </header>
        <main>
          <section id="view">
            <div id="stage">
              <canvas id="picture" width="640" height="427"></canvas>
              <canvas id="overlay" width="640" height="427"></canvas>
            </div>
            <div id="toggles" class="row">
              <label><input type="checkbox" id="peaking"> peaking</label>
              <select id="peaking-colour" title="peaking colour">
                <option value="red">red</option><option value="yellow">yellow</option>
                <option value="cyan">cyan</option><option value="white">white</option>
              </select>
              <select id="peaking-level" title="peaking level">
                <option value="high">high</option><option value="medium" selected>medium</option><option value="low">low</option>
              </select>
              <label><input type="checkbox" id="zebra"> zebra</label>
              <select id="zebra-level" title="zebra level">
                <option value="0.9">90%</option><option value="0.95" selected>95%</option><option value="0.98">98%</option>
                <option value="1">100%</option>
              </select>
              <label><input type="checkbox" id="grid" checked> grid</label>
              <label><input type="checkbox" id="crosshair"> crosshair</label>
              <label><input type="checkbox" id="af-box" checked> AF</label>
              <label title="tap a grid cell to meter there"><input type="checkbox" id="zone-mode"> meter zone</label>
            </div>
          </section>
          <aside>
            <div id="readouts" class="panel">
              <div><i>ISO</i><b id="readout-iso">–</b></div>
              <div><i>shutter</i><b id="readout-shutter">–</b></div>
              <div><i>aperture</i><b id="readout-aperture">–</b></div>
              <div><i>focus</i><b id="readout-focus">–</b></div>
              <div><i>WB</i><b id="readout-wb">–</b></div>
              <div><i>EV</i><b id="readout-ev">–</b></div>
              <div><i>metering</i><b id="readout-metering">–</b></div>
              <div><i>auto</i><b id="readout-auto">–</b></div>
            </div>
            <div class="panel">
              <canvas id="histogram" width="256" height="72"></canvas>
              <div class="row clip"><span id="clip-r">R</span><span id="clip-g">G</span><span id="clip-b">B</span>
                <span class="muted" id="clip-text"></span></div>
            </div>
            <div id="burst" class="panel">
              <div class="row"><span>buffer <b id="fill">–</b></span><canvas id="occupancy" width="120" height="28"></canvas></div>
              <div class="row"><span><b id="mbps">–</b> MB/s</span><span>left <b id="time-left">–</b></span>
                <span>gov <b id="governor">–</b></span></div>
              <div class="row"><span><b id="burst-fps">–</b> <span id="fps-kind">fps</span></span>
                <span id="not-recording" class="muted">not recording</span>
                <span id="recording-figures"><span>written <b id="written">0</b></span>
                <span>drops <b id="drops">0</b></span>
                <span class="muted" id="drop-reasons"></span></span></div>
            </div>
            <div id="controls" class="panel">
              <label>ISO <select id="iso"><option value="auto">Auto</option></select></label>
              <label>shutter <select id="shutter"><option value="auto">Auto</option></select></label>
              <label class="wide">focus <input type="range" id="focus" min="0" max="1000" value="1000">
                <span id="focus-value">inf</span><button id="af" type="button">AF</button></label>
              <label>WB <select id="wb">
                <option value="auto">Auto</option><option value="daylight">daylight</option><option value="cloudy">cloudy</option>
                <option value="shade">shade</option><option value="tungsten">tungsten</option>
                <option value="fluorescent">fluorescent</option><option value="flash">flash</option>
                <option value="kelvin">K / tint</option></select></label>
              <label>K <input type="number" id="kelvin" min="2000" max="12000" step="100" value="5600"></label>
              <label>tint <input type="number" id="tint" min="-100" max="100" step="1" value="0"></label>
              <label class="wide">EV <input type="range" id="ev" min="-3" max="3" step="0.1" value="0">
                <span id="ev-value">0.0</span></label>
              <label>preset <select id="preset"><option value="">–</option></select></label>
              <div class="row buttons">
                <button id="auto" type="button">Auto</button>
                <button id="ae-lock" type="button" aria-pressed="false">AE-L</button>
                <button id="af-lock" type="button" aria-pressed="false">AF-L</button>
              </div>
              <div class="row buttons">
                <button id="record" type="button" class="rec">● Record</button>
                <button id="pause" type="button">Pause</button>
                <button id="stop" type="button">Stop</button>
                <button id="quit" type="button">Quit</button>
              </div>
            </div>
            <div id="refusal" class="panel refusal" role="status"></div>
          </aside>
        </main>
        """#
}
