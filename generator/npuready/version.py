"""The package version, in a module of its own so that any layer can read it (``npuready.__version__`` is this)."""
__version__ = "0.1.0"
