"""Load and validate target data files (one TOML file per target under ``targets/data``)."""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import MISSING, fields
from functools import lru_cache
from pathlib import Path
from types import UnionType
from typing import Iterator, Union, get_args, get_origin, get_type_hints

from npuready.errors import InputError
from npuready.targets.target import (ACTIVATION_MODES, COORDINATE_TRANSFORMS, ENGINES, INTERPOLATIONS, NORM_OPS,
                                     RUN_MODES, SOURCE_GROUPS, WEIGHT_MEMORIES, ResizeSupport, Target)

DATA_DIR = Path(__file__).with_name("data")
DEFAULT_TARGET = "edge-10"

_ENERGY_KEYS = ("pj_per_mac", "pj_per_sram_byte", "pj_per_dram_byte", "pj_per_vector_op")
LOWERINGS = ("none", "vela")  # npuready.cost.lowering
WEIGHT_CODECS = ("", "ethos-u")  # npuready.cost.weight_stream ("": one byte per weight)
_ALLOWED = {int: int, float: (int, float), str: str, bool: bool}


def _schema() -> tuple[dict, dict, dict]:
    """The scalar fields of ``Target`` as the data file spells them, from their declarations (``knob``):
    required key -> allowed types, optional key -> (allowed types, positive), and source group -> keys."""
    hints = get_type_hints(Target)
    required: dict = {}
    optional: dict = {}
    groups: dict = {g: [] for g in SOURCE_GROUPS}
    for f in fields(Target):
        if "doc" not in f.metadata:
            continue
        if f.metadata["group"]:
            groups[f.metadata["group"]].append(f.name)
        hint = hints[f.name]
        options = get_args(hint) if get_origin(hint) in (Union, UnionType) else (hint,)  # X | None -> X
        scalar = [t for t in options if t in _ALLOWED]
        if not scalar:  # a table ([activations], [supported_ops], [energy]), validated on its own
            continue
        if f.default is MISSING:
            required[f.name] = _ALLOWED[scalar[0]]
        else:
            optional[f.name] = (_ALLOWED[scalar[0]], f.metadata["positive"])
    return required, optional, {g: tuple(keys) for g, keys in groups.items()}


# Every number in the file needs a line in [sources] saying where it comes from: its group's line.
_REQUIRED, _OPTIONAL, _SOURCE_GROUPS = _schema()
_POSITIVE_REQUIRED = {f.name: f.metadata.get("positive", False) for f in fields(Target)}


def target_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


_RECORDERS: list[set[Path]] = []


@contextmanager
def recording_loads() -> Iterator[set[Path]]:
    """Collect the file of every target loaded inside the block (cached loads included), so an
    experiment can hash the target data its numbers came from."""
    seen: set[Path] = set()
    _RECORDERS.append(seen)
    try:
        yield seen
    finally:
        _RECORDERS.remove(seen)


def _record(path: Path) -> None:
    for seen in _RECORDERS:
        seen.add(path)


def load_target(name_or_path: "str | Path | Target" = DEFAULT_TARGET) -> Target:
    if isinstance(name_or_path, Target):
        return name_or_path
    text = str(name_or_path)
    if text.endswith(".toml"):
        _record(Path(text))
        return parse_target_file(Path(text))
    path = DATA_DIR / f"{text}.toml"
    if Path(text).name != text or not path.is_file():  # a plain name of a bundled file; no folder scan per load
        raise InputError(f"unknown target '{text}'; choose one of: {', '.join(target_names())}")
    _record(path)
    return _cached(text)


@lru_cache(maxsize=None)
def _cached(name: str) -> Target:
    return parse_target_file(DATA_DIR / f"{name}.toml")


def _non_finite(value, where: str = "") -> str | None:
    """The dotted key of the first NaN or infinity in a parsed TOML document (TOML allows nan and inf)."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _non_finite(item, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def parse_target_file(path: Path) -> Target:
    from npuready.inputs.toml_file import read_toml

    label = str(path)
    if not path.exists():
        raise InputError(f"{label}: no such target file")
    raw = read_toml(path, label)  # a regular file within budget.MAX_CONFIG_BYTES, checked before it is read
    if (bad := _non_finite(raw)) is not None:
        raise InputError(f"{label}: field '{bad}' is not a finite number; every number in a target file must be finite")
    for section in ("activations", "supported_ops", "energy", "sources", "reference", "norms", "resize", "via"):
        if section in raw and not isinstance(raw[section], dict):
            raise InputError(f"{label}: [{section}] must be a table, got {type(raw[section]).__name__}")
    for key, kind in _REQUIRED.items():
        if key not in raw:
            raise InputError(f"{label}: missing required field '{key}'")
        if not isinstance(raw[key], kind) or (kind is int and isinstance(raw[key], bool)):
            raise InputError(f"{label}: field '{key}' has the wrong type ({type(raw[key]).__name__})")
    for key in _REQUIRED:
        if _POSITIVE_REQUIRED.get(key) and raw[key] <= 0:
            raise InputError(f"{label}: field '{key}' must be positive, got {raw[key]}")
    if raw["kind"] not in ("virtual", "mirror"):
        raise InputError(f"{label}: kind must be 'virtual' or 'mirror', got '{raw['kind']}'")
    if raw["name"] != path.stem:
        raise InputError(f"{label}: name '{raw['name']}' must equal the file name '{path.stem}'")
    acts = raw.get("activations", {})
    for op, mode in acts.items():
        if mode not in ACTIVATION_MODES:
            raise InputError(f"{label}: activation '{op}' has mode '{mode}'; use one of {ACTIVATION_MODES}")
    ops = raw.get("supported_ops", {}).get("ops")
    if not isinstance(ops, list) or not ops:
        raise InputError(f"{label}: [supported_ops] needs a non-empty 'ops' list")
    energy = raw.get("energy", {})
    for key in _ENERGY_KEYS:
        if not isinstance(energy.get(key), (int, float)) or energy[key] < 0:
            raise InputError(f"{label}: [energy] needs a non-negative '{key}'")
    opt = _optional_fields(raw, label)
    sources = raw.get("sources", {})
    if not isinstance(sources, dict) or not all(isinstance(v, str) and v.strip() for v in sources.values()):
        raise InputError(f"{label}: [sources] must map names to non-empty strings")
    missing = [g for g in _SOURCE_GROUPS if g not in sources]
    if missing:
        raise InputError(f"{label}: [sources] lacks {', '.join(missing)}; say where every number comes from")
    reference = raw.get("reference", {})
    if not isinstance(reference, dict) or not all(isinstance(v, str) for v in reference.values()):
        raise InputError(f"{label}: [reference] must map names to strings")
    if raw["kind"] == "mirror" and not reference.get("tool"):
        raise InputError(f"{label}: a mirror target needs [reference] tool = ... (the external tool it mirrors)")
    support = _support_fields(raw, label, set(ops))
    for section in ("norms", "resize"):
        if section in raw and section not in sources:
            raise InputError(f"{label}: [{section}] needs a line in [sources] saying where its claims come from")
    known = set(_REQUIRED) | set(_OPTIONAL) | {"activations", "supported_ops", "energy", "sources", "reference",
                                               "norms", "resize", "via"}
    extra = {k: v for k, v in raw.items() if k not in known}
    return Target(
        name=raw["name"], title=raw["title"], kind=raw["kind"], description=raw["description"],
        array_rows=raw["array_rows"], array_cols=raw["array_cols"], cores=raw["cores"],
        clock_mhz=float(raw["clock_mhz"]), sram_kib=raw["sram_kib"], dram_gbps=float(raw["dram_gbps"]),
        vector_lanes=raw["vector_lanes"], depthwise_engine=raw["depthwise_engine"],
        activations=dict(acts), supported_ops=frozenset(ops), energy={k: float(v) for k, v in energy.items()},
        host_gflops=float(raw["host_gflops"]), host_link_gbps=float(raw["host_link_gbps"]),
        sources=dict(sources), extra=extra, reference=dict(reference), **opt, **support,
    )


def _modes(table: dict, keys: tuple[str, ...], label: str, section: str) -> dict[str, str]:
    out = {}
    for key, mode in table.items():
        if key not in keys:
            raise InputError(f"{label}: [{section}] key '{key}' is unknown; use one of {', '.join(keys)}")
        if mode not in RUN_MODES:
            raise InputError(f"{label}: [{section}] {key} = '{mode}'; use one of {RUN_MODES}")
        out[key] = mode
    return out


def _ints(value, label: str, name: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise InputError(f"{label}: [resize] {name} must be a list of positive integers")
    return tuple(value)


def _support_fields(raw: dict, label: str, ops: set[str]) -> dict:
    """[norms], [resize] and [via]: what the target runs beyond its op table (npuready.lint.policy)."""
    out: dict = {}
    norms = dict(raw.get("norms", {}))
    limits = norms.pop("limits", {})
    if not isinstance(limits, dict) or set(limits) - {"axis_max"}:
        raise InputError(f"{label}: [norms] limits may only hold axis_max")
    out["norms"] = _modes(norms, NORM_OPS, label, "norms")
    if "axis_max" in limits:
        out["norm_axis_max"] = _ints([limits["axis_max"]], label, "norms.limits.axis_max")[0]
    if "resize" in raw:
        rz = dict(raw["resize"])
        transforms = rz.pop("coordinate_transforms", None)
        if transforms is not None and (not isinstance(transforms, list)
                                       or set(transforms) - set(COORDINATE_TRANSFORMS)):
            raise InputError(f"{label}: [resize] coordinate_transforms must be a list of {COORDINATE_TRANSFORMS}")
        scales = _ints(rz.pop("scales", None), label, "scales")
        half = _ints(rz.pop("half_pixel_scales", None), label, "half_pixel_scales")
        modes = _modes(rz, INTERPOLATIONS, label, "resize")
        if "Resize" not in ops and any(m != "host" for m in modes.values()):
            raise InputError(f"{label}: [resize] declares modes that run, but 'Resize' is not in [supported_ops]")
        out["resize"] = ResizeSupport(modes, scales, half, None if transforms is None else frozenset(transforms))
    elif "Resize" not in ops:
        out["resize"] = ResizeSupport({m: "host" for m in INTERPOLATIONS})
    via = raw.get("via", {})
    if not isinstance(via, dict) or not all(isinstance(v, str) and v.strip() for v in via.values()):
        raise InputError(f"{label}: [via] must map op names to non-empty strings")
    out["via"] = dict(via)
    return out


def _optional_fields(raw: dict, label: str) -> dict:
    out: dict = {}
    for key, (kind, positive) in _OPTIONAL.items():
        if key not in raw:
            continue
        value = raw[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise InputError(f"{label}: field '{key}' has the wrong type ({type(value).__name__})")
        if positive and value <= 0:
            raise InputError(f"{label}: field '{key}' must be positive, got {value}")
        if kind is int and value < 0:
            raise InputError(f"{label}: field '{key}' must not be negative, got {value}")
        out[key] = float(value) if kind == (int, float) else value
    if out.get("engine", "systolic-os") not in ENGINES:
        raise InputError(f"{label}: engine '{out['engine']}' is unknown; use one of {ENGINES}")
    block, width = out.get("channel_block"), out.get("dot_width", 1)
    if block is not None and block % width:
        raise InputError(f"{label}: channel_block {block} must be a multiple of dot_width {width}")
    if out.get("weight_memory", "dram") not in WEIGHT_MEMORIES:
        raise InputError(f"{label}: weight_memory '{out['weight_memory']}' is unknown; use one of {WEIGHT_MEMORIES}")
    if out.get("lowering", "none") not in LOWERINGS:
        raise InputError(f"{label}: lowering '{out['lowering']}' is unknown; use one of {LOWERINGS}")
    if out.get("weight_codec", "") not in WEIGHT_CODECS:
        raise InputError(f"{label}: weight_codec '{out['weight_codec']}' is unknown; use one of {WEIGHT_CODECS}")
    return out
