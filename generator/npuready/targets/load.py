"""Load and validate target data files (one TOML file per target under ``targets/data``)."""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from npuready.errors import InputError
from npuready.targets.target import ACTIVATION_MODES, Target

DATA_DIR = Path(__file__).with_name("data")
DEFAULT_TARGET = "edge-10"

_REQUIRED = {
    "name": str, "title": str, "kind": str, "description": str,
    "array_rows": int, "array_cols": int, "cores": int, "clock_mhz": (int, float),
    "sram_kib": int, "dram_gbps": (int, float), "vector_lanes": int, "depthwise_engine": bool,
    "host_gflops": (int, float), "host_link_gbps": (int, float),
}
_ENERGY_KEYS = ("pj_per_mac", "pj_per_sram_byte", "pj_per_dram_byte", "pj_per_vector_op")


def target_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


def load_target(name_or_path: "str | Path | Target" = DEFAULT_TARGET) -> Target:
    if isinstance(name_or_path, Target):
        return name_or_path
    text = str(name_or_path)
    if text.endswith(".toml"):
        return parse_target_file(Path(text))
    if text not in target_names():
        raise InputError(f"unknown target '{text}'; choose one of: {', '.join(target_names())}")
    return _cached(text)


@lru_cache(maxsize=None)
def _cached(name: str) -> Target:
    return parse_target_file(DATA_DIR / f"{name}.toml")


def parse_target_file(path: Path) -> Target:
    label = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{label}: no such target file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{label}: not valid TOML ({exc})") from None
    for key, kind in _REQUIRED.items():
        if key not in raw:
            raise InputError(f"{label}: missing required field '{key}'")
        if not isinstance(raw[key], kind) or (kind is int and isinstance(raw[key], bool)):
            raise InputError(f"{label}: field '{key}' has the wrong type ({type(raw[key]).__name__})")
    for key in ("array_rows", "array_cols", "cores", "clock_mhz", "sram_kib", "dram_gbps", "vector_lanes",
                "host_gflops", "host_link_gbps"):
        if raw[key] <= 0:
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
    known = set(_REQUIRED) | {"activations", "supported_ops", "energy", "sources"}
    extra = {k: v for k, v in raw.items() if k not in known}
    return Target(
        name=raw["name"], title=raw["title"], kind=raw["kind"], description=raw["description"],
        array_rows=raw["array_rows"], array_cols=raw["array_cols"], cores=raw["cores"],
        clock_mhz=float(raw["clock_mhz"]), sram_kib=raw["sram_kib"], dram_gbps=float(raw["dram_gbps"]),
        vector_lanes=raw["vector_lanes"], depthwise_engine=raw["depthwise_engine"],
        activations=dict(acts), supported_ops=frozenset(ops), energy={k: float(v) for k, v in energy.items()},
        host_gflops=float(raw["host_gflops"]), host_link_gbps=float(raw["host_link_gbps"]),
        sources=dict(raw.get("sources", {})), extra=extra,
    )
