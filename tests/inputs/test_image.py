"""open_image: the pixel budget is checked from the header, before decoding."""
from __future__ import annotations

import pytest

from npuready.errors import InputError
from npuready.inputs.image import open_image

PIL = pytest.importorskip("PIL.Image")


def test_decodes_within_budget(tmp_path):
    PIL.new("RGB", (8, 6)).save(tmp_path / "a.png")
    assert open_image(tmp_path / "a.png").size == (8, 6)


def test_over_budget_is_refused(tmp_path):
    PIL.new("L", (100, 100)).save(tmp_path / "big.png")
    with pytest.raises(InputError, match=r"100×100 = 10,000 pixels, above the 9,999-pixel budget"):
        open_image(tmp_path / "big.png", max_pixels=9_999)


def test_garbage(tmp_path):
    (tmp_path / "x.png").write_bytes(b"\x89PNG garbage")
    with pytest.raises(InputError, match="cannot decode the image"):
        open_image(tmp_path / "x.png")
