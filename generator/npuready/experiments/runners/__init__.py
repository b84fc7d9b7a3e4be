"""One runner module per experiment; registered in npuready/experiments/registry.py."""
