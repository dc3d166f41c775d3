"""The benchmark ladder: fixed opponents per game and player count, with reference ratings.

A ladder is an ordered list of rungs (agent codes: random, heuristic, the shipped learned agent,
search), each with a reference rating on the anchored Elo scale of `anchored.py`: random is 0 for
every game and player count, and the others were measured once by `scripts/reference_ladder.py`
(each rung against the rungs below it, on the published deals) and kept in the package file
`training/evaluation/ladder.json`, with how they were made. A rung without a reference rating there
is not used, so the ladder works before a rung is measured. In the solo
game (alpujarras with 1 player) there is no one to rate against but Zara: the file keeps each
rung's win rate against her on the published deals instead.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import InvalidConfigError

LADDER_FILE = Path(__file__).with_name("ladder.json")
LADDER_FORMAT = 1
DEFAULT_RUNGS = ("random", "heuristic", "learned", "search")
BASE_RUNG = "random"  # rated 0 for every game and player count
BENCHMARK_SEED = 1_000_000  # the published deals: seeds 1,000,000, 1,000,001, ...
SOLO_DEALS = 200  # the solo benchmark's fixed deals


@dataclass(frozen=True)
class Rung:
    """One rung: its agent code and reference rating (Elo points; low and high its 95% interval),
    or in the solo game its reference win rate (wins of games)."""

    code: str
    rating: float = 0.0
    low: float = 0.0
    high: float = 0.0
    games: int = 0
    wins: float = 0.0
    version: str | None = None
    date: str | None = None  # when it was measured
    commit: str | None = None  # the commit measured

    @property
    def win_rate(self) -> float:
        """The solo reference: wins over games."""
        return self.wins / self.games if self.games else 0.0


@functools.lru_cache(maxsize=4)
def _read(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": LADDER_FORMAT, "ladders": {}}
    except (OSError, ValueError) as exc:
        raise InvalidConfigError(f"the ladder file {path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != LADDER_FORMAT:
        raise InvalidConfigError(f"the ladder file {path} is not ladder format {LADDER_FORMAT}")
    return data


def load_ladder_file(path: Path | None = None) -> dict[str, Any]:
    """The whole ladder file (a missing file is an empty ladder): `path`, else the file named
    by $HUERTA_LADDER (a ladder of your own, or a shorter one for quick checks), else the one
    shipped with huerta."""
    return _read(str(path or os.environ.get("HUERTA_LADDER") or LADDER_FILE))


def ladder(game: str, players: int, path: Path | None = None) -> list[Rung]:
    """The rungs of `game` at `players` with their reference values, in ladder order; random
    (at rating 0) is always the first of a multiplayer ladder, measured or not."""
    entries = load_ladder_file(path).get("ladders", {}).get(game, {}).get(str(players), {})
    rungs = []
    for code, entry in entries.items():
        rungs.append(Rung(code=code, rating=float(entry.get("rating", 0.0)),
                          low=float(entry.get("low", entry.get("rating", 0.0))),
                          high=float(entry.get("high", entry.get("rating", 0.0))),
                          games=int(entry.get("games", 0)), wins=float(entry.get("wins", 0.0)),
                          version=entry.get("version"), date=entry.get("date"),
                          commit=entry.get("commit")))
    if players > 1 and not any(r.code == BASE_RUNG for r in rungs):
        rungs.insert(0, Rung(BASE_RUNG))
    if players > 1:  # the base rung is 0 by definition, whatever the file says
        rungs = [Rung(BASE_RUNG, version=r.version, date=r.date, commit=r.commit)
                 if r.code == BASE_RUNG else r for r in rungs]
    return rungs


def reference_ratings(game: str, players: int, path: Path | None = None) -> dict[str, float]:
    """Rung code -> reference rating, for the anchors of a fit."""
    return {r.code: r.rating for r in ladder(game, players, path)}
