import json

import pytest

from npuready.errors import InputError
from npuready.experiments import run as run_mod
from npuready.experiments.registry import RUNNERS
from npuready.experiments.run import build_result, declared_ids, spec_for
from npuready.experiments.schema import validate_result
from npuready.experiments.spec import load_spec


def _write_spec(tmp_path, exp_id="demo", **over):
    d = tmp_path / exp_id
    d.mkdir()
    fields = {"id": exp_id, "title": "Demo", "summary": "A demo.", "view": "records"}
    fields.update(over)
    body = "\n".join(f'{k} = "{v}"' for k, v in fields.items()) + "\n[params]\nseed = 3\n"
    (d / "spec.toml").write_text(body)
    return d / "spec.toml"


def test_spec_fields_and_hash(tmp_path):
    spec = load_spec(_write_spec(tmp_path))
    assert (spec.id, spec.view, dict(spec.params)) == ("demo", "records", {"seed": 3})
    assert len(spec.sha256) == 64


@pytest.mark.parametrize("over,needle", [
    ({"view": "nowhere"}, "view 'nowhere'"),
    ({"id": "other"}, "must equal its folder name"),
    ({"title": ""}, "missing text field 'title'"),
])
def test_bad_specs_are_refused(tmp_path, over, needle):
    path = (_write_spec(tmp_path, **over) if over.get("id") != "other"
            else _write_spec(tmp_path, exp_id="demo", id="other"))
    with pytest.raises(InputError, match=needle):
        load_spec(path)


def test_unknown_experiment_names_the_declared_ones(tmp_path):
    _write_spec(tmp_path, exp_id="alpha")
    with pytest.raises(InputError, match="declared: alpha"):
        spec_for("beta", tmp_path)
    assert declared_ids(tmp_path) == ["alpha"]


def test_build_result_is_deterministic_outside_timing(tmp_path, monkeypatch):
    spec = load_spec(_write_spec(tmp_path))
    monkeypatch.setitem(RUNNERS, "demo", "tests_demo_runner")
    import sys
    import types

    mod = types.ModuleType("tests_demo_runner")

    def run(ctx):
        ctx.seed("numpy", ctx.params["seed"])
        ctx.timing("work_s", 0.123)
        return {"numbers": {"evidence": "measured", "value": 7, "rows": [1.5, 2]}}

    mod.run = run
    monkeypatch.setitem(sys.modules, "tests_demo_runner", mod)
    a = build_result(spec, show_progress=False)
    b = build_result(spec, show_progress=False)
    validate_result(a)
    assert a["results"] == {"numbers": {"evidence": "measured", "value": 7, "rows": [1.5, 2]}}
    assert a["provenance"]["seeds"] == {"numpy": 3}
    assert a["timing"]["work_s"] == 0.123 and a["timing"]["evidence"] == "measured"
    strip = lambda d: {k: v for k, v in d.items() if k != "timing"}
    assert json.dumps(strip(a), sort_keys=True) == json.dumps(strip(b), sort_keys=True)


def test_schema_rejects_unlabelled_sections_and_nan():
    doc = json.loads((run_mod.experiments_dir() / "lint-corpus" / "result.json").read_text())
    validate_result(doc)
    bad = json.loads(json.dumps(doc))
    bad["results"]["corpus"].pop("evidence")
    with pytest.raises(InputError, match="evidence"):
        validate_result(bad)
    bad = json.loads(json.dumps(doc))
    bad["results"]["corpus"]["x"] = float("nan")
    with pytest.raises(InputError, match="non-finite"):
        validate_result(bad)


def test_every_declared_experiment_has_a_runner():
    from npuready.experiments.registry import runner_module

    assert [i for i in declared_ids() if runner_module(i, spec_for(i).kind) is None] == []
