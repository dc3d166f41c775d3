"""The evaluation log of a run, eval.csv: one row per evaluated step count (the last written
wins), its win rates by opponent, the games each and the local time; appended, trimmed on
resume, read, and the best evaluation chosen from it, the same way for every method and backend
and for the web page (`parse_eval_rows` reads text the page has read safely itself).
"""

from __future__ import annotations

import csv
import datetime
import io
from pathlib import Path

from .files import write_atomic
from .layout import EVAL_FILE


def parse_eval_rows(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """The header and raw rows (strings) of the text of an eval.csv."""
    reader = csv.DictReader(io.StringIO(text))
    return list(reader.fieldnames or []), list(reader)


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
    path = run / EVAL_FILE
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
    path = run / EVAL_FILE
    header, rows = read_eval_rows(path)
    if header:
        _write_eval_rows(path, header, [r for r in rows if int(r["steps"]) <= steps])


def read_eval(run: Path) -> list[dict[str, float]]:
    """The evaluation history of a run (eval.csv), oldest first: {"steps": ..., "vs_random":
    ..., "vs_heuristic": ...} (or "vs_zara" for a solo run), and "games" per opponent when the
    row says (runs before that column have none)."""
    _, raw = read_eval_rows(Path(run) / EVAL_FILE)
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


def read_best(run: Path, model: str) -> tuple[float, ...] | None:
    """The key (`best_key`) of the evaluation the run's best model `model` (best_model.zip,
    best_policy/) stands for; None when the run has no such model or no candidate row."""
    rows = best_candidates(run)
    if not rows or not (run / model).exists():
        return None
    return max(best_key(rates_of(r)) for r in rows)
