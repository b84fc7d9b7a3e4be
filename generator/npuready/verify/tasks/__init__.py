"""Task metrics of the parity gate: how a quantised rung's outputs are judged against float's, by the task
the model's head does (``registry.TASKS``; one metric per file)."""

# The task names in registry order, importable without numpy (``--help`` must stay light); the registry
# asserts it declares exactly these.
NAMES: tuple[str, ...] = ("classification", "dense", "sequence", "detection", "regression")
