"""The intake report: diagnosis + prescription (+ applied outcome for zoo models). Data only."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from npuready.intake.apply import Outcome
from npuready.intake.diagnosis import Diagnosis
from npuready.intake.prescribe import Action

BASIS = ("lint and partition rest on the ONNX graph structure and the target description, not on NPU silicon; "
         "cycles are simulated by the analytic cost model; accuracies (applied section) are measured here on CPU")


@dataclass(frozen=True)
class IntakeReport:
    model: str            # what the user typed
    path: str
    sha256: str
    zoo_name: str | None
    diagnosis: Diagnosis
    actions: tuple[Action, ...]
    outcome: Outcome | None = None

    @property
    def blocked(self) -> bool:
        return self.diagnosis.lint.blocked

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "path": self.path, "sha256": self.sha256, "zoo_name": self.zoo_name,
                "target": self.diagnosis.target, "basis": BASIS, "diagnosis": self.diagnosis.to_dict(),
                "prescription": [dict(a.to_dict(), order=i + 1) for i, a in enumerate(self.actions)],
                "applied": self.outcome.to_dict() if self.outcome else None}


def intake(model: str, target: str, apply: bool = False, recovery_steps: int | None = None,
           eval_images: int | None = None, zoo_folder=None, log=lambda s: None,
           show_progress: bool = False, pins=None) -> IntakeReport:
    """Diagnose and prescribe for ``model`` (an .onnx path or a zoo name); apply when asked (zoo only).
    ``pins`` (``npuready.graph.pins.ShapePins``) fix the graph inputs' dims before the diagnosis."""
    from npuready.errors import InputError
    from npuready.data.sha import sha256_file
    from npuready.graph import load
    from npuready.intake.diagnosis import diagnose
    from npuready.intake.prescribe import prescribe
    from npuready.intake.source import resolve

    src = resolve(model, zoo_folder)
    if apply and not src.is_zoo:
        raise InputError(f"{model}: --apply needs a zoo model (it retrains from the zoo checkpoint); your own ONNX "
                         "gets the diagnosis and the prescription")
    diag = diagnose(load(src.path, pins=pins), target)
    actions = prescribe(diag, target)
    outcome = None
    if apply:
        from npuready.intake.apply import RECOVERY_STEPS, apply_zoo

        outcome = apply_zoo(src.zoo_name, target, actions,
                            recovery_steps=RECOVERY_STEPS if recovery_steps is None else recovery_steps,
                            eval_images=eval_images, zoo_folder=zoo_folder, log=log, show_progress=show_progress)
    return IntakeReport(model, str(src.path), sha256_file(src.path), src.zoo_name, diag, actions, outcome)
