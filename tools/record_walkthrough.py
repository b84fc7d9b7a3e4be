#!/usr/bin/env python3
"""Record a scripted headless tour of the built site: one PNG per scene, an MP4 and an animated GIF.

    python tools/record_walkthrough.py [--site site] [--out site/walkthrough] [--seconds 4]

Drives Debian Chromium through Playwright over ``site/index.html`` (file://): findings → a number's
raw JSON → model experiments → NPU analysis → integer verification → experiment records (search,
deep link) → docs. Each scene gets a caption bar and is captured as a PNG; ffmpeg assembles the PNGs
into ``walkthrough.mp4`` (H.264) and ``walkthrough.gif`` (palette, downscaled, < 3 MB), and
``scenes.json`` lists scene captions and files. Any console error, page error, failed request or
non-file:// request aborts the recording (exit 1). Needs: playwright (pip), /usr/bin/chromium, ffmpeg.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generator"))

from npuready.site.browser import is_local, launch  # noqa: E402

VIEWPORT = {"width": 1280, "height": 720}
GIF_WIDTH = 800
GIF_LIMIT = 3 * 1024 * 1024

CAPTION_JS = """(text) => {
  let bar = document.getElementById('walkthrough-caption');
  if (!bar) {
    bar = document.createElement('div');
    bar.id = 'walkthrough-caption';
    bar.style.cssText = 'position:fixed;left:0;right:0;bottom:0;z-index:99;padding:12px 24px;' +
      'background:rgba(19,32,46,.92);color:#fff;font:600 18px/1.4 system-ui,sans-serif;text-align:center';
    document.body.appendChild(bar);
  }
  bar.textContent = text;
}"""


def _goto_view(view: str) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        page.evaluate(f"location.hash = '#{view}'")
        page.locator(f"#view-{view}").wait_for(state="visible")
        page.evaluate("window.scrollTo(0, 0)")
    return act


def _open_first_number(page: Any) -> None:
    page.evaluate("location.hash = '#findings'")
    page.locator("#view-findings article.finding button.num").first.click()
    page.locator("dialog#raw").wait_for(state="visible")


def _close_dialog(page: Any) -> None:
    if page.locator("dialog#raw").is_visible():
        page.locator("#raw-close").click()


def _npu_lint(page: Any) -> None:
    _goto_view("npu")(page)
    panel = page.locator("#view-npu article.panel").first
    panel.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -80)")


def _search_records(page: Any) -> None:
    _goto_view("records")(page)
    page.locator("#rec-search").fill("lint")


def _deep_link(page: Any) -> None:
    exp = page.evaluate("document.querySelector('details.record').dataset.exp")
    number = page.locator(f'#record-{exp} .section button.num').first
    path = number.get_attribute("data-path") if number.count() else ""
    page.locator("#rec-search").fill("")
    page.evaluate(f"location.hash = {json.dumps(f'#exp={exp}&path={path}')}")
    page.locator("dialog#raw").wait_for(state="visible")


def _docs(page: Any) -> None:
    _goto_view("docs")(page)


SCENES: list[tuple[str, str, Callable[[Any], None]]] = [
    ("findings", "The first screen says what the stored experiments found — every number is a button.", _goto_view("findings")),
    ("raw-json", "A number opens the raw JSON record it was read from: copy it or download it.", _open_first_number),
    ("models", "Model experiments: what changed in a model and how accuracy and cost moved.", lambda p: (_close_dialog(p), _goto_view("models")(p))),
    ("npu", "NPU analysis: lint findings, partitions and per-layer cost per target (simulated).", _npu_lint),
    ("integer", "Integer verification: float vs fake-quant vs integer, and bit-exactness vs LiteRT.", _goto_view("integer")),
    ("records", "Experiment records: search and filter every stored experiment and its provenance.", _search_records),
    ("deep-link", "Deep links: #exp=<id>&path=<JSON pointer> opens a record and one of its numbers.", _deep_link),
    ("docs", "Docs: rule pages, support tables and the generated experiment tables.", lambda p: (_close_dialog(p), _docs(p))),
]


def record(site: Path, out: Path, seconds: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    index = site / "index.html"
    if not index.is_file():
        raise SystemExit(f"{index}: not built; run 'npuready site' first")
    problems: list[str] = []
    shots: list[dict[str, str]] = []
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("scene-*.png"):
        old.unlink()
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=VIEWPORT, device_scale_factor=1)
        page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.on("request", lambda r: None if is_local(r.url) else problems.append(f"network request: {r.url}"))
        page.goto(index.as_uri())
        page.wait_for_function("document.documentElement.dataset.ready === '1'")
        for n, (name, caption, act) in enumerate(SCENES, start=1):
            act(page)
            page.evaluate(CAPTION_JS, caption)
            page.wait_for_timeout(400)  # charts draw, dialog settles
            file = f"scene-{n:02d}-{name}.png"
            page.screenshot(path=str(out / file))
            shots.append({"scene": name, "caption": caption, "png": file})
            if problems:
                break
        browser.close()
    if problems:
        raise SystemExit("walkthrough aborted:\n  " + "\n  ".join(problems))
    _assemble(out, shots, seconds)
    index_doc = {"scenes": shots, "video": "walkthrough.mp4", "gif": "walkthrough.gif", "seconds_per_scene": seconds}
    (out / "scenes.json").write_text(json.dumps(index_doc, indent=2) + "\n", encoding="utf-8")
    return index_doc


def _assemble(out: Path, shots: list[dict[str, str]], seconds: float) -> None:
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise SystemExit("ffmpeg not found; run 'python tools/ensure_browser.py' (apt-get install ffmpeg)")
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "scenes.txt"
        lines = []
        for shot in shots:
            lines += [f"file '{(out / shot['png']).as_posix()}'", f"duration {seconds}"]
        lines.append(f"file '{(out / shots[-1]['png']).as_posix()}'")  # concat demuxer: last frame twice
        listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
        base = [ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", str(listing)]
        subprocess.run([*base, "-vf", "fps=10,format=yuv420p", "-c:v", "libx264", "-preset", "veryslow",
                        "-crf", "28", "-movflags", "+faststart", str(out / "walkthrough.mp4")], check=True)
        palette = Path(tmp) / "palette.png"
        scale = f"fps=1/{seconds},scale={GIF_WIDTH}:-1:flags=lanczos"
        subprocess.run([*base, "-vf", f"{scale},palettegen=max_colors=128:stats_mode=full", str(palette)], check=True)
        subprocess.run([*base, "-i", str(palette), "-lavfi", f"{scale}[x];[x][1:v]paletteuse=dither=none",
                        "-loop", "0", str(out / "walkthrough.gif")], check=True)
    size = (out / "walkthrough.gif").stat().st_size
    if size > GIF_LIMIT:
        raise SystemExit(f"walkthrough.gif is {size} bytes; over the 3 MB limit — lower GIF_WIDTH or scenes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=REPO / "site", help="built site folder (default: site/)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: <site>/walkthrough)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds each scene is shown (default 4)")
    args = parser.parse_args(argv)
    out = args.out or args.site / "walkthrough"
    doc = record(args.site, out, args.seconds)
    sizes = {f: (out / f).stat().st_size for f in ("walkthrough.mp4", "walkthrough.gif")}
    print(f"recorded {len(doc['scenes'])} scenes to {out}: "
          + ", ".join(f"{f} {s / 1024:.0f} KiB" for f, s in sizes.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
