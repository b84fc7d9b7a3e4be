#!/usr/bin/env python3
"""Record a walkthrough of the built site as video: a visible cursor, real clicks, scrolling, typing, a number's
JSON, a model page's graph and node panel and a followed deep link, with captions that state what the experiments found.

    python tools/record_walkthrough.py [--site site] [--out site/walkthrough] [--pace 1.0]

Playwright records Debian Chromium headlessly (its screencast goes through the system ffmpeg, placed where
Playwright looks for its own). Every caption is computed from ``experiments/*/result.json`` when the tour is
recorded, never typed. Writes to ``--out``: ``walkthrough.mp4`` (H.264, captions burned in with ffmpeg's
subtitles filter), ``walkthrough.vtt`` (WebVTT captions, one cue per chapter), ``walkthrough.gif`` (960 px wide,
captions burned in), ``scenes.json`` (chapters: start/end seconds, title, caption) and ``index.html`` (the video,
its captions as a text track the page builds itself, so they work from ``file://``, and the chapter list). The
tour takes 60-150 s on a quiet machine; a busy one stretches every step, and a tour longer than 150 s is played
faster to fit (``speed`` in ``scenes.json``). The tour uses only stable handles of the page: the view tabs
(``nav.tabs a[data-view]``), experiment panels (``[data-exp]``), numbers (``button.num`` resolved through
``npuready.ref``), the ``#rec-search`` box, ``#exp=ID&path=POINTER`` deep links and, on a model page, the graph's
boxes (``g.gnode``), ``#node-info`` and ``#target-select``. Any console error,
page error, failed request or non-local request aborts the recording (exit 1). Needs: playwright (pip),
/usr/bin/chromium, ffmpeg.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generator"))

from npuready.site.browser import is_local, launch  # noqa: E402

VIEWPORT = {"width": 1280, "height": 720}
GIF_WIDTH, GIF_FPS, GIF_LIMIT = 960, 1.5, 8 * 1024 * 1024  # 960 px: its tables and captions readable
MP4_FPS, MP4_CRF = 15, 32
MODEL_REPORT = "model-report-yolov8n"  # the model page the tour opens (its record is a model report)
MAX_SECONDS = 150  # a longer tour (a busy machine stretches every step) is played faster to fit

# A cursor drawn by the page itself (headless screencasts show no system cursor): an arrow that follows
# mousemove and a ring on every mousedown. A modal <dialog> sits in the browser's top layer above any z-index,
# so the cursor moves into an open dialog while there is one.
CURSOR_JS = """(() => {
  const install = () => {
    if (document.getElementById('wt-cursor')) return;
    const c = document.createElement('div');
    c.id = 'wt-cursor';
    c.setAttribute('aria-hidden', 'true');
    c.style.cssText = 'position:fixed;left:-40px;top:-40px;width:24px;height:24px;z-index:2147483647;' +
      'pointer-events:none;margin:-2px 0 0 -3px';
    c.innerHTML = '<svg width="24" height="24" viewBox="0 0 24 24"><path d="M3 2 L3 19 L7.8 14.6 L11 21.5 ' +
      'L13.8 20.3 L10.7 13.6 L17 13.6 Z" fill="#111" stroke="#fff" stroke-width="1.6" stroke-linejoin="round"/></svg>';
    document.documentElement.appendChild(c);
    const host = () => document.querySelector('dialog[open]') || document.documentElement;
    document.addEventListener('mousemove', (e) => {
      if (c.parentNode !== host()) host().appendChild(c);
      c.style.left = e.clientX + 'px';
      c.style.top = e.clientY + 'px';
    }, true);
    document.addEventListener('mousedown', (e) => {
      const r = document.createElement('div');
      r.style.cssText = 'position:fixed;width:34px;height:34px;margin:-17px 0 0 -17px;border-radius:50%;' +
        'border:3px solid #e8590c;pointer-events:none;z-index:2147483647;transition:all .45s ease-out;' +
        `left:${e.clientX}px;top:${e.clientY}px`;
      host().appendChild(r);
      requestAnimationFrame(() => { r.style.transform = 'scale(1.8)'; r.style.opacity = '0'; });
      setTimeout(() => r.remove(), 600);
    }, true);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', install);
  else install();
})();"""


# ---- findings: every caption is computed from the stored results --------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def lint_caption(r: dict) -> str:
    s = r["lint-corpus"]["results"]["corpus"]["summary"]
    target = r["lint-corpus"]["results"]["setup"]["target"]
    return (f"Lint on {target}: {s['blocked']} of {s['models']} ONNX test models have a blocking finding, "
            f"{s['clean']} are clean. Lint reads ONNX structure and onnxruntime, not NPU silicon.")


def number_caption(r: dict) -> str:
    s = r["lint-corpus"]["results"]["corpus"]["summary"]
    return (f"The {s['blocked']} blocked models are a stored value: experiments/lint-corpus/result.json, "
            f"produced at commit {r['lint-corpus']['provenance']['git']['commit'][:7]}.")


def scalesim_caption(r: dict) -> str:
    s = r["cost-vs-scalesim"]["results"]["summary"]
    return (f"Cycle model vs SCALE-Sim: {s['layers']} conv/FC layers in {s['pairs']} model x array pairs, worst "
            f"layer error {_pct(s['max_abs_layer_error'])} (goal {_pct(s['layer_goal'])}). Both are simulators.")


def vela_caption(r: dict) -> str:
    s = r["cost-vs-vela"]["results"]["summary"]
    verdict = "within" if s["totals_goal_met"] else "not yet within"
    return (f"Against Arm Vela, model totals range {s['total_ratio_min']:.2f}x to {s['total_ratio_max']:.2f}x over "
            f"{s['pairs']} model x target pairs: {verdict} the goal; the open gaps are listed by operator.")


def bitexact_caption(r: dict) -> str:
    res = r["bitexact-litert"]["results"]
    models = sorted(k for k, v in res.items() if isinstance(v, dict) and "elements_compared" in v)
    compared = sum(res[m]["elements_compared"] for m in models)
    wrong = sum(res[m]["elements_mismatched_propagated"] for m in models)
    images = res[models[0]]["images"]
    return (f"Integer engine vs LiteRT's reference kernels: {wrong:,} of {compared:,} output elements differ, "
            f"{len(models)} models x {images:,} images (measured here).")


def doctor_caption(r: dict) -> str:
    res = r["preprocess-doctor"]["results"]
    t, p = res["injections"]["total"], res["matched_pairs"]
    return (f"The preprocessing doctor names {t['exact_with_spec']} of {t['injected']} injected input mistakes "
            f"exactly, with {p['false_alarms_with_spec']} false alarms on {p['pairs']} correct pairs.")


def realworld_caption(r: dict) -> str:
    s = r["realworld-corpus"]["results"]["summary"]
    models = len({row["model"] for row in s["rows"]})
    targets = len({row["target"] for row in s["rows"]})
    ok = sum(row["checks_ok"] for row in s["rows"])
    return (f"{models} architectures built by timm, torchvision and ultralytics (random weights) on {targets} "
            f"targets: the report's own checks pass on {ok} of {len(s['rows'])} model x target reports.")


def model_caption(r: dict) -> str:
    res = r[MODEL_REPORT]["results"]
    target = res["model"]["targets"][0]
    total, part = res["cost"]["targets"][target]["total"], res["partition"]["targets"][target]
    segments = "1 NPU segment" if part["npu_segments"] == 1 else f"{part['npu_segments']:,} NPU segments"
    return (f"The {res['model']['label']} report page draws its {res['graph']['node_count']:,} ONNX nodes: on "
            f"{target}, {total['layers_npu']:,} layers on the NPU and {total['layers_cpu']:,} on the CPU in "
            f"{segments}, "
            f"{total['cycles']:,} cycles (simulated). A node's panel follows the target.")


def ptq_caption(r: dict) -> str:
    rows = r["ptq-methods"]["results"]["accuracy"]["rows"]
    worst = max(rows, key=lambda row: row["drop_pp"])
    within = sum(row["drop_pp"] <= 1.0 for row in rows)
    return (f"Post-training quantisation: {within} of {len(rows)} model x method runs lose at most 1 point of "
            f"accuracy; the worst, {worst['method']} on {worst['model']}, loses {worst['drop_pp']:.1f}.")


# ---- the tour -----------------------------------------------------------------------------------------------

_MARK_NUMBER = """([exp, path]) => {
  const shown = [...document.querySelectorAll('button.num')].filter(b => b.offsetParent !== null);
  const ref = b => { try { return npuready.ref(b); } catch (e) { return {}; } };
  let i = shown.findIndex(b => { const r = ref(b); return r.exp === exp && r.path === path; });
  if (i < 0) { i = shown.findIndex(b => ref(b).exp === exp); }
  document.querySelectorAll('button.num[data-walk]').forEach(b => b.removeAttribute('data-walk'));
  if (i >= 0) { shown[i].setAttribute('data-walk', '1'); }
}"""


class Tour:
    """The page, the recording clock and the gestures: glide the cursor, click, scroll, type, wait."""

    def __init__(self, page: Any, index_uri: str, pace: float):
        self.page, self.index_uri, self.pace = page, index_uri, pace
        self.started = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.started

    def hold(self, seconds: float) -> None:
        self.page.wait_for_timeout(int(1000 * seconds * self.pace))

    def glide(self, locator: Any, click: bool = False) -> None:
        for attempt in range(20):  # a list re-rendered under us (search results arriving) detaches the element
            try:
                locator.scroll_into_view_if_needed()
                break
            except Exception as exc:  # playwright's Error; the locator resolves afresh on the next try
                if "not attached" not in str(exc) or attempt == 19:
                    raise
                self.page.wait_for_timeout(100)
        box = locator.bounding_box()
        if box is None:
            raise SystemExit(f"walkthrough aborted:\n  not visible: {locator}")
        x, y = box["x"] + min(box["width"] / 2, 60), box["y"] + box["height"] / 2
        self.page.mouse.move(x, y, steps=max(2, int(25 * self.pace)))
        self.hold(0.35)
        if click:
            self.page.mouse.click(x, y)

    def tab(self, view: str) -> None:
        self.glide(self.page.locator(f"nav.tabs a[data-view='{view}']"), click=True)
        self.page.locator(f"#view-{view}").wait_for(state="visible")

    def scroll_to(self, selector: str) -> None:
        """Wheel down (or up) until ``selector`` is near the top of the viewport."""
        target = self.page.locator(selector).first
        for _ in range(40):
            top = target.evaluate("e => e.getBoundingClientRect().top")
            if abs(top - 90) < 60:
                break
            self.page.mouse.wheel(0, max(-240, min(240, top - 90)))
            self.page.wait_for_timeout(int(90 * self.pace) + 10)

    def number(self, exp: str, path: str) -> Any:
        """The visible number that opens ``exp``'s ``path`` (else its first visible number): buttons carry one
        ``data-n`` reference, resolved by the page's own ``npuready.ref``."""
        self.page.evaluate(_MARK_NUMBER, [exp, path])
        return self.page.locator("button.num[data-walk='1']").first

    def open_number(self, exp: str, path: str) -> None:
        self.glide(self.number(exp, path), click=True)
        self.page.locator("dialog#raw").wait_for(state="visible")
        self.glide(self.page.locator("dialog#raw #raw-value"))  # the cursor follows into the dialog

    def close_dialog(self) -> None:
        if self.page.locator("dialog#raw").is_visible():
            self.page.keyboard.press("Escape")
            self.page.locator("dialog#raw").wait_for(state="hidden")

    def follow(self, exp: str, path: str) -> None:
        """Follow a deep link to one number, as a pasted URL would."""
        self.page.goto("about:blank")
        self.page.goto(f"{self.index_uri}#exp={exp}&path={path}")
        self.page.wait_for_function("document.documentElement.dataset.ready === '1'")
        self.page.locator("dialog#raw").wait_for(state="visible")


def _lint(t: Tour) -> None:
    t.hold(1.0)
    t.scroll_to("#view-findings article.finding[data-exp='lint-corpus']")
    t.glide(t.page.locator("#view-findings article.finding[data-exp='lint-corpus'] h3").first)
    t.hold(6)


def _number(t: Tour) -> None:
    t.open_number("lint-corpus", "/results/corpus/summary/blocked")
    t.hold(4)
    t.page.mouse.wheel(0, 300)
    t.hold(3)
    t.close_dialog()


def _scalesim(t: Tour) -> None:
    t.tab("npu")
    t.hold(1)
    t.scroll_to("#panel-cost-vs-scalesim")
    t.glide(t.number("cost-vs-scalesim", "/results/summary/max_abs_layer_error"))
    t.hold(7)


def _vela(t: Tour) -> None:
    t.scroll_to("#panel-cost-vs-vela")
    t.glide(t.number("cost-vs-vela", "/results/summary/total_ratio_max"))
    t.hold(3)
    t.page.mouse.wheel(0, 400)
    t.hold(4)


def _bitexact(t: Tour) -> None:
    t.tab("integer")
    t.hold(1)
    t.scroll_to("#panel-bitexact-litert")
    t.open_number("bitexact-litert", "/results/resnet20/elements_mismatched_propagated")
    t.hold(7)
    t.close_dialog()


def _ptq(t: Tour) -> None:
    t.scroll_to("#panel-ptq-methods")
    t.glide(t.number("ptq-methods", "/results/accuracy/rows/4/drop_pp"))
    t.hold(3)
    t.page.mouse.wheel(0, 360)
    t.hold(4)


def _search(t: Tour) -> None:
    t.tab("records")
    box = t.page.locator("#rec-search")
    t.glide(box, click=True)
    t.page.keyboard.type("realworld", delay=int(110 * t.pace) + 5)
    t.hold(2)
    t.glide(t.page.locator("#view-records [data-exp='realworld-corpus']:visible").first)
    t.hold(6)
    box.fill("")


_MARK_BOX = """() => {
  const g = document.getElementById('graph').getBoundingClientRect();
  const top = Math.max(g.top, 0), bottom = Math.min(g.bottom, innerHeight);
  const mid = [(g.left + g.right) / 2, (top + bottom) / 2];
  const inside = [...document.querySelectorAll('#graph g.gnode.cat-npu')].map(b => [b, b.getBoundingClientRect()])
    .filter(([b, r]) => r.left > g.left + 20 && r.right < g.right - 20 && r.top > top + 20 && r.bottom < bottom - 20);
  const dist = r => Math.hypot((r.left + r.right) / 2 - mid[0], (r.top + r.bottom) / 2 - mid[1]);
  inside.sort((x, y) => dist(x[1]) - dist(y[1]));
  document.querySelectorAll('g.gnode[data-walk]').forEach(b => b.removeAttribute('data-walk'));
  if (inside.length) { inside[0][0].setAttribute('data-walk', '1'); }
}"""


def _model_page(t: Tour) -> None:
    """The Models tab, one model's report page: its graph view zoomed, a node's side panel, the target switched."""
    t.tab("reports")
    t.hold(1)
    t.glide(t.page.locator(f"#view-reports a[href$='models/{MODEL_REPORT}.html']").first, click=True)
    t.page.wait_for_function("document.documentElement.dataset.graphReady === '1'")
    t.hold(1.5)
    # a smooth scroll, not the wheel: over the graph the wheel zooms it
    t.page.evaluate("document.getElementById('graph').scrollIntoView({behavior: 'smooth', block: 'end'})")
    t.hold(1.2)
    t.page.evaluate(_MARK_BOX)  # a placed box near the middle of the graph as shown
    box = t.page.locator("#graph g.gnode[data-walk='1']")
    t.glide(box)
    for _ in range(4):  # wheel-zoom in about the cursor: the box stays under it
        t.page.mouse.wheel(0, -160)
        t.hold(0.3)
    t.hold(1)
    t.glide(box, click=True)
    t.page.locator("#node-info[data-node]").wait_for()
    t.hold(4)
    t.glide(t.page.locator("#target-select"))
    other = t.page.evaluate("[...document.querySelectorAll('#target-select option')].map(o => o.value)")[-1]
    t.page.select_option("#target-select", other)
    t.page.locator(f"#node-info[data-target='{other}']").wait_for()
    t.glide(t.page.locator("#node-info"))
    t.hold(4)


def _deep_link(t: Tour) -> None:
    t.follow("preprocess-doctor", "/results/injections/total/exact_with_spec")
    t.hold(2)
    t.glide(t.page.locator("dialog#raw #raw-json"))
    t.hold(6)
    t.close_dialog()


@dataclass(frozen=True)
class Scene:
    name: str
    title: str  # the chapter title
    caption: Callable[[dict], str]  # the finding, computed from the results
    act: Callable[[Tour], None]
    needs: tuple[str, ...]  # experiments the caption reads


SCENES: list[Scene] = [
    Scene("lint", "Lint across a test corpus", lint_caption, _lint, ("lint-corpus",)),
    Scene("number-json", "A number and its JSON", number_caption, _number, ("lint-corpus",)),
    Scene("scalesim", "Cycle model vs SCALE-Sim", scalesim_caption, _scalesim, ("cost-vs-scalesim",)),
    Scene("vela", "Cycle model vs Arm Vela", vela_caption, _vela, ("cost-vs-vela",)),
    Scene("bitexact", "Integer engine vs LiteRT", bitexact_caption, _bitexact, ("bitexact-litert",)),
    Scene("ptq", "Post-training quantisation", ptq_caption, _ptq, ("ptq-methods",)),
    Scene("search", "Searching the records", realworld_caption, _search, ("realworld-corpus",)),
    Scene("model-page", "A model's report page", model_caption, _model_page, (MODEL_REPORT,)),
    Scene("deep-link", "A deep link to one number", doctor_caption, _deep_link, ("preprocess-doctor",)),
]


def load_results(experiments: Path) -> dict[str, dict]:
    needed = sorted({exp for scene in SCENES for exp in scene.needs})
    missing = [exp for exp in needed if not (experiments / exp / "result.json").is_file()]
    if missing:
        raise SystemExit(f"{experiments}: no result.json for {', '.join(missing)}; run 'npuready run ID' first")
    return {exp: json.loads((experiments / exp / "result.json").read_text(encoding="utf-8")) for exp in needed}


# ---- captions, chapters and media ---------------------------------------------------------------------------

def _stamp(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def webvtt(chapters: list[dict[str, Any]]) -> str:
    cues = [f"{n}\n{_stamp(c['start_s'])} --> {_stamp(c['end_s'])}\n{c['caption']}\n"
            for n, c in enumerate(chapters, start=1)]
    return "WEBVTT\n\n" + "\n".join(cues)


def page_html(doc: dict[str, Any]) -> str:
    """The video page. The captions are burned into the video; they are also a text track built by the page's
    script from the chapters it carries (Chromium refuses a ``<track src>`` across ``file://`` origins), shown as
    text under the video, and downloadable as WebVTT."""
    items = "\n".join(f"<li><a href=\"#t={c['start_s']}\" data-start=\"{c['start_s']}\" data-end=\"{c['end_s']}\">"
                      f"{html.escape(c['title'])}</a> - <span class=\"cap\">{html.escape(c['caption'])}</span></li>"
                      for c in doc["chapters"])
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>npuready walkthrough</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem;color:#13202e}}
video{{width:100%;height:auto;background:#000}}li{{margin:.4rem 0}}
#caption{{min-height:3em;margin:.5rem 0;padding:.4rem .6rem;background:#eef2f6;border-left:4px solid #13202e}}</style>
</head>
<body><main><h1>npuready walkthrough</h1>
<p><a href="../index.html">Back to the site</a>. Captions state what the stored experiments found; they were
computed from <code>experiments/*/result.json</code> when this was recorded ({doc['duration_s']:.0f} s). They are
burned into the video, shown below it as it plays, and available as <a href="{doc['captions']}">WebVTT</a>.</p>
<video controls preload="metadata" src="{doc['video']}"></video>
<p id="caption" aria-live="polite"></p>
<h2>Chapters</h2><ol id="chapters">
{items}
</ol></main>
<script>(() => {{
  const v = document.querySelector('video'), out = document.getElementById('caption');
  const links = [...document.querySelectorAll('#chapters a[data-start]')];
  const track = v.addTextTrack('captions', 'Findings', 'en');
  for (const a of links) {{
    track.addCue(new VTTCue(+a.dataset.start, +a.dataset.end, a.parentNode.querySelector('.cap').textContent));
  }}
  track.mode = 'hidden';  /* burned into the frames already: the page shows the active cue as text */
  const show = () => {{ const c = track.activeCues; out.textContent = c && c.length ? c[0].text : ''; }};
  track.addEventListener('cuechange', show);
  for (const a of links) a.addEventListener('click', (e) => {{
    e.preventDefault(); v.currentTime = +a.dataset.start; v.play().catch(() => {{}}); }});
}})();</script>
</body></html>
"""


def _ffmpeg() -> str:
    found = shutil.which("ffmpeg")
    if found is None:
        raise SystemExit("ffmpeg not found; run 'python tools/ensure_browser.py' (apt-get install ffmpeg)")
    return found


def _playwright_ffmpeg(tmp: Path) -> None:
    """Point Playwright's video recorder at the system ffmpeg (it cannot download its own here)."""
    import playwright

    browsers = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    revision = next(b["revision"] for b in json.loads(browsers.read_text())["browsers"] if b["name"] == "ffmpeg")
    folder = tmp / "browsers" / f"ffmpeg-{revision}"
    folder.mkdir(parents=True)
    (folder / "ffmpeg-linux").symlink_to(_ffmpeg())
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(tmp / "browsers")


def record(site: Path, out: Path, experiments: Path, pace: float = 1.0) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    index = site / "index.html"
    if not index.is_file():
        raise SystemExit(f"{index}: not built; run 'npuready site' first")
    results = load_results(experiments)
    captions = [scene.caption(results) for scene in SCENES]
    problems: list[str] = []
    chapters: list[dict[str, Any]] = []
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="npuready-walkthrough-") as tmp_name:
        tmp = Path(tmp_name)
        _playwright_ffmpeg(tmp)
        with sync_playwright() as p:
            browser = launch(p)
            context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, record_video_dir=str(tmp),
                                          record_video_size=VIEWPORT)
            context.add_init_script(CURSOR_JS)
            page = context.new_page()
            tour = Tour(page, index.resolve().as_uri(), pace)
            page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
            page.on("request", lambda r: None if is_local(r.url) else problems.append(f"network request: {r.url}"))
            page.goto(tour.index_uri)
            page.wait_for_function("document.documentElement.dataset.ready === '1'")
            page.mouse.move(VIEWPORT["width"] / 2, VIEWPORT["height"] / 2)
            for scene, caption in zip(SCENES, captions):
                if problems:
                    break
                start = tour.now()
                scene.act(tour)
                chapters.append({"scene": scene.name, "title": scene.title, "caption": caption,
                                 "start_s": round(start, 2), "end_s": round(tour.now(), 2),
                                 "reads": [f"experiments/{exp}/result.json" for exp in scene.needs]})
            tour.hold(1)
            duration = tour.now()
            video = page.video
            context.close()
            browser.close()
            if problems:
                raise SystemExit("walkthrough aborted:\n  " + "\n  ".join(problems))
            webm = Path(video.path())
            # the screencast starts a moment before the tour's clock: trim that lead so the cues line up
            lead = max(0.0, _duration(webm) - duration)
            # a busy machine stretches every step; play such a tour faster so it stays within MAX_SECONDS
            speed = max(1.0, duration / MAX_SECONDS)
            for chapter in chapters:
                chapter["start_s"] = round(chapter["start_s"] / speed, 2)
                chapter["end_s"] = round(chapter["end_s"] / speed, 2)
            doc = {"video": "walkthrough.mp4", "captions": "walkthrough.vtt", "gif": "walkthrough.gif",
                   "duration_s": round(duration / speed, 2), "recorded_s": round(duration, 2),
                   "speed": round(speed, 3), "viewport": VIEWPORT, "pace": pace,
                   "load_1min": round(os.getloadavg()[0], 2), "chapters": chapters}
            (out / "walkthrough.vtt").write_text(webvtt(chapters), encoding="utf-8")
            _encode(webm, lead, speed, out)
    (out / "scenes.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    (out / "index.html").write_text(page_html(doc), encoding="utf-8")
    return doc


def _duration(media: Path) -> float:
    probe = shutil.which("ffprobe")
    if probe is None:
        return 0.0
    run = subprocess.run([probe, "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(media)],
                         capture_output=True, text=True)
    try:
        return float(run.stdout.strip())
    except ValueError:
        return 0.0


CAPTION_STYLE = "FontName=DejaVu Sans,FontSize=12,Outline=1,Shadow=0,BorderStyle=3,BackColour=&H30000000,MarginV=8"


def _subtitles(out: Path) -> str:
    """ffmpeg's subtitles filter burning ``walkthrough.vtt`` in (its path escaped for the filter graph)."""
    vtt = (out / "walkthrough.vtt").as_posix().replace("\\", "/").replace(":", "\\:").replace("'", "\\'")
    return f"subtitles='{vtt}':force_style='{CAPTION_STYLE}'"


def _encode(webm: Path, lead: float, speed: float, out: Path) -> None:
    """MP4 (H.264) and GIF, both with the captions burned in (the cues are already on the played clock)."""
    ffmpeg = _ffmpeg()
    base = [ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-ss", f"{lead:.3f}", "-i", str(webm)]
    pts = f"setpts=PTS/{speed:.4f}"
    subprocess.run([*base, "-vf", f"{pts},{_subtitles(out)},fps={MP4_FPS},format=yuv420p", "-c:v", "libx264",
                    "-preset", "medium", "-crf", str(MP4_CRF), "-movflags", "+faststart", "-an",
                    str(out / "walkthrough.mp4")], check=True)
    burn = f"{pts},{_subtitles(out)},fps={GIF_FPS},scale={GIF_WIDTH}:-1:flags=lanczos"
    with tempfile.TemporaryDirectory() as tmp:
        palette = Path(tmp) / "palette.png"
        subprocess.run([*base, "-vf", f"{burn},palettegen=max_colors=96:stats_mode=diff", str(palette)], check=True)
        subprocess.run([*base, "-i", str(palette),
                        "-lavfi", f"{burn}[x];[x][1:v]paletteuse=dither=none:diff_mode=rectangle",
                        "-loop", "0", str(out / "walkthrough.gif")], check=True)
    size = (out / "walkthrough.gif").stat().st_size
    if size > GIF_LIMIT:
        raise SystemExit(f"walkthrough.gif is {size} bytes; over the {GIF_LIMIT // 2**20} MiB limit: lower GIF_WIDTH "
                         "or GIF_FPS")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=REPO / "site", help="built site folder (default: site/)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: <site>/walkthrough)")
    parser.add_argument("--experiments", type=Path, default=REPO / "experiments",
                        help="where the captions read results (default: experiments/)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="scale every pause and cursor glide (default 1; tests use less)")
    args = parser.parse_args(argv)
    out = args.out or args.site / "walkthrough"
    doc = record(args.site, out, args.experiments, args.pace)
    sizes = {f: (out / f).stat().st_size for f in ("walkthrough.mp4", "walkthrough.gif", "walkthrough.vtt")}
    print(f"recorded {len(doc['chapters'])} chapters, {doc['duration_s']:.0f} s (tour {doc['recorded_s']:.0f} s, "
          f"played at {doc['speed']:.2f}x), to {out}: "
          + ", ".join(f"{f} {s / 1024:.0f} KiB" for f, s in sizes.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
