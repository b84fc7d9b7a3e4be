"""Hostile input on the newer surfaces (issue 31): outputs that are not regular files, configuration and
spec paths, deep JSON/TOML, oversized or special files, shape bombs, registry names.

Each case runs the verb in-process through ``npuready.cli.main`` and asserts the exit code, exactly one
stderr line naming npuready, no traceback, and that nothing outside the case's folder changed. Every file is
small (sparse files for "huge" ones), so the suite is bounded in time and memory like ``test_hostile_inputs``.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = zoo_dir() / "tinycnn.onnx"


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def _one_line_exit_2(rc, err, *words):
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith("npuready ") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def _device(path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null twin, never the system's
    return path


# ----- 1. outputs -----------------------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["lint", "cost", "partition", "intake"])
def test_report_output_onto_a_device_node_is_refused_and_the_node_survives(verb, tmp_path, capsys):
    dev = _device(tmp_path / "null")
    rc, _, err = _run([verb, MODEL, "-o", dev], capsys)
    _one_line_exit_2(rc, err, "is a character device, not a regular file")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_write_baseline_onto_a_device_node_is_refused(tmp_path, capsys):
    dev = _device(tmp_path / "null")
    rc, _, err = _run(["lint", MODEL, "--isolated", "--write-baseline", dev], capsys)
    _one_line_exit_2(rc, err, "character device")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_report_output_onto_a_fifo_or_folder_is_refused(kind, tmp_path, capsys):
    target = tmp_path / "out"
    os.mkfifo(target) if kind == "fifo" else target.mkdir()
    rc, _, err = _run(["lint", MODEL, "--isolated", "-o", target], capsys)
    _one_line_exit_2(rc, err, "not a regular file")
    assert not target.is_file()


def test_dash_output_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(["lint", MODEL, "--isolated", "-o", "-", "--format", "json"], capsys)
    assert rc in (0, 1) and err == "" and out.startswith("{") and list(tmp_path.iterdir()) == []


def test_a_symlinked_output_is_written_through(tmp_path, capsys):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    rc, out, err = _run(["lint", MODEL, "--isolated", "-o", link, "--format", "json"], capsys)
    assert rc in (0, 1) and err == "" and out == ""
    assert link.is_symlink() and real.read_text().startswith("{")


# ----- 2. configuration is input, not trust ---------------------------------------------------------
def _lint_in(folder: Path, capsys, *extra):
    model = folder / "m.onnx"
    if not model.exists():
        model.write_bytes(MODEL.read_bytes())
    return _run(["lint", model, *extra], capsys)


@pytest.fixture()
def repo(tmp_path):
    """A checkout (a .git folder) holding the configuration; decoys outside it."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (tmp_path / "outside.json").write_text('{"format": "npuready-lint-baseline/1", "findings": []}')
    return root


@pytest.mark.parametrize("value, words", [
    ("/etc/shadow", "expected a path relative to npuready.toml's folder"),
    ("/dev/zero", "expected a path relative to npuready.toml's folder"),
    ("../outside.json", "resolves outside"),
    ("ci/../../outside.json", "resolves outside"),
])
def test_config_baseline_outside_the_repository_is_refused(value, words, repo, capsys):
    (repo / "npuready.toml").write_text(f'[lint]\nbaseline = "{value}"\n')
    rc, _, err = _lint_in(repo, capsys)
    _one_line_exit_2(rc, err, "npuready.toml: [lint.baseline]", words)


def test_config_baseline_symlinked_out_of_the_repository_is_refused(repo, capsys):
    (repo / "base.json").symlink_to(repo.parent / "outside.json")
    (repo / "npuready.toml").write_text('[lint]\nbaseline = "base.json"\n')
    _one_line_exit_2(*_lint_in(repo, capsys)[::2], "resolves outside")


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "huge"])
def test_config_baseline_must_be_a_regular_file_within_budget(kind, repo, capsys):
    from npuready.inputs import budget

    base = repo / "base.json"
    if kind == "fifo":
        os.mkfifo(base)
    elif kind == "device":
        _device(base)
    elif kind == "folder":
        base.mkdir()
    else:
        with open(base, "wb") as f:  # sparse: no disk used
            f.truncate(budget.MAX_BASELINE_BYTES + 1)
    (repo / "npuready.toml").write_text('[lint]\nbaseline = "base.json"\n')
    words = "above the" if kind == "huge" else "expected a regular JSON file"
    _one_line_exit_2(*_lint_in(repo, capsys)[::2], "base.json", words)


def test_config_baseline_inside_the_repository_works(repo, capsys):
    (repo / "ci").mkdir()
    (repo / "ci" / "base.json").write_text('{"format": "npuready-lint-baseline/1", "findings": []}')
    (repo / "sub").mkdir()
    (repo / "sub" / "npuready.toml").write_text('[lint]\nbaseline = "../ci/base.json"\n')
    rc, _, err = _lint_in(repo / "sub", capsys)
    assert rc in (0, 1) and err == ""


@pytest.mark.parametrize("name, data, words", [
    ("npuready.toml", b"[lint]\nfail-on = \"warn\xff\"\n", "not UTF-8 text (byte 0xff"),
    ("pyproject.toml", b"[project]\nname = \"\xe9\"\n", "not UTF-8 text (byte 0xe9"),
    ("pyproject.toml", b"tool = 5\n", "[tool]: expected a table, got int 5"),
    ("npuready.toml", b"x = " + b"[" * 20000 + b"]" * 20000 + b"\n", "nested more than 64 levels deep"),
    ("pyproject.toml", b"x = " + b"[" * 50000 + b"]" * 50000 + b"\n", "nested more than 64 levels deep"),
])
def test_hostile_configuration_files_exit_2_with_one_line(name, data, words, tmp_path, capsys):
    (tmp_path / name).write_bytes(data)
    _one_line_exit_2(*_lint_in(tmp_path, capsys)[::2], name, words)


def test_deeply_nested_baseline_json_exits_2(tmp_path, capsys):
    base = tmp_path / "base.json"
    base.write_text("[" * 20000 + "]" * 20000)
    _one_line_exit_2(*_lint_in(tmp_path, capsys, "--isolated", "--baseline", base)[::2], "nested more than 64")


# ----- 3. robust readers ------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_connect_timeout_must_be_finite_and_positive(value, capsys):
    rc, _, err = _run(["run", "probes", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", value], capsys)
    _one_line_exit_2(rc, err, f"--connect-timeout {float(value)}: must be a finite number of seconds above 0")


# ----- 4. sizes and types checked before reading or hashing ------------------------------------------
def _never_read_whole(monkeypatch, path: Path):
    real = Path.read_bytes

    def read_bytes(self):
        assert self.resolve() != path.resolve(), f"read {self} whole"
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)


def test_report_refuses_a_sparse_10_gib_model_without_reading_it(tmp_path, capsys, monkeypatch):
    big = tmp_path / "big.onnx"
    with open(big, "wb") as f:
        f.truncate(10 << 30)
    _never_read_whole(monkeypatch, big)
    rc, _, err = _run(["report", big, "--out", tmp_path / "r", "--stages", "lint"], capsys)
    _one_line_exit_2(rc, err, "big.onnx: file is 10737418240 bytes, above the")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("verb", ["lint", "cost", "partition", "intake", "quantize"])
def test_every_model_reader_refuses_a_sparse_10_gib_model_without_reading_it(verb, tmp_path, capsys, monkeypatch):
    big = tmp_path / "big.onnx"
    with open(big, "wb") as f:
        f.truncate(10 << 30)
    _never_read_whole(monkeypatch, big)
    extra = ["--out", tmp_path / "q.onnx"] if verb == "quantize" else []
    rc, _, err = _run([verb, big, *extra], capsys)
    _one_line_exit_2(rc, err, "big.onnx: file is 10737418240 bytes, above the")


@pytest.mark.parametrize("verb", ["lint", "cost", "partition", "report"])
def test_a_huge_target_toml_is_refused_from_its_size(verb, tmp_path, capsys, monkeypatch):
    from npuready.inputs import budget

    target = tmp_path / "huge.toml"
    with open(target, "wb") as f:
        f.truncate(budget.MAX_CONFIG_BYTES + 1)
    _never_read_whole(monkeypatch, target)
    extra = ["--out", tmp_path / "r"] if verb == "report" else []
    rc, _, err = _run([verb, MODEL, "--target", target, *extra], capsys)
    _one_line_exit_2(rc, err, "huge.toml: 1,048,577 bytes, above the 1,048,576-byte budget for a TOML file")
    assert not (tmp_path / "r").exists()


def test_a_deeply_nested_target_toml_is_one_line(tmp_path, capsys):
    target = tmp_path / "deep.toml"
    target.write_text("x = " + "[" * 20000 + "]" * 20000 + "\n")
    _one_line_exit_2(*_run(["lint", MODEL, "--target", target], capsys)[::2], "nested more than 64 levels deep")


def test_report_escapes_control_characters_from_the_file_name(tmp_path, capsys):
    evil = tmp_path / "m\x1b[2Jred\x07.onnx"
    evil.write_bytes(MODEL.read_bytes())
    rc, out, err = _run(["report", evil, "--out", tmp_path / "r", "--stages", "lint"], capsys)
    assert rc in (0, 1), err
    assert "\x1b" not in out + err and "\x07" not in out + err and "m\\x1b[2Jred\\x07.onnx" in out


# ----- 5. npuready run takes ids; spec paths and [params] checked before anything runs ------------------
SPEC = 'id = "{id}"\nkind = "model-report"\ntitle = "t"\nsummary = "s"\nview = "records"\n\n[params]\n{params}\n'


@pytest.fixture()
def spec_repo(tmp_path, monkeypatch):
    """A repository (NPUREADY_REPO) with experiments/<id>/spec.toml files and one model; decoys outside."""
    root = tmp_path / "repo"
    (root / "experiments").mkdir(parents=True)
    (root / "models").mkdir()
    (root / "models" / "m.onnx").write_bytes(MODEL.read_bytes())
    (tmp_path / "outside.onnx").write_bytes(MODEL.read_bytes())
    monkeypatch.setenv("NPUREADY_REPO", str(root))

    def declare(exp_id: str, params: str) -> Path:
        folder = root / "experiments" / exp_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "spec.toml").write_text(SPEC.format(id=exp_id, params=params))
        return folder
    return root, declare


@pytest.mark.parametrize("given", ["/abs/path/spec", "../../x", "experiments/e", "E", "e/..", ""])
def test_run_refuses_paths_and_non_ids(given, spec_repo, capsys):
    rc, _, err = _run(["run", given, "--serial"], capsys)
    _one_line_exit_2(rc, err, "not an experiment id", "npuready run --list")


def test_run_with_an_absolute_spec_folder_writes_nothing_outside(spec_repo, capsys):
    root, declare = spec_repo
    folder = declare("e", 'model = "models/m.onnx"\nstages = ["lint"]\ntargets = ["edge-10"]')
    rc, _, err = _run(["run", folder, "--serial"], capsys)
    _one_line_exit_2(rc, err, "not an experiment id")
    assert not (folder / "result.json").exists()


@pytest.mark.parametrize("params, words", [
    ('model = "/dev/zero"', "[params] model: '/dev/zero' is absolute"),
    ('model = "../outside.onnx"', "climbs out with '..'"),
    ('model = "fifo.onnx"', "is a FIFO, expected a regular file"),
    ('model = "link.onnx"', "outside"),
    ('model = "models"', "is a folder, expected a regular file"),
    ('model = "models/m.onnx"\nimages = "x"', "[params] images: expected an integer, got 'x'"),
    ('model = "models/m.onnx"\ninput_shapes = {x = "abc"}', "[params] input_shapes.x: expected a list, got 'abc'"),
    ('model = "models/m.onnx"\nbatch = "x"', "[params] batch: expected an integer, got 'x'"),
    ('model = "models/m.onnx"\nstages = ["lint", "dance"]', "[params] stages[1]: expected one of"),
    ('model = "models/m.onnx"\ncolour = 1', "unknown field 'colour'"),
])
def test_bad_spec_params_are_refused_before_anything_runs(params, words, spec_repo, capsys):
    root, declare = spec_repo
    os.mkfifo(root / "fifo.onnx")
    (root / "link.onnx").symlink_to(root.parent / "outside.onnx")
    folder = declare("bad", params)
    good = declare("good", 'model = "models/m.onnx"\nstages = ["lint"]\ntargets = ["edge-10"]')
    rc, _, err = _run(["run", "good", "bad", "--serial"], capsys)  # good is first: it must not have run
    _one_line_exit_2(rc, err, "spec.toml: [params]" if "params]" in words else "spec.toml", words)
    assert not (good / "result.json").exists() and not (folder / "result.json").exists()


def test_a_spec_whose_id_is_invalid_is_refused_before_it_runs(spec_repo, capsys):
    root, declare = spec_repo
    folder = declare("ok", 'model = "models/m.onnx"')
    (folder / "spec.toml").write_text(SPEC.format(id="Bad_Id", params='model = "models/m.onnx"'))
    _one_line_exit_2(*_run(["run", "ok", "--serial"], capsys)[::2], "id 'Bad_Id' is not an experiment id")


def test_a_file_based_model_report_result_holds_no_machine_path(spec_repo, capsys):
    root, declare = spec_repo
    folder = declare("mr", 'model = "models/m.onnx"\nstages = ["lint", "partition", "cost"]\ntargets = ["edge-10"]')
    rc, out, err = _run(["run", "mr", "--serial"], capsys)
    assert rc == 0, err
    text = (folder / "result.json").read_text()
    assert str(root) not in text and str(root.parent) not in text and '"models/m.onnx"' in text


def test_no_committed_result_names_an_absolute_machine_path():
    import re

    from npuready.paths import experiments_dir

    pattern = re.compile(r'"(/(?:home|root|work|tmp|Users|usr|var|opt|mnt)/|[A-Za-z]:\\\\)')
    found = {p.parent.name: m.group(0) for p in sorted(experiments_dir().glob("*/result.json"))
             if (m := pattern.search(p.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("kind, words", [("deep", "nested more than 64 levels deep"), ("fifo", "not a regular file"),
                                         ("list", "top level must be an object")])
def test_run_compare_reads_a_hostile_reproduction_in_one_line(kind, words, tmp_path, capsys):
    target = tmp_path / "probes" / "result.json"
    target.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("[" * 20000 + "]" * 20000 if kind == "deep" else "[1]")
    _one_line_exit_2(*_run(["run", "probes", "--compare", tmp_path], capsys)[::2], words)


# ----- 6. shape bombs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["lint", "cost", "partition", "intake", "report"])
def test_a_290_byte_shape_bomb_is_refused_on_every_verb(verb, tmp_path, capsys):
    from test_constant_budget import _bomb

    path = _bomb(tmp_path / "bomb.onnx", 1 << 30)
    extra = ["--out", tmp_path / "r"] if verb == "report" else []
    rc, _, err = _run([verb, path, *extra], capsys)
    _one_line_exit_2(rc, err, "node 'fill' (ConstantOfShape)", "1,073,741,824 elements", "--max-constant-bytes")
    assert not (tmp_path / "r").exists()


# ----- 7. registry names --------------------------------------------------------------------------------
@pytest.mark.parametrize("name, words", [("CON", "CON is a Windows device name"), ("LPT1", "LPT1 is a Windows"),
                                         ("nul", "NUL is a Windows"), ("a.", "ends with a dot"),
                                         ("index.json.", "ends with a dot")])
def test_deploy_refuses_registry_names_that_alias_on_windows(name, words, tmp_path, capsys):
    calib = tmp_path / "calib"
    calib.mkdir()
    rc, _, err = _run(["deploy", MODEL, "--calib", calib, "--registry", tmp_path / "reg", "--name", name], capsys)
    _one_line_exit_2(rc, err, words)
    assert not (tmp_path / "reg" / "index.json").exists()


def _peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module", autouse=True)
def _peak_before_this_module():
    return _peak_mib()  # the high-water mark the earlier test modules of this process left


def test_peak_memory_of_this_suite_stays_bounded(_peak_before_this_module):
    """No case made the process allocate what its file claimed (2^30-element bombs: 4+ GiB; 10 GiB sparse
    files): the high-water mark stays under 3 GiB, or rose by less than 1.5 GiB over what the earlier
    modules of the same pytest process had already reached."""
    assert _peak_mib() < max(3072, _peak_before_this_module + 1536)


@pytest.mark.parametrize("kind", ["device", "file", "fifo"])
def test_report_out_that_is_not_a_folder_is_refused_before_the_work(kind, tmp_path, capsys):
    out = tmp_path / "out"
    _device(out) if kind == "device" else out.write_text("x") if kind == "file" else os.mkfifo(out)
    rc, _, err = _run(["report", MODEL, "--out", out, "--stages", "lint"], capsys)
    what = {"device": "a character device", "file": "a file", "fifo": "a FIFO"}[kind]
    _one_line_exit_2(rc, err, f"--out {out}: is {what}, not a folder")


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_runner_input_that_is_not_a_regular_file_is_refused_before_hashing(kind, tmp_path):
    from npuready.errors import InputError
    from npuready.experiments.context import RunContext

    path = tmp_path / "in"
    os.mkfifo(path) if kind == "fifo" else _device(path) if kind == "device" else path.mkdir()
    ctx = RunContext(experiment_id="e", params={}, repo=tmp_path)
    with pytest.raises(InputError, match="experiment 'e': input in: is a"):
        ctx.input("in")
    assert ctx.inputs == {}


def test_an_output_path_that_is_the_process_stdout_writes_to_stdout(tmp_path):
    """``-o /proc/self/fd/1`` (what /dev/stdout links to) with stdout a pipe: the report arrives on the pipe."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p.endswith("generator"))}
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "lint", str(MODEL), "--isolated", "--format", "json",
                           "-o", "/proc/self/fd/1"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode in (0, 1) and proc.stderr == "" and proc.stdout.startswith("{")
    assert list(tmp_path.iterdir()) == []
