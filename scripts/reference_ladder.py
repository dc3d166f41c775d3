"""Measure the benchmark ladder's reference ratings into training/evaluation/ladder.json.

    .venv/bin/python scripts/reference_ladder.py --workers 2          # random and heuristic,
                                                                      # every game and count
    .venv/bin/python scripts/reference_ladder.py --game finca --players 2 --rungs search \\
        --games 400 --workers 2                                       # add one rung
    .venv/bin/python scripts/reference_ladder.py --game finca --players 2 --rungs search \
        --games 200 --only-below --workers 2                          # the rung below alone
    .venv/bin/python scripts/reference_ladder.py --game finca --players 2 --rungs learned \
        --games 200 --against search --workers 2                      # a rung above search

Random is 0 by definition (for every game and player count). Every other rung is benchmarked
(`huerta.training.evaluation.benchmark`, the published deals, seats rotated) against random and
the rung just below it in the ladder (or the rungs `--against` names), whose ratings are held at
their reference values, and its fitted rating, 95% interval, game count, opponents, version and
date are written into the ladder file, which keeps the rungs in ladder order. Rungs are
measured in the order given, so `--rungs heuristic search` measures search against the
heuristic's new rating. Each entry keeps the command that measures it again, naming the
opponents it was measured against. In the solo game (alpujarras with 1 player) each rung's win
rate against Zara on the published deals is kept instead. The file is rewritten (atomically)
after every rung, so an interrupted run keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

from huerta.agents.registry import agent_codes
from huerta.envs.core.registry import game_names, get_game, own_player_counts
from huerta.training.agent_specs import agent_identity
from huerta.training.evaluation.benchmark import benchmark
from huerta.training.evaluation.ladder import (
    BASE_RUNG,
    BENCHMARK_SEED,
    DEFAULT_RUNGS,
    LADDER_FILE,
    LADDER_FORMAT,
    SOLO_DEALS,
    Rung,
)
from huerta.training.runs import write_atomic

METHOD = (
    "Each rung after random was benchmarked (huerta.training.benchmark) against random and the "
    "rung just below it, their ratings held at their reference values: the published deals "
    "from the seed below, each deal once from every seat, the rung in one seat and the opponent "
    "in the others; anchored Elo fit with one virtual draw against each opponent, 95% profile-"
    "likelihood interval widened by the deal bootstrap's design effect. Solo (players 1): win "
    "rate against Zara on the published deals."
)


def load(path: Path) -> dict[str, Any]:
    """The ladder file, or a new one."""
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"format": LADDER_FORMAT, "ladders": {}}


def ordered(entries: dict[str, Any]) -> dict[str, Any]:
    """Rungs in ladder order: random, then DEFAULT_RUNGS' order, then any others as they came."""
    rank = {code: i for i, code in enumerate(DEFAULT_RUNGS)}
    return dict(sorted(entries.items(), key=lambda kv: rank.get(kv[0], len(rank))))


def as_rung(code: str, entry: dict[str, Any]) -> Rung:
    return Rung(code, rating=float(entry.get("rating", 0.0)), version=entry.get("version"))


def remeasure_command(game: str, players: int, code: str, games: int, workers: int,
                      against: list[str] | None = None) -> str:
    """The command that measures this one rung again (the ladder test quotes it). It names the
    opponents the rung was measured against (`--against`), so that it plays the same rungs after
    others are added: by default and with `--only-below` the opponent is the rung just below in
    ladder order, which changes when a rung is measured between them."""
    words = ["scripts/reference_ladder.py", "--game", game, "--players", str(players),
             "--rungs", code, "--games", str(games), "--workers", str(workers)]
    words += ["--against", *against] if against else []
    return " ".join(shlex.quote(w) for w in words)


def git_commit(written: Path = LADDER_FILE) -> str | None:
    """The commit of the huerta checkout measured (with `+dirty` when tracked files other than
    the ladder file being written differ), or None outside a git checkout."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    changed = [line[3:] for line in status.splitlines()
               if (root / line[3:]).resolve() != written.resolve()]
    return head + ("+dirty" if changed else "")


def measure(game: str, players: int, code: str, entries: dict[str, Any], games: int,
            workers: int, seed: int, db: str | None, only_below: bool = False,
            against: list[str] | None = None) -> dict[str, Any]:
    """The ladder entry of rung `code`, measured against random and the rung just below it in
    `entries` (only that rung with `only_below`: a rung that beats random in every game learns
    nothing from those games, and a search rung's games are dear), or against the rungs
    `against` names (a rung that climbs above another is measured against it: games against a
    rung far below say little). The entry records the versions of the rung and of its
    opponents, the commit and the command that measures it again."""
    facts = {"version": agent_identity(code, game).version, "date": date.today().isoformat(),
             "commit": git_commit(),
             "command": remeasure_command(game, players, code, games, workers)}
    if players == 1:
        result = benchmark(game, code, players=1, games=games, seed=seed, workers=workers,
                           db=db, progress=True, rungs=[], full=True)
        return {"wins": round(result.rating * result.games), "games": result.games,
                "win_rate": result.rating, "low": result.low, "high": result.high, **facts}
    if code == BASE_RUNG:
        return {"rating": 0.0, **facts}
    below = [c for c in ordered(entries) if c != code]
    if code in DEFAULT_RUNGS:
        below = [c for c in below if c not in DEFAULT_RUNGS
                 or DEFAULT_RUNGS.index(c) < DEFAULT_RUNGS.index(code)]
    opponents = list(dict.fromkeys([*([] if only_below and below else [BASE_RUNG]),
                                    *below[-1:]]))
    if against:
        unknown = [c for c in against if c == code or c not in entries]
        if unknown:
            raise SystemExit(f"--against {' '.join(unknown)}: not a measured rung of {game} at "
                             f"{players} players other than {code} (measured: "
                             f"{', '.join(c for c in entries if c != code)})")
        opponents = list(dict.fromkeys(against))
    facts["command"] = remeasure_command(game, players, code, games, workers, opponents)
    rungs = [as_rung(c, entries.get(c, {})) for c in opponents]
    result = benchmark(game, code, players=players, games=games, seed=seed, workers=workers,
                       db=db, progress=True, rungs=rungs, full=True)
    print(result.table(), flush=True)
    return {"rating": result.rating, "low": result.low, "high": result.high,
            "design_effect": result.design_effect, "games": result.games,
            "opponents": opponents,
            "opponent_versions": {c: agent_identity(c, game).version for c in opponents},
            **facts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="+", default=game_names())
    parser.add_argument("--players", type=int, nargs="+", default=None,
                        help="player counts (default: every count of each game, the solo "
                        "game's 1 included)")
    parser.add_argument("--rungs", nargs="+", default=None,
                        help="rung codes to measure, in order (default: "
                        + ", ".join(DEFAULT_RUNGS) + ", those the registry has)")
    parser.add_argument("--games", type=int, default=400,
                        help=f"games per opponent (solo: deals, at most {SOLO_DEALS})")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=BENCHMARK_SEED)
    parser.add_argument("--db", default=None, help="also store the games in this leaderboard")
    parser.add_argument("--only-below", action="store_true",
                        help="play each rung against the rung just below it only, not random")
    parser.add_argument("--against", nargs="+", default=None, metavar="RUNG",
                        help="play each measured rung against these rungs of the ladder instead "
                        "(e.g. a learned rung above search: --against search)")
    parser.add_argument("--out", type=Path, default=LADDER_FILE)
    args = parser.parse_args(argv)
    known = set(agent_codes())
    rungs = args.rungs or [c for c in DEFAULT_RUNGS if c.partition(":")[0] in known]
    data = load(args.out)
    data.update({
        "format": LADDER_FORMAT,
        "scale": "Elo: P(A finishes ahead of B) = 1 / (1 + 10 ** ((r_B - r_A) / 400)); "
                 "random = 0 for every game and player count",
        "seed": args.seed,
        "method": METHOD,
    })
    made = data.setdefault("made_by", [])
    made.append(f"{date.today().isoformat()}: scripts/reference_ladder.py "
                + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])))
    for game in args.game:
        spec = get_game(game)
        counts = args.players or [*own_player_counts(game),
                                  *(n for n in spec.player_counts
                                    if n not in own_player_counts(game))]
        for players in counts:
            if players not in spec.player_counts:
                continue
            for code in rungs:
                entries = data["ladders"].setdefault(game, {}).setdefault(str(players), {})
                games = args.games if players > 1 else min(args.games, SOLO_DEALS)
                print(f"{game}, {players} player(s): {code}", flush=True)
                entries[code] = measure(game, players, code, entries, games, args.workers,
                                        args.seed, args.db, args.only_below, args.against)
                data["ladders"][game][str(players)] = ordered(entries)
                data = {**{k: data[k] for k in data if k != "ladders"}, "ladders": data["ladders"]}
                write_atomic(args.out, json.dumps(data, indent=2) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
