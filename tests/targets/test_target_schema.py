"""The target file schema is read from the ``Target`` declarations (``knob``): every declared scalar field is
type-checked and range-checked by the loader, belongs to a [sources] group, and has a row in docs/targets.md."""
import re
from dataclasses import MISSING, fields

import pytest

from npuready.docs_gen.targets import render_targets_md
from npuready.errors import InputError
from npuready.targets import parse_target_file
from npuready.targets.load import DATA_DIR, _OPTIONAL, _REQUIRED, _SOURCE_GROUPS
from npuready.targets.target import SOURCE_GROUPS, Target

DECLARED = [f for f in fields(Target) if "doc" in f.metadata]
TABLES = {"activations", "supported_ops", "energy"}


def _file(tmp_path, key: str, value: str):
    text = (DATA_DIR / "edge-10.toml").read_text().replace('name = "edge-10"', 'name = "probe"')
    text = re.sub(rf"(?m)^{key} = .*\n", "", text)
    extra = f"{key} = {value}"
    head, sep, rest = text.partition("\n[")  # scalar keys go before the first table
    path = tmp_path / "probe.toml"
    path.write_text(head + "\n" + extra + "\n" + sep + rest)
    return path


def test_every_declared_scalar_is_validated_and_every_table_is_not():
    scalars = {f.name for f in DECLARED} - TABLES
    assert set(_REQUIRED) | set(_OPTIONAL) == scalars
    bare = {f.name for f in DECLARED if f.default is MISSING and f.default_factory is MISSING}
    assert set(_REQUIRED) == bare - TABLES
    assert tuple(_SOURCE_GROUPS) == SOURCE_GROUPS
    grouped = {k for keys in _SOURCE_GROUPS.values() for k in keys}
    assert grouped == {f.name for f in DECLARED if f.metadata["group"]}


@pytest.mark.parametrize("key", sorted(_OPTIONAL))
def test_each_optional_field_refuses_a_wrong_type(tmp_path, key):
    with pytest.raises(InputError, match=f"field '{key}' has the wrong type"):
        parse_target_file(_file(tmp_path, key, "[1]"))


@pytest.mark.parametrize("key", sorted(k for k, (kind, positive) in _OPTIONAL.items() if positive))
def test_each_positive_field_refuses_zero(tmp_path, key):
    with pytest.raises(InputError, match=f"field '{key}' must be positive, got 0"):
        parse_target_file(_file(tmp_path, key, "0"))


def test_every_declared_field_has_a_row_in_the_targets_page():
    page = render_targets_md()
    for f in DECLARED:
        assert f"| `{f.name}` | {'yes' if f.name in _REQUIRED or f.name in TABLES else 'no'} |" in page, f.name
    assert "### Ethos-U mirror knobs" in page
