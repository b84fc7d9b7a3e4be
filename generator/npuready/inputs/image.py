"""Images decoded within a pixel budget: the size is read from the header before any pixel is decoded."""
from __future__ import annotations

import os
from pathlib import Path

from npuready.errors import InputError
from npuready.inputs import budget
from npuready.inputs.files import regular_file


def open_image(path: "str | os.PathLike", mode: str = "RGB", label: str | None = None, *,
               inside: Path | None = None, max_pixels: int = budget.MAX_IMAGE_PIXELS):
    """A decoded PIL image in ``mode`` (a copy, the file closed)."""
    from PIL import Image

    label = label or str(path)
    p = regular_file(path, label, inside=inside, what="image")
    try:
        with Image.open(p) as im:
            w, h = im.size
            if w * h > max_pixels:
                raise InputError(f"{label}: {w}×{h} = {w * h:,} pixels, above the {max_pixels:,}-pixel budget "
                                 "(a decompression bomb or an image far larger than a model input)")
            return im.convert(mode)
    except InputError:
        raise
    except Image.DecompressionBombError as exc:
        raise InputError(f"{label}: refused by the decoder's pixel limit ({exc})") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(f"{label}: cannot decode the image ({' '.join(str(exc).split())[:160]})") from None
