"""Model reports: one ONNX model (a file, or a library recipe built at run time) through lint, partition,
cost and optionally quantize + parity ladder, per target, plus a compact graph description for the site."""
from npuready.report.build import build_report, report_failed
from npuready.report.request import ReportRequest
from npuready.report.write import write_report

__all__ = ["ReportRequest", "build_report", "report_failed", "write_report"]
