/// The page's style sheet: dark and compact like a camera's screen; the side panel goes under the picture on a
/// narrow (phone) screen.
enum LivePageStyle {
    static let css = #"""
        :root { color-scheme: dark; --bg: #0b0b0c; --panel: #161618; --line: #2a2a2e; --text: #e6e6e6; --muted: #8a8a90;
                --accent: #ffb000; --bad: #ff4d4d; }
        * { box-sizing: border-box; }
        html, body { margin: 0; background: var(--bg); color: var(--text);
                     font: 13px/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 6px 10px;
                 border-bottom: 1px solid var(--line); font-variant-numeric: tabular-nums; }
        .brand { font-weight: 700; letter-spacing: .04em; color: var(--accent); }
        .badge { padding: 1px 8px; border-radius: 9px; background: #333; text-transform: uppercase; font-size: 11px; }
        .badge.recording { background: var(--bad); color: #fff; }
        .badge.waiting { background: #2d5b2d; }
        .badge.paused { background: #6b5a12; }
        .muted { color: var(--muted); }
        main { display: flex; gap: 8px; padding: 8px; align-items: flex-start; }
        #view { flex: 1 1 auto; min-width: 0; }
        #stage { position: relative; width: 100%; background: #000; line-height: 0; }
        #picture { width: 100%; height: auto; display: block; }
        #overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; cursor: crosshair; }
        aside { flex: 0 0 300px; display: flex; flex-direction: column; gap: 6px; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
        .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 3px 0; }
        #recording-figures { display: inline-flex; flex-wrap: wrap; gap: 8px; }
        [hidden] { display: none !important; }
        #toggles { padding: 4px 0; }
        #readouts { display: grid; grid-template-columns: repeat(4, 1fr); gap: 4px; font-variant-numeric: tabular-nums; }
        #readouts div { display: flex; flex-direction: column; }
        #readouts i { font-style: normal; color: var(--muted); font-size: 10px; text-transform: uppercase; }
        #readouts b { font-size: 14px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #histogram { width: 100%; height: 72px; background: #000; display: block; }
        #occupancy { background: #000; }
        .clip span { padding: 0 5px; border-radius: 3px; color: var(--muted); }
        .clip span.on { background: var(--bad); color: #fff; }
        #controls label { display: inline-flex; gap: 4px; align-items: center; margin: 3px 8px 3px 0; }
        #controls label.wide { display: flex; }
        #controls input[type=range] { flex: 1; accent-color: var(--accent); }
        #controls input[type=number] { width: 64px; }
        select, input, button { background: #222; color: var(--text); border: 1px solid #3a3a40; border-radius: 4px;
                                font: inherit; padding: 2px 5px; }
        button { cursor: pointer; padding: 4px 10px; }
        button[aria-pressed=true] { background: var(--accent); color: #000; }
        button.rec { color: var(--bad); font-weight: 700; }
        .buttons button { flex: 1; }
        .refusal { color: var(--bad); min-height: 1.6em; }
        .refusal:empty { display: none; }
        @media (max-width: 760px) {
          main { flex-direction: column; padding: 4px; }
          aside { flex: 1 1 auto; width: 100%; }
          header { gap: 8px; }
        }
        """#
}
