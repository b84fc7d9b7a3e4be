"""Intake report: receive a model → diagnose → prescribe → (zoo models) apply and measure before/after."""
from npuready.intake.diagnosis import Diagnosis, diagnose
from npuready.intake.prescribe import Action, prescribe
from npuready.intake.report import IntakeReport, intake

__all__ = ["Action", "Diagnosis", "IntakeReport", "diagnose", "intake", "prescribe"]
