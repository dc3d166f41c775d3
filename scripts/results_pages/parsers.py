"""Figures from what the measuring commands write: `huerta tournament`'s summary.json,
`huerta benchmark --json`, `huerta bench --json`, the scripts' --json files, and the lines the
one-file PPO example and the instruction counter print. Each parser takes the folder the
commands ran in and their printed outputs, and returns the figures a record keeps."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .model import Figures

TOURNAMENT_OUT = "out"  # the --out folder of a measured tournament
JSON_OUT = "out.json"  # the --json file of a measured benchmark, bench or script


def read_json(folder: Path, name: str = JSON_OUT) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def tournament(folder: Path, outputs: list[str], out: str = TOURNAMENT_OUT) -> Figures:
    """Per agent (by the tournament's label: `random#2` for a second random seat): games,
    wins (a shared victory counts 1/k), win rate and its 95% Wilson interval, mean score and
    rank; `out` is the tournament's --out folder."""
    summary = read_json(folder / out, "summary.json")
    agents = {
        s["label"]: {"games": s["games"], "wins": s["wins"], "win_rate": s["win_rate"],
                     "low": s["ci_low"], "high": s["ci_high"], "mean_score": s["mean_score"],
                     "mean_rank": s["mean_rank"]}
        for s in summary["stats"]
    }
    return {"game": summary["game"], "players": summary["players"], "agents": agents}


def benchmark(folder: Path, outputs: list[str]) -> Figures:
    """The agent's rating (the solo game: win rate against Zara) with its 95% interval, the
    games, how the benchmark stopped, and a row per rung played (games, wins, draws, losses,
    score share and its interval, mean margin)."""
    data = read_json(folder)
    figures = {key: data.get(key) for key in ("game", "players", "agent", "seed", "deals",
                                              "games", "low", "high", "rating", "win_rate",
                                              "design_effect", "protocol", "stopped")}
    figures["agent"] = data["agent"]["code"]
    figures["rungs"] = [{key: rung.get(key) for key in (
        "code", "rating", "games", "wins", "draws", "losses", "score_share", "share_low",
        "share_high", "mean_margin", "win_rate")} for rung in data.get("rungs", [])]
    return figures


def bench(folder: Path, outputs: list[str]) -> Figures:
    """`huerta bench --json`'s rows, and the seconds each row ran."""
    data = read_json(folder)
    return {"mode": data["mode"], "seconds": data["seconds"], "rows": data["rows"]}


def script_json(folder: Path, outputs: list[str]) -> Figures:
    """A script's --json file as it is (scripts/alpujarras_solo_balance.py,
    scripts/search_timing.py)."""
    return read_json(folder)


PPO_TRAINED = re.compile(r"trained (\d+) steps in (\d+) s \((\d+) steps/s\)")
PPO_GREEDY = re.compile(r"greedy against (\w+): (\d+)/(\d+) won")


def ppo_masked(folder: Path, outputs: list[str]) -> Figures:
    """examples/ppo_masked.py's last lines: the steps trained, their seconds (training only)
    and steps per second, and the greedy policy's wins against each opponent."""
    text = outputs[-1]
    trained = PPO_TRAINED.search(text)
    if trained is None:
        raise ValueError("examples/ppo_masked.py printed no 'trained ... steps' line")
    steps, seconds, rate = (int(x) for x in trained.groups())
    greedy = {name: {"wins": int(wins), "games": int(games)}
              for name, wins, games in PPO_GREEDY.findall(text)}
    return {"steps": steps, "train_seconds": seconds, "steps_per_s": rate, "greedy": greedy}


INSTRUCTIONS = re.compile(r"^(\S+) (\d+)p (\S+), (\d+) games a pass: old ([\d,]+), new ([\d,]+)",
                          re.M)


def instructions(folder: Path, outputs: list[str]) -> Figures:
    """scripts/instructions.py's line per command: game, players, mode, games a pass and the
    old and new code's instructions a pass."""
    rows = []
    for output in outputs:
        for game, players, mode, games, old, new in INSTRUCTIONS.findall(output):
            rows.append({"game": game, "players": int(players), "mode": mode,
                         "games": int(games), "old": int(old.replace(",", "")),
                         "new": int(new.replace(",", ""))})
    return {"rows": rows}


def model_about(folder: Path, outputs: list[str], name: str = "model.npz") -> Figures:
    """What `huerta export` wrote into a model file's `about`: how its run trained it (wall
    seconds, the best evaluation and where it was), and the solo game's constants."""
    import numpy as np

    with np.load(folder / name, allow_pickle=False) as data:
        about = json.loads(str(data["about"]))
    return {"trained": about.get("trained", {}), "weights": about.get("weights")}


def ladder(folder: Path, outputs: list[str]) -> Figures:
    """The benchmark ladder's reference figures as the shipped ladder file holds them (measured
    by scripts/reference_ladder.py, hours of games): per game, player count and rung, the
    rating and interval (the solo game: the win rate), games, opponents, date and commit; and
    how they were measured: each rung's version and the commands that measured them."""
    from huerta.training.evaluation.ladder import LADDER_FILE, load_ladder_file

    data = load_ladder_file(LADDER_FILE)
    rungs, versions = [], {}
    for game, counts in data["ladders"].items():
        for players, entries in counts.items():
            for code, entry in entries.items():
                rungs.append({"game": game, "players": int(players), "code": code,
                              **{key: entry.get(key) for key in (
                                  "rating", "low", "high", "games", "wins", "win_rate",
                                  "opponents", "date", "commit", "command")}})
                versions[ladder_rung_name(game, int(players), code)] = entry.get("version")
    # the commands of the file's last measuring day (`made_by`: "DATE: command"), which measured
    # the rungs of that day; each rung keeps its own command too
    made_by = [line.partition(": ") for line in data.get("made_by", [])]
    last = max((day for day, _, _ in made_by), default=None)
    commands = [f"python {command}" for day, _, command in made_by if day == last]
    return {"rungs": rungs, "versions": versions,
            "commands": commands or sorted({f"python {r['command']}" for r in rungs
                                             if r.get("command")})}


def ladder_rung_name(game: str, players: int, code: str) -> str:
    """The name a ladder rung's version goes by in a record."""
    return f"{code} rung ({game}, {players} player{'s' if players > 1 else ''})"


def training_run(folder: Path, outputs: list[str]) -> Figures:
    """A training run exported into model.npz: what its `about` says of the run (wall seconds,
    the best evaluation and where it was), and for the solo game's learned constants the
    heuristic's own beside them and the mean window of every generation (run/cem.jsonl)."""
    figures = model_about(folder, outputs)
    cem = folder / "run" / "cem.jsonl"
    if cem.exists():
        from dataclasses import asdict

        from huerta.agents.heuristics.alpujarras.solo import SoloWeights

        generations = [json.loads(line) for line in cem.read_text().splitlines() if line]
        figures["window_by_generation"] = [g["weights"]["window"] for g in generations]
        figures["heuristic_weights"] = asdict(SoloWeights())
    return figures


def main_job(folder: Path, outputs: list[str]) -> Figures:
    """`huerta main`'s benchmarks of its briefly trained agents (runs/main/GAME/benchmark.json):
    per game, the rating on the fixed scale, its 95% interval and the games (its time is the
    record's wall seconds)."""
    games = []
    for path in sorted((folder / "runs" / "main").glob("*/benchmark.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        games.append({"game": path.parent.name, "rating": data.get("rating"),
                      "low": data.get("low"), "high": data.get("high"),
                      "games": data.get("games"), "stopped": data.get("stopped")})
    return {"games": games}
