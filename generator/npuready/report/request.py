"""What a model report is asked to do: a frozen request built by the CLI verb or an experiment spec."""
from __future__ import annotations

from dataclasses import dataclass

from npuready.errors import InputError
from npuready.report.budget import DEFAULT_MAX_REPORT_NODES

STAGES = ("lint", "partition", "cost", "quantize")  # "quantize" = quantize + integer engine + parity ladder
DEFAULT_TARGETS = ("edge-10", "ethos-u55-128")
LIBRARY_PREFIX = "library:"


@dataclass(frozen=True)
class ReportRequest:
    """``model`` is an ONNX path or ``library:<recipe>`` (an architecture built at run time by timm,
    torchvision or ultralytics with random-initialised weights). ``input_shapes`` pins input dims
    (name -> shape) and ``batch`` fixes dim 0 of dynamic inputs, before any analysis (``npuready.graph.pins``).
    ``calibration`` (anything ``npuready quantize --calibration`` accepts, or a folder of photos read through
    ``preset``) enables the quantize stage."""

    model: str
    targets: tuple[str, ...] = DEFAULT_TARGETS
    input_shapes: tuple[tuple[str, tuple[int, ...]], ...] = ()
    batch: int | None = None
    edges: str = "auto"  # partition edges policy: npu | cpu | auto (cpu for detection/segmentation/pose recipes)
    calibration: str | None = None
    preset: str | None = None
    stages: tuple[str, ...] = ("lint", "partition", "cost", "quantize")
    images: int = 32
    task: str | None = None  # the parity gate's task metric (verify.tasks); None: inferred from the output shapes
    max_report_nodes: int = DEFAULT_MAX_REPORT_NODES  # above it the report is summarised (report.budget)

    def __post_init__(self) -> None:
        unknown = [s for s in self.stages if s not in STAGES]
        if unknown:
            raise InputError(f"report stages {unknown}: unknown; use any of {', '.join(STAGES)}")
        if not self.targets:
            raise InputError("report: give at least one target")
        if self.edges not in ("auto", "npu", "cpu"):
            raise InputError(f"report: edges policy '{self.edges}': unknown; use auto, npu or cpu")
        if isinstance(self.max_report_nodes, bool) or not isinstance(self.max_report_nodes, int) \
                or self.max_report_nodes < 1:
            raise InputError(f"report: --max-report-nodes {self.max_report_nodes!r} must be a whole number of at "
                             "least 1")
        if self.images < 1:
            raise InputError(f"report: images {self.images} must be at least 1")
        if self.task is not None:
            from npuready.verify.tasks.registry import get

            get(self.task)

    @property
    def recipe(self) -> str | None:
        return self.model[len(LIBRARY_PREFIX):] if self.model.startswith(LIBRARY_PREFIX) else None

    @property
    def runs_quantize(self) -> bool:
        return "quantize" in self.stages and self.calibration is not None


def request_from_params(params: dict, label: str = "spec") -> ReportRequest:
    """A request from an experiment spec's [params]: model, targets, input_shapes (table name -> dims),
    calibration, preset, stages, images, task."""
    model = params.get("model")
    if not isinstance(model, str) or not model:
        raise InputError(f"{label}: [params] model must name an ONNX file (repository-relative) or library:NAME")
    pins = params.get("input_shapes", {})
    if not isinstance(pins, dict):
        raise InputError(f"{label}: [params] input_shapes must be a table NAME = [D0, D1, ...]")
    return ReportRequest(model=model, targets=tuple(params.get("targets", DEFAULT_TARGETS)),
                         input_shapes=tuple((k, tuple(int(d) for d in v)) for k, v in pins.items()),
                         batch=params.get("batch"), edges=params.get("edges", "auto"),
                         calibration=params.get("calibration"), preset=params.get("preset"),
                         stages=tuple(params.get("stages", STAGES)), images=int(params.get("images", 32)),
                         task=params.get("task"))
