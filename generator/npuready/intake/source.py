"""What the user handed in: an ONNX file of their own, or a zoo name (``resnet20``) meaning ``zoo/<name>.onnx``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from npuready.errors import InputError


@dataclass(frozen=True)
class ModelSource:
    label: str          # what the user typed
    path: Path          # the ONNX file
    zoo_name: str | None

    @property
    def is_zoo(self) -> bool:
        return self.zoo_name is not None


def resolve(text: str, zoo_folder: "str | Path | None" = None) -> ModelSource:
    """An existing path is the user's own model; otherwise a zoo name whose ONNX export must exist."""
    from npuready.paths import zoo_dir

    path = Path(text)
    if path.is_file():
        return ModelSource(text, path, None)
    if path.suffix.lower() == ".onnx" or "/" in text or "\\" in text:
        raise InputError(f"{text}: no such ONNX file; give an .onnx path or a zoo name")
    folder = Path(zoo_folder) if zoo_folder else zoo_dir()
    onnx_file = folder / f"{text}.onnx"
    if not onnx_file.is_file():
        have = sorted(p.stem for p in folder.glob("*.onnx"))
        raise InputError(f"model {text!r}: not a file and not in the zoo ({folder}); zoo models here: "
                         f"{', '.join(have) or 'none — run `npuready train --arch NAME`'}")
    return ModelSource(text, onnx_file, text)
