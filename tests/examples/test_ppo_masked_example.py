"""examples/ppo_masked.py, the one-file masked PPO on the batched env: a tiny run trains,
evaluates against random and the heuristic, and repeats itself exactly from the same seed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--game", "mi_tierra", "--total-timesteps", "512", "--num-envs", "8", "--num-steps",
        "32", "--eval-games", "4", "--seed", "3"]


def run() -> str:
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "ppo_masked.py"), *TINY],
                            capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def without_timings(text: str) -> str:
    return re.sub(r"(steps/s \d+|in \d+ s \(\d+ steps/s\))", "", text)


def test_a_tiny_run_trains_evaluates_and_repeats_from_its_seed():
    first = run()
    assert re.search(r"^update 2/2  steps 512 ", first, flags=re.M), first
    for opponents in ("random", "heuristic"):
        match = re.search(rf"greedy against {opponents}: (\d+)/4 won", first)
        assert match and 0 <= int(match.group(1)) <= 4, first
    assert without_timings(run()) == without_timings(first)
