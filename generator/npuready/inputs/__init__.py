"""Every file a verb reads is parsed here, once, at the boundary: one loader per format.

Each loader validates types, ranges, finiteness and sizes against a stated budget (``budget.py``) and keeps
paths inside the folder they must stay in, before any work starts; a problem is an ``InputError`` whose
one line names the file, the field and what is wrong (CLI exit code 2). Nothing here unpickles.

- ``files``: regular files only (no FIFOs, devices, sockets), symlinks resolved and kept inside a folder;
- ``npy`` / ``npz``: arrays whose header is checked against the budget before anything is allocated;
- ``manifest``: calibration manifests (JSON Schema), sample paths kept inside their folder;
- ``image``: image decoding with a pixel budget (decompression bombs refused).
"""
