"""One analysis pass per model and target: lint → placement → partition plan → cost, each stage read once."""
from npuready.analysis.analyse import STAGES, Analysis, AnalysisOptions, analyse

__all__ = ["Analysis", "AnalysisOptions", "STAGES", "analyse"]
