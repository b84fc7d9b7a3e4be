"""Per-layer INT8 sensitivity: which quantised layers cost the task metric, and what keeping them float costs."""
