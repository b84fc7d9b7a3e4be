import pytest

from npuready.targets import target_names
from npuready.targets.load import DATA_DIR

GENERATED = "# GENERATED"  # the header of a target file a generator writes (nnapi-mirror)


@pytest.fixture(scope="session")
def hand_written_targets() -> list[str]:
    """The target files written by hand (with their sources), read from the registry, not listed here."""
    return [n for n in target_names() if not (DATA_DIR / f"{n}.toml").read_text(encoding="utf-8").startswith(GENERATED)]
