"""What a benchmark measured, as tables and JSON: the agent's anchored rating (or solo win rate)
with its 95% interval, and a head-to-head row per rung of the ladder."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from huerta.envs.core.registry import game_label

from ..agent_specs import AgentIdentity
from ..runs import write_atomic
from .ratings import wilson_interval

RATING_LEGEND = (
    "rating: Elo points (+400 = odds of 10 to 1 of finishing ahead), anchored at random = 0 and "
    "the ladder's reference ratings; 95% interval: the ratings these games do not rule out "
    "(profile likelihood, widened for games that share a deal)"
)
RUNG_LEGEND = (
    "wins/draws/losses: the agent against each seat the rung held (ahead, tied, behind); score %: "
    "its share of those points (a draw counts half), 95% Wilson interval over games; mean "
    "margin: its score minus the rung's mean score, per game"
)
SOLO_LEGEND = (
    "win %: games won against Zara on the published deals, 95% Wilson interval; the rungs' rows "
    "are the ladder's reference win rates on the same deals"
)



@dataclass
class RungResult:
    """The agent's head-to-head results against one rung (in the solo game: the rung's
    reference win rate)."""

    code: str
    version: str
    rating: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_share: float = 0.0
    share_low: float = 0.0
    share_high: float = 0.0
    mean_margin: float = 0.0
    win_rate: float | None = None  # the solo game: the rung's reference


@dataclass
class BenchmarkResult:
    """What `benchmark` measured: the rating (or solo win rate) with its 95% interval, a row per
    rung, and how many games were played now and found in the database."""

    game: str
    players: int
    agent: AgentIdentity
    seed: int
    deals: int
    games: int
    rating: float
    low: float
    high: float
    design_effect: float = 1.0
    rungs: list[RungResult] = field(default_factory=list)
    played: int = 0
    reused: int = 0
    truncated: int = 0
    db: str | None = None
    notes: list[str] = field(default_factory=list)
    protocol: str = "full"  # "full", or "adaptive, ±PRECISION"
    stopped: str = ""  # why the games stopped

    @property
    def solo(self) -> bool:
        """The solo game: a win rate against Zara, not a rating."""
        return self.players == 1

    def table(self) -> str:
        """The result as text: a title, the rating table and the head-to-head table, each with
        a line saying what its columns mean."""
        return format_benchmark(self)

    def to_json(self) -> dict[str, Any]:
        """The same numbers as the tables, as a JSON-ready dict."""
        data = asdict(self)
        data["agent"] = {**asdict(self.agent), "label": self.agent.label}
        data["scale"] = "win rate against Zara" if self.solo else RATING_LEGEND
        for key in ("rating", "low", "high"):
            data[key] = finite_or_text(data[key])
        if self.solo:
            data["win_rate"] = data.pop("rating")
        return data


def finite_or_text(value: float) -> float | str:
    """`value`, or "inf" / "-inf" where it is infinite (JSON has no infinity)."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def format_benchmark(result: BenchmarkResult) -> str:
    """The benchmark's tables; column widths fit the longest agent or rung name."""
    label = game_label(result.game, result.players)
    name = result.agent.code
    deals = f"deals {result.seed:,}-{result.seed + result.deals - 1:,}"
    lines = []
    if result.solo:
        lines.append(f"{label}: {name} (version {result.agent.version}), {result.games} games "
                     f"against Zara ({deals}; {result.protocol} protocol)")
        width = max(9, len(name), *(len(r.code) + 11 for r in result.rungs))
        header = f"{'agent':<{width}} {'games':>6} {'win %':>7} {'95% CI':>15}"
        lines += [header, "-" * len(header)]
        ci = f"[{100 * result.low:5.1f}, {100 * result.high:5.1f}]"
        lines.append(f"{name:<{width}} {result.games:6d} {100 * result.rating:7.1f} {ci:>15}")
        for rung in result.rungs:
            rate = rung.win_rate or 0.0
            low, high = wilson_interval(rate * rung.games, rung.games)
            ci = f"[{100 * low:5.1f}, {100 * high:5.1f}]"
            rung_name = f"{rung.code} (ladder)"
            lines.append(f"{rung_name:<{width}} {rung.games:6d} {100 * rate:7.1f} {ci:>15}")
        lines.append(SOLO_LEGEND)
    else:
        lines.append(f"{label}, {result.players} players: {name} (version "
                     f"{result.agent.version}), {result.games} games against the ladder "
                     f"({deals}, each from every seat, the same deals for every rung; "
                     f"{result.protocol} protocol)")
        width = max(9, len(name))
        header = f"{'agent':<{width}} {'rating':>8} {'95% interval':>18} {'games':>6}"
        interval = f"[{result.low:7.1f}, {result.high:7.1f}]"
        lines += [header, "-" * len(header),
                  f"{name:<{width}} {result.rating:8.1f} {interval:>18} {result.games:6d}",
                  RATING_LEGEND, ""]
        width = max(9, *(len(r.code) for r in result.rungs))
        header = (f"{'rung':<{width}} {'rating':>8} {'games':>6} {'wins':>6} {'draws':>6} "
                  f"{'losses':>6} {'score %':>8} {'95% CI':>15} {'mean margin':>12}")
        lines += [header, "-" * len(header)]
        for r in result.rungs:
            if not r.games:
                lines.append(f"{r.code:<{width}} {r.rating:8.1f} {0:6d}   not played: the "
                             f"games against nearer rungs placed the agent")
                continue
            ci = f"[{100 * r.share_low:5.1f}, {100 * r.share_high:5.1f}]"
            lines.append(f"{r.code:<{width}} {r.rating:8.1f} {r.games:6d} {r.wins:6d} "
                         f"{r.draws:6d} {r.losses:6d} {100 * r.score_share:8.1f} {ci:>15} "
                         f"{r.mean_margin:+12.1f}")
        lines.append(RUNG_LEGEND)
    if result.stopped:
        lines.append(f"stopped: {result.stopped}")
    if result.truncated:
        lines.append(f"({result.truncated} game(s) truncated at the step limit: ranked by the "
                     f"score so far)")
    lines += result.notes
    return "\n".join(lines)


STANDING_LEGEND = (
    "rating: Elo points on the fixed scale (+400 = odds of 10 to 1 of finishing ahead; random = "
    "0); 95% interval: the ratings the games do not rule out; games: the games that measured "
    "the rating (a rung's: its reference measurement against the rungs below it); rated by: "
    "the shipped ladder's reference measurement (scripts/reference_ladder.py, the date and "
    "commit it was measured at) or this benchmark (why it stopped)"
)


def format_ladder_standing(result: BenchmarkResult, label: str) -> str:
    """One table of the benchmarked agent (named `label`) among the ladder's rungs, highest
    rating first: the rungs' reference ratings and the agent's fitted one, on one scale."""
    from .ladder import ladder

    title = (f"{game_label(result.game, result.players)}, {result.players} players: "
             f"{result.agent.code} beside the ladder's rungs")
    rows: list[tuple[str, float, str, str, str]] = []
    for rung in ladder(result.game, result.players):
        interval = (f"[{rung.low:7.1f}, {rung.high:7.1f}]" if rung.games else "")
        when = ", ".join(x for x in (rung.date, (rung.commit or "")[:7]) if x)
        source = ("the ladder: 0 by definition" if not rung.games
                  else f"the ladder ({when})" if when else "the ladder")
        rows.append((rung.code, rung.rating, interval, str(rung.games or ""), source))
    stopped = result.stopped.split(":")[0] if result.stopped else result.protocol
    rows.append((label, result.rating, f"[{result.low:7.1f}, {result.high:7.1f}]",
                 str(result.games), f"this benchmark ({stopped})"))
    rows.sort(key=lambda row: -row[1])
    width = max(9, *(len(r[0]) for r in rows))
    header = f"{'agent':<{width}} {'rating':>8} {'95% interval':>18} {'games':>6}  rated by"
    lines = [title, header, "-" * (len(header) + 30)]
    lines += [f"{name:<{width}} {rating:8.1f} {interval:>18} {games:>6}  {source}"
              for name, rating, interval, games, source in rows]
    lines.append(STANDING_LEGEND)
    lines += result.notes
    return "\n".join(lines)


def write_json(result: BenchmarkResult, path: str | Path) -> Path:
    """Write `result.to_json()` to `path` (atomically) and return the path."""
    target = Path(path)
    write_atomic(target, json.dumps(result.to_json(), indent=2) + "\n")
    return target
