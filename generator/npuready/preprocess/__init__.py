"""Input-format contract: spec, presets, the one apply function, calibration sets, doctor, fusion."""
from npuready.preprocess.bind import bind_to_model
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS, preset
from npuready.preprocess.resolve import resolve_spec
from npuready.preprocess.spec import PreprocessSpec

__all__ = ["PRESETS", "PreprocessSpec", "apply", "bind_to_model", "preset", "resolve_spec"]
