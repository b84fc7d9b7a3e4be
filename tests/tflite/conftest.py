"""Fixtures for the TFLite exporter tests live in tflite_helpers.py (importable by bare name)."""
from tflite_helpers import *  # noqa: F401,F403  (re-export the fixtures)
