"""Results across commits: key figures per experiment read from git history, timelines and two-commit diffs."""
