"""Retrain every shipped model from the command and seed its file records, on one thread, and
compare each with the shipped one: `make reproduce-models` runs this in the locked environment
(requirements/lock.txt, `.venv-reproduce`).

    python scripts/reproduce_models.py [--game NAME ...] [--out DIR] [--dry-run] [--resume]
                                       [--install]

Each model NAME (finca, alpujarras, mi_tierra, alpujarras-solo: the files of agents/models/) is
trained by its recorded `huerta train` command with `--threads 1` and `--out DIR/NAME` (default
runs/reproduce/), in a process whose BLAS libraries are held to one thread too; its best model is
exported to DIR/NAME.npz and compared with the shipped file: `equal` when every array (or every
constant, for the solo game's value constants) is the same, else the largest absolute
difference; beside it the best evaluation each recorded. Weights repeat exactly only on the
locked environment, on CPU, and on the code that trained the shipped model (the commit its file
records): on later code or other libraries the comparison shows how far they moved.

`--dry-run` prints the commands and trains nothing; `--resume` goes on with the runs already in
DIR (a model with none there starts one; without `--resume` each run starts afresh, `--force`);
`--install` copies the retrained models over the shipped ones in agents/models/ (nothing there
is touched without it).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "agents" / "models"
DEFAULT_OUT = Path("runs/reproduce")
ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                     "OPENBLAS_NUM_THREADS")}


def shipped_models(folder: Path = MODELS) -> dict[str, Path]:
    """The shipped model files by name (the file's stem: `alpujarras-solo`, ...)."""
    return {path.stem: path for path in sorted(folder.glob("*.npz"))}


def read_about(path: Path) -> dict[str, Any]:
    """The `about` of a model file (the JSON every huerta model carries)."""
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["about"]))


def train_command(recorded: str, out: Path, resume: bool = False) -> list[str]:
    """The recorded `huerta train ...` command with `--out out`, `--threads 1`, and `--force`
    (or `--resume`) in place of what it had for them."""
    words = shlex.split(recorded)
    if words[:2] != ["huerta", "train"]:
        raise ValueError(f"not a huerta train command: {recorded!r}")
    kept: list[str] = []
    skip = False
    for word in words[2:]:
        if skip:
            skip = False
            continue
        if word in ("--out", "--threads"):
            skip = True
            continue
        if word in ("--force", "--resume"):
            continue
        kept.append(word)
    return ["huerta", "train", *kept, "--threads", "1", "--out", str(out),
            "--resume" if resume else "--force"]


def export_command(run: Path, model: Path) -> list[str]:
    """The `huerta export` command that writes the best model of `run` to `model`."""
    return ["huerta", "export", str(run), "--out", str(model)]


def weights(path: Path) -> dict[str, np.ndarray]:
    """A model's weights by name: its arrays, or its value constants (the solo game's)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != "about"}
        constants = json.loads(str(data["about"])).get("weights") or {}
    arrays.update({f"weights.{k}": np.array(v, dtype=np.float64) for k, v in constants.items()})
    return arrays


def weight_difference(shipped: Path, retrained: Path) -> str:
    """`equal` when both models hold the same weights bit for bit, else the largest absolute
    difference (or why they cannot be compared)."""
    a, b = weights(shipped), weights(retrained)
    if sorted(a) != sorted(b) or any(a[k].shape != b[k].shape for k in a):
        return "other shapes"
    if all(a[k].dtype == b[k].dtype and a[k].tobytes() == b[k].tobytes() for k in a):
        return "equal"
    most = max(float(np.max(np.abs(a[k].astype(np.float64) - b[k].astype(np.float64)),
                            initial=0.0)) for k in a)
    return f"max abs diff {most:.4g}"


def eval_text(about: dict[str, Any]) -> str:
    """The best evaluation a model records, e.g. `heuristic 0.66, random 1.0`."""
    best = about.get("trained", {}).get("best_eval") or {}
    return ", ".join(f"{k} {v:g}" for k, v in sorted(best.items())) or "-"


def short(commit: Any) -> str:
    return commit[:7] if isinstance(commit, str) else "unknown"


def comparison_rows(names: Sequence[str], out: Path,
                    shipped: dict[str, Path]) -> list[list[str]]:
    """One row per model: name, the commits that trained the shipped and the retrained model,
    the weights' difference, the retrained and the shipped best evaluation."""
    rows = []
    for name in names:
        mine = out / f"{name}.npz"
        theirs = read_about(shipped[name]).get("trained", {})
        if not mine.is_file():
            rows.append([name, short(theirs.get("commit")), "-", "not retrained", "-",
                         eval_text({"trained": theirs})])
            continue
        about = read_about(mine)
        rows.append([name, short(theirs.get("commit")), short(about["trained"].get("commit")),
                     weight_difference(shipped[name], mine), eval_text(about),
                     eval_text({"trained": theirs})])
    return rows


def table(rows: list[list[str]]) -> str:
    """The comparison as aligned text."""
    header = ["model", "shipped from", "retrained on", "weights", "retrained eval",
              "shipped eval"]
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in [header, *rows])


def parse(argv: Sequence[str] | None, names: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="reproduce_models.py",
        description="Retrain the shipped models from their recorded commands and seeds on one "
        "thread, export them and compare them with the shipped files.")
    parser.add_argument("--game", nargs="+", choices=names, default=None, metavar="NAME",
                        help=f"the models to retrain (default all: {', '.join(names)})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder of the runs and retrained models (default {DEFAULT_OUT})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands, train nothing")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the runs already in --out (default: start afresh)")
    parser.add_argument("--install", action="store_true",
                        help="copy the retrained models over the shipped ones in agents/models/")
    args = parser.parse_args(argv)
    if args.dry_run and args.install:
        parser.error("--install needs retrained models; --dry-run trains nothing")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out} is a file; give a folder")
    return args


def install(model: Path, shipped: Path) -> None:
    """Copy a retrained `model` over the `shipped` file, keeping the learned search settings
    the shipped file declares (`about["search"]`: how `learned` plays it, chosen by measurement
    after training, docs/learned-search.md), which a training run does not write."""
    search = read_about(shipped).get("search")
    shutil.copyfile(model, shipped)
    if search is not None:
        from huerta.agents.afterstate import ValueNetwork, is_value_file

        if is_value_file(shipped):
            network = ValueNetwork.load(shipped)
            network.about["search"] = search
            network.save(shipped)


def main(argv: Sequence[str] | None = None) -> int:
    shipped = shipped_models()
    args = parse(argv, list(shipped))
    names = args.game or list(shipped)
    plan = []
    for name in names:
        recorded = read_about(shipped[name]).get("trained", {}).get("command")
        if not recorded:
            print(f"reproduce_models.py: {shipped[name]} records no command", file=sys.stderr)
            return 2
        run, model = args.out / name, args.out / f"{name}.npz"
        resume = args.resume and (run / "config.json").is_file()
        plan.append((name, train_command(recorded, run, resume), export_command(run, model)))
    for _, train, export in plan:
        print(shlex.join(train))
        print(shlex.join(export))
    if args.dry_run:
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    huerta = [sys.executable, "-m", "huerta.training.cli"]
    env = {**os.environ, **ONE_THREAD}
    for name, train, export in plan:
        for command in (train, export):
            done = subprocess.run([*huerta, *command[1:]], env=env, check=False)
            if done.returncode != 0:
                print(f"reproduce_models.py: {name}: `{shlex.join(command)}` failed "
                      f"(exit status {done.returncode})", file=sys.stderr)
                return done.returncode
    print(table(comparison_rows(names, args.out, shipped)))
    if args.install:
        for name in names:
            install(args.out / f"{name}.npz", shipped[name])
            print(f"installed {args.out / f'{name}.npz'} as {shipped[name]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
