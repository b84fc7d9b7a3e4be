"""sequence: CTC greedy decoding, as a text recogniser (CRNN, PP-OCR rec) is read.

The first output is [N, T, C] (steps × classes): argmax per step, repeats collapsed, the blank (class 0)
dropped; the value is the fraction of images whose decoded sequences are equal. The character error rate
(edit distance / reference length, summed over images) is reported beside it.
"""
from __future__ import annotations

import numpy as np

from npuready.verify.tasks.metric import TaskMetric

BLANK = 0


def ctc_greedy(probs: np.ndarray, blank: int = BLANK) -> list[tuple[int, ...]]:
    """Decoded label sequence per image of ``probs`` [N, T, C]."""
    best = np.asarray(probs).argmax(-1)
    out = []
    for row in best.reshape(len(best), -1):
        keep = np.ones(len(row), bool)
        keep[1:] = row[1:] != row[:-1]
        out.append(tuple(int(v) for v in row[keep] if v != blank))
    return out


def edit_distance(a, b) -> int:
    """Levenshtein distance between two sequences."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def _score(reference, candidate, options):
    ref, cand = ctc_greedy(reference[0]), ctc_greedy(np.asarray(candidate[0]).reshape(reference[0].shape))
    equal = sum(a == b for a, b in zip(ref, cand))
    edits = sum(edit_distance(a, b) for a, b in zip(ref, cand))
    chars = sum(len(a) for a in ref)
    return (equal / len(ref) if ref else 1.0,
            {"images": len(ref), "strings_equal": int(equal), "edits": int(edits), "reference_characters": int(chars),
             "character_error_rate": edits / chars if chars else float(edits > 0)})


SEQUENCE = TaskMetric(
    "sequence", "CTC string equality", 0.95, 0.5,
    "CTC greedy decoding of the first output [N, T, classes] (argmax per step, repeats collapsed, blank 0 "
    "dropped): fraction of images whose decoded strings are equal",
    _score)
