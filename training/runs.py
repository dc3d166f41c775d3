"""The run folder every trainer writes: atomic files, the evaluation log, and the shared checks.

Below every training method (PPO in train.py, RLlib, afterstate, cem, imitation, export) and the
tournament tools, so that they all write files the same way and read each other's eval.csv
without importing one another. The only module of `huerta.training` it imports is ratings.py
(the Wilson interval of `rates_text`), which imports none.

Every file is written under a temporary name in its own folder and renamed into place, so a
reader sees the old version or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import math
import os
import shutil
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from numbers import Real
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from huerta.envs.core.errors import HuertaError, InvalidConfigError
from huerta.envs.core.validation import short_repr

from .ratings import wilson_interval

# the end of every "nothing to resume" message (this path's and RLlib's): what to do instead
START_AFRESH = "; start afresh with --force (in place of --resume)"


class TrainingInterrupted(HuertaError):
    """Training stopped by SIGINT or SIGTERM after saving a checkpoint. The message says what
    was kept, in one line; `signum`, `steps` and `checkpoint` say it to programs."""

    def __init__(self, signum: int, steps: int, target: int, checkpoint: Path,
                 unit: str = "steps") -> None:
        self.signum = signum
        self.steps = steps
        self.checkpoint = checkpoint
        name = signal.Signals(signum).name
        super().__init__(
            f"interrupted by {name}: kept {checkpoint}, {steps:,} of {target:,} {unit}; "
            "continue with --resume"
        )


# --- files written whole -------------------------------------------------------------------------
def _temporary(path: Path) -> Path:
    """A temporary name beside `path` (same folder, so the rename is atomic); it starts with a
    dot so no glob of checkpoints or snapshots sees it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def save_atomically(path: Path, write: Callable[[BinaryIO], Any]) -> None:
    """Write `path` through `write(binary file)` under a temporary name, synced and renamed into
    place, so a reader sees the previous file or the whole new one (never a temporary left)."""
    tmp = _temporary(path)
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically: the file is either the old one or the whole
    new one."""
    save_atomically(path, lambda f: f.write(text.encode()))


def copy_atomic(src: Path, dst: Path) -> None:
    """Copy `src` to `dst` atomically (a reader of `dst` never sees half a copy)."""
    with open(src, "rb") as source:
        save_atomically(dst, lambda f: shutil.copyfileobj(source, f))


def clear_run(run: Path, files: Iterable[str], folders: Iterable[str]) -> None:
    """Remove a run's own `files` and `folders` from `run` (nothing else in it), for --force."""
    for name in files:
        (run / name).unlink(missing_ok=True)
    for folder in folders:
        shutil.rmtree(run / folder, ignore_errors=True)


# --- settings checks -----------------------------------------------------------------------------
def refuse(name: str, value: object, expected: str) -> None:
    """Raise `InvalidConfigError` naming the setting, its value and type, and what is valid."""
    raise InvalidConfigError(
        f"{name}={short_repr(value)} ({type(value).__name__}): expected {expected}"
    )


def is_int(value: object) -> bool:
    """Whether `value` is an integer (Python's or numpy's), booleans excluded."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _range_text(minimum: float, maximum: float | None, open_low: bool = False) -> str:
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    low = f"> {show(minimum)}" if open_low else f">= {show(minimum)}"
    return low if maximum is None else f"{low} and <= {show(maximum)}"


def checked_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """`value` as an int in range; a float with an integral value (1e5 in JSON) is accepted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not is_int(value) or value < minimum or (maximum is not None and value > maximum):
        refuse(name, value, "an integer " + _range_text(minimum, maximum))
    return int(value)


def checked_float(
    name: str, value: object, minimum: float, maximum: float | None, open_low: bool
) -> float:
    """`value` as a finite float in range (`open_low`: the minimum itself excluded)."""
    ok = isinstance(value, Real) and not isinstance(value, (bool, np.bool_))
    number = float(value) if ok else math.nan
    if (not math.isfinite(number) or number < minimum or (open_low and number == minimum)
            or (maximum is not None and number > maximum)):
        refuse(name, value, "a number " + _range_text(minimum, maximum, open_low))
    return number


# --- signals -------------------------------------------------------------------------------------
def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the main process's to handle (it ends the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def signals_caught(stop: Any) -> Iterator[None]:
    """SIGINT and SIGTERM go to `stop.handler` while training (only the main thread can install
    handlers; elsewhere the signals keep their handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, stop.handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


# --- eval.csv ------------------------------------------------------------------------------------
def read_eval_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and raw rows (strings) of an eval.csv; ([], []) when there is none."""
    if not path.exists():
        return [], []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def _write_eval_rows(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    """eval.csv rewritten whole: one row per step count (the last written wins), by steps."""
    by_steps = {int(row["steps"]): row for row in rows}
    lines = [",".join(header)]
    for steps in sorted(by_steps):
        lines.append(",".join(by_steps[steps].get(column) or "" for column in header))
    write_atomic(path, "\n".join(lines) + "\n")


def append_eval(
    run: Path, steps: int, rates: dict[str, float], games: int | None = None
) -> None:
    """Record an evaluation (of `games` per opponent, a column when given); one made again for
    a step count replaces the earlier row."""
    path = run / "eval.csv"
    header, rows = read_eval_rows(path)
    columns = [f"win_rate_vs_{o}" for o in rates] + (["games"] if games is not None else [])
    if not header:
        header = ["steps", *columns, "time"]
    for column in columns:
        if column not in header:
            header.insert(len(header) - 1 if header[-1] == "time" else len(header), column)
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    row = {"steps": str(steps), "time": now}  # local time with its UTC offset
    row.update({f"win_rate_vs_{o}": f"{r:.4f}" for o, r in rates.items()})
    if games is not None:
        row["games"] = str(games)
    _write_eval_rows(path, header, [*rows, row])


def trim_eval(run: Path, steps: int) -> None:
    """Drop the evaluation rows made after `steps` (a resume from a checkpoint of `steps` makes
    them again) and any duplicate rows an older version wrote."""
    path = run / "eval.csv"
    header, rows = read_eval_rows(path)
    if header:
        _write_eval_rows(path, header, [r for r in rows if int(r["steps"]) <= steps])


def read_eval(run: Path) -> list[dict[str, float]]:
    """The evaluation history of a run (eval.csv), oldest first: {"steps": ..., "vs_random":
    ..., "vs_heuristic": ...} (or "vs_zara" for a solo run), and "games" per opponent when the
    row says (runs before that column have none)."""
    _, raw = read_eval_rows(Path(run) / "eval.csv")
    rows = []
    for row in raw:
        entry: dict[str, float] = {"steps": int(row["steps"])}
        if row.get("games"):
            entry["games"] = int(row["games"])
        for key, value in row.items():
            if key.startswith("win_rate_vs_") and value:
                entry["vs_" + key.removeprefix("win_rate_vs_")] = float(value)
        rows.append(entry)
    return rows


def imitated(run: Path) -> bool:
    """Whether the run's step 0 is an imitation of the heuristic (its report is written)."""
    return (run / "imitation.json").exists()


def best_candidates(run: Path) -> list[dict[str, float]]:
    """The evaluations that may be the best model: every one after step 0, and step 0 too when
    it is an imitation of the heuristic (the untrained policy is never handed back)."""
    was_imitated = imitated(run)
    return [r for r in read_eval(run) if r["steps"] > 0 or was_imitated]


def best_key(rates: dict[str, float]) -> tuple[float, ...]:
    """Which evaluation is best: the strongest opponent first (heuristic, then random), or
    the win rate against Zara."""
    order = ("heuristic", "random", "zara")
    return tuple(rates[o] for o in order if o in rates)


def rates_of(row: dict[str, float]) -> dict[str, float]:
    """The win rates of a `read_eval` row, by opponent ({"random": ..., ...})."""
    return {k[3:]: v for k, v in row.items() if k.startswith("vs_")}


def rates_text(rates: dict[str, float], games: int) -> str:
    """Win rates as text, each with its 95% Wilson interval over `games` games, e.g.
    `92.5% [80.1, 97.4] vs random, 10.0% [4.0, 23.1] vs heuristic`."""
    parts = []
    for opponent, rate in rates.items():
        low, high = wilson_interval(rate * games, games)
        parts.append(f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] vs {opponent}")
    return ", ".join(parts)
