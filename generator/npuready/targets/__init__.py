"""NPU targets as data: one TOML file per target, loaded into a frozen ``Target``."""
from npuready.targets.load import DEFAULT_TARGET, load_target, parse_target_file, target_names
from npuready.targets.target import Target

__all__ = ["DEFAULT_TARGET", "Target", "load_target", "parse_target_file", "target_names"]
