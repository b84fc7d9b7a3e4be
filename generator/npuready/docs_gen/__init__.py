"""Generated documentation pages (docs/*.md written from registries and stored results, never typed)."""
