"""Vendor toolchains that check npuready's artifacts, each run in its own environment.

Their pins clash with the project's, so each lives in a venv of its own (made by a ``make`` target)
and is driven as a subprocess: npuready never imports them. ``qnn_htp``: Qualcomm's HTP backend
(onnxruntime-qnn, ``make qnn-env``).
"""
