"""tools/record_walkthrough.py: captions computed from the results, WebVTT and chapters, a console error aborts,
and a short recording of the real site yields the video, captions, GIF, chapters and page."""
from __future__ import annotations

import copy
import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from npuready.paths import experiments_dir
from npuready.site.browser import chromium_path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "record_walkthrough.py"


def _tool():
    spec = importlib.util.spec_from_file_location("record_walkthrough", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


def _needs_browser():
    if chromium_path() is None:
        pytest.skip("no system Chromium at /usr/bin/chromium: run 'python tools/ensure_browser.py'")


def test_console_error_aborts_the_recording(tmp_path):
    _needs_browser()
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><html><body><section class='view' id='view-findings'>findings</section>"
        "<script>console.error('boom from the page'); document.documentElement.dataset.ready = '1';</script>"
        "</body></html>", encoding="utf-8")
    # a subprocess: the browser tests already hold a sync Playwright session in this process
    run = subprocess.run([sys.executable, str(TOOL), "--site", str(site), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert run.stderr.strip() == "walkthrough aborted:\n  console.error: boom from the page"
    assert not (tmp_path / "out" / "walkthrough.gif").exists()


def test_scenes_tell_the_findings_in_order():
    names = [scene.name for scene in _tool().SCENES]
    assert names == ["lint", "number-json", "scalesim", "vela", "bitexact", "ptq", "search", "model-page", "deep-link"]


def test_captions_are_computed_from_the_results_not_typed():
    tool = _tool()
    results = tool.load_results(experiments_dir())
    changed = copy.deepcopy(results)
    summary = changed["lint-corpus"]["results"]["corpus"]["summary"]
    summary["blocked"], summary["models"], summary["clean"] = 7, 11, 3
    changed["cost-vs-scalesim"]["results"]["summary"].update(layers=12, pairs=5, max_abs_layer_error=0.0123)
    assert tool.lint_caption(changed).startswith("Lint on edge-10: 7 of 11 ONNX test models have a blocking "
                                                 "finding, 3 are clean.")
    assert tool.scalesim_caption(changed).startswith("Cycle model vs SCALE-Sim: 12 conv/FC layers in 5 model x "
                                                     "array pairs, worst layer error 1.2% (goal 1.0%).")
    rows = changed["ptq-methods"]["results"]["accuracy"]["rows"]
    rows[:] = [{"model": "m", "method": "a", "drop_pp": 0.5}, {"model": "n", "method": "b", "drop_pp": 2.25}]
    assert tool.ptq_caption(changed) == ("Post-training quantisation: 1 of 2 model x method runs lose at most 1 point "
                                         "of accuracy; the worst, b on n, loses 2.2.")
    report = changed[tool.MODEL_REPORT]["results"]
    target = report["model"]["targets"][0]
    report["graph"]["node_count"] = 1234
    report["partition"]["targets"][target]["npu_segments"] = 3
    report["cost"]["targets"][target]["total"].update(layers_npu=1000, layers_cpu=7, cycles=4567890)
    assert tool.model_caption(changed) == (f"The {report['model']['label']} report page draws its 1,234 ONNX nodes: on "
                                           f"{target}, 1,000 layers on the NPU and 7 on the CPU in 3 NPU segments, "
                                           "4,567,890 cycles (simulated). A node's panel follows the target.")


def test_webvtt_has_one_cue_per_chapter():
    vtt = _tool().webvtt([{"caption": "A found 3.", "start_s": 0.5, "end_s": 61.25},
                          {"caption": "B found 4.", "start_s": 61.25, "end_s": 3725.0}])
    assert vtt == ("WEBVTT\n\n1\n00:00:00.500 --> 00:01:01.250\nA found 3.\n\n"
                   "2\n00:01:01.250 --> 01:02:05.000\nB found 4.\n")


def test_a_short_recording_of_the_site_writes_video_captions_gif_and_chapters(tmp_path):
    _needs_browser()
    site = Path(__file__).resolve().parents[2] / "site"
    out = tmp_path / "walkthrough"
    run = subprocess.run([sys.executable, str(TOOL), "--site", str(site), "--out", str(out), "--pace", "0.05"],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    doc = json.loads((out / "scenes.json").read_text())
    tool = _tool()
    captions = [scene.caption(tool.load_results(experiments_dir())) for scene in tool.SCENES]
    assert [c["caption"] for c in doc["chapters"]] == captions
    starts = [c["start_s"] for c in doc["chapters"]]
    assert starts == sorted(starts) and all(c["end_s"] >= c["start_s"] for c in doc["chapters"])
    vtt = (out / "walkthrough.vtt").read_text()
    assert vtt == tool.webvtt(doc["chapters"])
    assert (out / "walkthrough.mp4").read_bytes()[4:8] == b"ftyp"
    assert (out / "walkthrough.gif").read_bytes()[:6] == b"GIF89a"
    page = (out / "index.html").read_text()
    assert 'href="walkthrough.vtt"' in page and 'src="walkthrough.mp4"' in page
    assert "<track" not in page  # a track src is refused across file:// origins: the page builds its cues
    assert _caption_band_is_dark(out / "walkthrough.mp4", doc["chapters"][-1]) is True  # burned in
    width = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width",
                            "-of", "csv=p=0", str(out / "walkthrough.gif")], capture_output=True, text=True)
    assert int(width.stdout) == tool.GIF_WIDTH == 960


def _caption_band_is_dark(video: Path, chapter: dict) -> bool:
    """The burned-in caption: a frame inside the cue has a dark box with light text near its bottom (the site's
    pages are light there)."""
    from PIL import Image

    at = (chapter["start_s"] + chapter["end_s"]) / 2
    run = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-ss", f"{at:.2f}", "-i", str(video),
                          "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"], capture_output=True, check=True)
    img = Image.open(io.BytesIO(run.stdout)).convert("L")
    w, h = img.size
    band = img.crop((w // 4, int(h * 0.86), 3 * w // 4, h - 4))
    pixels = band.tobytes()
    dark = sum(p < 60 for p in pixels) / len(pixels)
    light = sum(p > 200 for p in pixels) / len(pixels)
    return dark > 0.3 and light > 0.05


def test_the_video_page_shows_its_captions_from_file_without_a_request_refused(page_and_watch):
    """The committed walkthrough page, opened from file://: cues built by the page (one per chapter), the active
    one shown as text when a chapter link seeks there, no console error, nothing but local files requested."""
    page, watch = page_and_watch
    folder = Path(__file__).resolve().parents[2] / "site" / "walkthrough"
    doc = json.loads((folder / "scenes.json").read_text())
    page.goto((folder / "index.html").as_uri())
    cues = page.evaluate("[...document.querySelector('video').textTracks[0].cues].map(c => [c.startTime, c.text])")
    assert cues == [[c["start_s"], c["caption"]] for c in doc["chapters"]]
    chapter = doc["chapters"][2]
    page.evaluate("a => { const v = document.querySelector('video'); v.muted = true; "
                  "document.querySelectorAll('#chapters a')[a].click(); }", 2)
    page.wait_for_function("t => document.getElementById('caption').textContent === t", arg=chapter["caption"])
    # the media element cancels its first whole-file load once it seeks by ranges: Chromium reports that
    # cancelled load as a failed request, so failed requests are checked to be files that exist here
    assert [e for e in watch.errors if not e.startswith("requestfailed: ")] == [] and watch.network == []
    from urllib.request import url2pathname
    assert all(Path(url2pathname(u[len("file://"):])).is_file() for u in watch.requests)
