"""The run step of the npuready GitHub Action (action.yml): lint the models a glob names, write SARIF,
print a short summary, and report the lint exit code.

Inputs come from the environment (the Action maps its inputs to these variables):
  NPUREADY_MODELS     glob(s) of ONNX files, separated by spaces or newlines (``**`` recurses)
  NPUREADY_TARGET     target name ("" = the configuration's, else the default target)
  NPUREADY_PROFILE    severity profile passed as --profile ("" = the default profile)
  NPUREADY_FAIL_ON    error | warn | never
  NPUREADY_SARIF      path of the SARIF file to write
  NPUREADY_CONFIG     configuration file ("" = found from each model's folder upward)
  NPUREADY_RULES_URL  base URL of the rule pages for SARIF helpUri ("" = the action's repository at its
                      ref, from NPUREADY_ACTION_REPOSITORY, NPUREADY_ACTION_REF and GITHUB_SERVER_URL)
GitHub's own variables used when set: GITHUB_WORKSPACE (SARIF root), GITHUB_OUTPUT (exit-code, sarif),
GITHUB_STEP_SUMMARY (a Markdown table of findings).

With --defer-exit the script exits 0 after recording ``exit-code`` in GITHUB_OUTPUT, so the Action can
upload the SARIF before failing the job in its last step. Runs without network and without GitHub.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
from pathlib import Path


def _models(patterns: str) -> list[str]:
    found: set[str] = set()
    for pattern in patterns.split():
        found.update(p for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
    return sorted(found)


def rules_url(env: dict[str, str]) -> str:
    """The rule pages of the npuready checkout the action runs from, on the GitHub server it came from."""
    if env.get("NPUREADY_RULES_URL"):
        return env["NPUREADY_RULES_URL"]
    parts = [env.get(k, "") for k in ("GITHUB_SERVER_URL", "NPUREADY_ACTION_REPOSITORY", "NPUREADY_ACTION_REF")]
    return f"{parts[0]}/{parts[1]}/blob/{parts[2]}/docs/rules/" if all(parts) else ""


def lint_command(env: dict[str, str], models: list[str], sarif: str) -> list[str]:
    env = {**env, "NPUREADY_RULES_URL": rules_url(env)}
    cmd = [sys.executable, "-m", "npuready.cli", "lint", *models, "--format", "sarif", "--output", sarif,
           "--fail-on", env.get("NPUREADY_FAIL_ON") or "error",
           "--sarif-root", env.get("GITHUB_WORKSPACE") or os.getcwd()]
    for option, variable in (("--target", "NPUREADY_TARGET"), ("--profile", "NPUREADY_PROFILE"),
                             ("--config", "NPUREADY_CONFIG"), ("--rules-url", "NPUREADY_RULES_URL")):
        if env.get(variable):
            cmd += [option, env[variable]]
    return cmd


def summary_lines(sarif_path: str) -> list[str]:
    """One Markdown row per result (rule, level, model, node, message, suppression) and a total line."""
    doc = json.loads(Path(sarif_path).read_text(encoding="utf-8"))
    rows, counts = [], {"active": 0, "suppressed": 0}
    for run in doc["runs"]:
        target = run["automationDetails"]["id"].split("/")[2]
        for r in run["results"]:
            loc = r["locations"][0]
            node = loc["logicalLocations"][0]["fullyQualifiedName"]
            model = loc["physicalLocation"]["artifactLocation"]["uri"]
            sup = r.get("suppressions")
            counts["suppressed" if sup else "active"] += 1
            note = f"suppressed: {sup[0].get('justification', '')}" if sup else ""
            text = r["message"]["text"].replace("|", "\\|")
            rows.append(f"| {r['ruleId']} | {r['level']} | {target} | {model} | {node} | {text} | {note} |")
    head = ["| rule | level | target | model | node | finding | |", "|---|---|---|---|---|---|---|"]
    total = f"{counts['active']} active finding(s), {counts['suppressed']} waived or baselined"
    return (head + rows if rows else []) + ["", total]


def _set_output(env: dict[str, str], **values: str) -> None:
    if env.get("GITHUB_OUTPUT"):
        with open(env["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
            handle.writelines(f"{k}={v}\n" for k, v in values.items())


def main(argv: list[str] | None = None, env: dict[str, str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run npuready lint for the GitHub Action")
    parser.add_argument("--defer-exit", action="store_true", help="exit 0; the exit code goes to GITHUB_OUTPUT")
    args = parser.parse_args(argv)
    env = dict(os.environ if env is None else env)
    sarif = env.get("NPUREADY_SARIF") or "npuready.sarif"
    models = _models(env.get("NPUREADY_MODELS") or "**/*.onnx")
    if not models:
        print(f"npuready action: error: no file matches models '{env.get('NPUREADY_MODELS')}'; "
              "set the 'models' input to a glob of ONNX files", file=sys.stderr)
        code = 2
    else:
        code = subprocess.run(lint_command(env, models, sarif)).returncode
        if Path(sarif).is_file():
            lines = summary_lines(sarif)
            print("\n".join(lines[-1:] + [f"npuready lint: {len(models)} model(s), exit {code}, SARIF in {sarif}"]))
            if env.get("GITHUB_STEP_SUMMARY"):
                with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as handle:
                    handle.write("## npuready lint\n\n" + "\n".join(lines) + "\n")
    _set_output(env, **{"exit-code": str(code), "sarif": sarif})
    return 0 if args.defer_exit else code


if __name__ == "__main__":
    sys.exit(main())
