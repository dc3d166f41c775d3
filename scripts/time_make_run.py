"""How long `make run` takes from a fresh clone: the set-up, then the main job.

    python scripts/time_make_run.py --json runs/make_run.json

Clones this repository's committed HEAD into a temporary folder (what a new user has after
`git clone`), runs the set-up of `make run` (a fresh virtual environment with the train extra)
and then `make run` itself (the main job, `huerta main`), and reports the wall seconds of each,
the output lines of the set-up (it should print nothing of ours) and the main job's table.
pip's download cache is whatever this machine has: the first run on a machine downloads every
wheel, a later one reads them from the cache (the README's figure is of a warm cache).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRAIN_STAMP = ".venv/.installed-train"  # the Makefile's set-up target for `make run`


def timed(command: list[str], cwd: Path) -> tuple[float, str]:
    """Run `command` in `cwd`, streaming its output; its wall seconds and output. A failure
    stops the script naming the command."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line)
    if process.wait() != 0:
        sys.exit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return time.monotonic() - start, "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write the timings to this file")
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="huerta-make-run-") as folder:
        clone = Path(folder) / "huerta"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        print(f"cloned {commit[:12]} into {clone}", flush=True)
        setup_s, setup_output = timed(["make", TRAIN_STAMP], clone)
        job_s, job_output = timed(["make", "run"], clone)
    # make echoes its recipe lines; everything else the set-up printed is pip's or ours
    recipe = ("test -x", ".venv/bin/python", "PYTHONWARNINGS=", "touch ")
    printed = [line for line in setup_output.splitlines()
               if line.strip() and not line.startswith(recipe)]
    result = {
        "commit": commit, "cores": os.cpu_count(), "load": list(os.getloadavg()),
        "setup_seconds": round(setup_s, 1), "main_job_seconds": round(job_s, 1),
        "total_seconds": round(setup_s + job_s, 1), "setup_printed": printed,
        "main_job_output": job_output,
    }
    print(f"set-up {setup_s:.0f} s, main job {job_s:.0f} s, together {setup_s + job_s:.0f} s; "
          f"the set-up printed {len(printed)} line(s) besides make's own")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
