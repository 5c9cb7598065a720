"""Runs the steps of a composite GitHub Action (action.yml) as a runner would, here.

    python3 scripts/run_action.py ACTION_DIR WORKDIR NAME=VALUE ...

Each `run` step is run by bash in WORKDIR with the environment a runner gives it:
GITHUB_ACTION_PATH (ACTION_DIR), RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH (files in
RUNNER_TEMP), the step's `env:` with `${{ inputs.NAME }}` replaced by the given inputs
(or the inputs' defaults), and the directories earlier steps added to GITHUB_PATH. It
stops at the first step that fails, as a job does, and prints one line
`outputs: {...}` with the action's outputs (its `${{ steps.ID.outputs.NAME }}` read
from the GITHUB_OUTPUT lines of each step). Exit status: the failing step's, else 0.

Only what action.yml uses is supported (bash `run` steps, `env`, `id`, inputs and step
outputs in expressions); anything else is refused, so a change to action.yml that this
runner does not understand fails the test instead of passing untested.
"""

import os
import re
import subprocess
import sys

import yaml  # PyYAML, installed with pre-commit in the test's venv

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def main() -> int:
    action_dir, workdir, *pairs = sys.argv[1:]
    given = dict(p.split("=", 1) for p in pairs)
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    declared = action.get("inputs", {})
    unknown = set(given) - set(declared)
    if unknown:
        sys.exit(f"run_action: inputs not declared in action.yml: {sorted(unknown)}")
    inputs = {name: str(spec.get("default", "")) for name, spec in declared.items()}
    inputs.update(given)
    if action["runs"]["using"] != "composite":
        sys.exit("run_action: only composite actions are supported")

    temp = os.path.abspath(os.path.join(workdir, ".runner-temp"))
    os.makedirs(temp, exist_ok=True)
    path_file = os.path.join(temp, "github_path")
    open(path_file, "w").close()
    step_outputs: dict[str, dict[str, str]] = {}

    def expand(text: str) -> str:
        def value(m: re.Match) -> str:
            expr = m.group(1)
            if expr.startswith("inputs."):
                return inputs[expr[len("inputs."):]]
            parts = expr.split(".")
            if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
                return step_outputs.get(parts[1], {}).get(parts[3], "")
            sys.exit(f"run_action: unsupported expression '{expr}'")
        return EXPR.sub(value, str(text))

    status = 0
    for n, step in enumerate(action["runs"]["steps"]):
        extra = set(step) - {"name", "id", "shell", "env", "run"}
        if extra or step.get("shell") != "bash" or "run" not in step:
            sys.exit(f"run_action: step {n} uses what this runner does not: {step}")
        output_file = os.path.join(temp, f"output_{n}")
        open(output_file, "w").close()
        env = dict(os.environ)
        with open(path_file, encoding="utf-8") as f:
            added = [line.strip() for line in f if line.strip()]
        env["PATH"] = os.pathsep.join(added[::-1] + [env["PATH"]])
        env.update(
            GITHUB_ACTION_PATH=os.path.abspath(action_dir),
            RUNNER_TEMP=temp,
            GITHUB_OUTPUT=output_file,
            GITHUB_PATH=path_file,
        )
        for key, val in (step.get("env") or {}).items():
            env[key] = expand(val)
        print(f"run_action: step '{step.get('name', n)}'", flush=True)
        done = subprocess.run(["bash", "-e", "-c", expand(step["run"])], cwd=workdir, env=env)
        with open(output_file, encoding="utf-8") as f:
            outs = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        if "id" in step:
            step_outputs[step["id"]] = outs
        if done.returncode != 0:
            status = done.returncode
            break

    outputs = {name: expand(spec["value"]) for name, spec in action.get("outputs", {}).items()}
    print("outputs:", outputs, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
