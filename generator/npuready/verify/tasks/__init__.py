"""Task metrics of the parity gate: how a quantised rung's outputs are judged against float's, by the task
the model's head does (``registry.TASKS``; one metric per file)."""
