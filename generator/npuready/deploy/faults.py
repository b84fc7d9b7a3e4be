"""Crash injection for the deploy pipeline: ``NPUREADY_DEPLOY_KILL_AT=<stage>`` makes the process SIGKILL
itself when it reaches that stage, so tests can check what a crash at each point leaves in the registry.

Unset (always, outside those tests) every checkpoint is a no-op.
"""
from __future__ import annotations

import os
import signal

ENV = "NPUREADY_DEPLOY_KILL_AT"
#: the checkpoints, in the order a deploy reaches them
STAGES = ("lint", "quantize", "parity", "staging", "staged", "moved", "indexed")


def checkpoint(stage: str) -> None:
    if os.environ.get(ENV) == stage:
        os.kill(os.getpid(), signal.SIGKILL)
