"""Stored experiments: spec.toml → runner → result.json (see README.md in this folder)."""
