"""Target data files validate; bad files fail with one clear InputError."""
import configparser
import re
from pathlib import Path

import pytest

from npuready.errors import InputError
from npuready.targets import load_target, parse_target_file, target_names
from npuready.targets.load import DATA_DIR, _SOURCE_GROUPS

def test_every_target_loads_with_sources(hand_written_targets):
    names = target_names()
    assert len(hand_written_targets) >= 6 and set(hand_written_targets) < set(names)  # nnapi-mirror is generated
    for name in names:
        t = load_target(name)
        assert t.name == name
        assert set(_SOURCE_GROUPS) <= set(t.sources)


def test_virtual_presets_span_the_tops_range(hand_written_targets):
    kinds = {n: load_target(n).kind for n in hand_written_targets}
    assert sorted(n for n, k in kinds.items() if k == "virtual") == ["edge-10", "edge-10-nolut", "pcie-80", "tiny-1"]
    tops = {n: load_target(n).tops for n in ("tiny-1", "edge-10", "pcie-80")}
    assert 0.5 < tops["tiny-1"] < 2 and 5 < tops["edge-10"] < 20 and 40 < tops["pcie-80"] < 160


def test_nolut_variant_sends_smooth_ops_to_host():
    base, nolut = load_target("edge-10"), load_target("edge-10-nolut")
    assert base.depthwise_engine and not nolut.depthwise_engine
    for op in ("Sigmoid", "Softmax", "Gelu", "LayerNormalization", "HardSwish"):
        assert base.runs_on_npu(op) and not nolut.runs_on_npu(op), op
    assert (nolut.array_rows, nolut.array_cols, nolut.clock_mhz) == (base.array_rows, base.array_cols, base.clock_mhz)


def test_mirrors_match_vela_default_systems():
    pytest.importorskip("ethosu.vela")
    import ethosu.vela
    from ethosu.vela.architecture_features import Accelerator, ArchitectureFeatures

    ini = configparser.ConfigParser()
    ini.read(Path(ethosu.vela.__file__).parent.parent / "config_files" / "Arm" / "vela.ini")
    axi_bytes = {"ethos-u55-128": 8, "ethos-u65-256": 16}  # AXI bytes/cycle per port, architecture_features.py
    for name in ("ethos-u55-128", "ethos-u65-256"):
        t = load_target(name)
        ref = t.reference
        cfg = ArchitectureFeatures.accelerator_configs[Accelerator(ref["accelerator"])]
        assert t.macs_per_cycle == cfg.macs
        assert t.array_rows == cfg.ofm_ublock.height * cfg.ofm_ublock.width and t.array_cols == cfg.ofm_ublock.depth
        sys_cfg = ini[f"System_Config.{ref['system_config']}"]
        clock = float(sys_cfg["core_clock"])
        assert t.clock_mhz * 1e6 == clock
        const_port = "axi1_port"  # both default memory modes keep constants (weights) on axi1
        weights_area = sys_cfg[const_port]
        assert t.dram_gbps * 1e9 == axi_bytes[name] * float(sys_cfg[f"{weights_area}_clock_scale"]) * clock
        assert t.sram_gbps * 1e9 == axi_bytes[name] * float(sys_cfg["Sram_clock_scale"]) * clock
        assert t.dram_latency_cycles == int(sys_cfg[f"{weights_area}_read_latency"])
        mode = ini[f"Memory_Mode.{ref['memory_mode']}"]
        if "arena_cache_size" in mode:
            assert t.sram_kib * 1024 == int(mode["arena_cache_size"])


def _write(tmp_path, text, name="bad"):
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    return p


def _base_text():
    return (DATA_DIR / "edge-10.toml").read_text().replace('name = "edge-10"', 'name = "bad"')


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.replace("array_rows = 64\n", ""), "missing required field 'array_rows'"),
    (lambda s: s.replace("cores = 1", "cores = 0"), "field 'cores' must be positive"),
    (lambda s: s.replace('engine = "systolic-os"', 'engine = "magic"'), "engine 'magic' is unknown"),
    (lambda s: s.replace('weight_memory = "dram"', 'weight_memory = "tape"'), "weight_memory 'tape' is unknown"),
    (lambda s: s.replace("dot_width = 1", "dot_width = 1\nchannel_block = 3\ndram_latency_cycles = 0"),
     None),
    (lambda s: s.replace("dot_width = 1", "dot_width = 4\nchannel_block = 6"),
     "channel_block 6 must be a multiple of dot_width 4"),
    (lambda s: re.sub(r'\nmemory = "[^\n]*', "", s), r"\[sources\] lacks memory"),
    (lambda s: s.replace('kind = "virtual"', 'kind = "mirror"'), "a mirror target needs \\[reference\\] tool"),
    (lambda s: s.replace('Relu = "fused"', 'Relu = "maybe"'), "activation 'Relu' has mode 'maybe'"),
    (lambda s: s.replace("sram_gbps = 320.0", 'sram_gbps = "fast"'), "field 'sram_gbps' has the wrong type"),
    (lambda s: s + "\n[broken", "not valid TOML"),
])
def test_bad_files_fail_clearly(tmp_path, edit, message):
    path = _write(tmp_path, edit(_base_text()))
    if message is None:
        assert parse_target_file(path).channel_block == 3
        return
    with pytest.raises(InputError, match=message):
        parse_target_file(path)


def test_name_must_match_file(tmp_path):
    with pytest.raises(InputError, match="must equal the file name"):
        parse_target_file(_write(tmp_path, _base_text(), name="other"))


def test_unknown_target_name():
    with pytest.raises(InputError, match="unknown target 'nope'"):
        load_target("nope")
