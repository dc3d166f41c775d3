"""Where an agent stands on the ladder, in as few games as its interval needs.

The adaptive benchmark (`huerta benchmark`'s default; `--full` plays the fixed protocol) plays
in stages of `STAGE_DEALS` deals, each deal once from every seat, against one rung at a time:

1. the first stage goes to the cheapest rung, the lowest (random);
2. after every stage the anchored fit of all games so far gives the rating and its 95%
   interval, and the benchmark stops when
   - the interval is narrower than ±`precision` Elo (default `DEFAULT_PRECISION`): placed;
   - the whole interval lies below the lowest rung or above the highest, after at least
     `MIN_END_GAMES` games against that rung: off the ladder, which can only bound it (more
     games there would narrow an interval the ladder has no rung to place);
   - every rung's share of games (the full protocol's) is used up: the interval stays wider;
3. otherwise the next stage goes to the rung whose games say most about the rating: the one
   whose reference rating is nearest the current estimate (a game's information, p(1 - p), is
   largest at even odds), the lower (cheaper) on a tie, the next nearest once a rung's share is
   used up, but never one more than `FAR_RUNG` Elo outside the interval unless it is a
   neighbour of the rating (the nearest rung below or above it on the ladder): beyond the
   neighbours the result is all but certain (p(1 - p) under 0.09) and a game against the
   search rung costs seconds.
   When only such rungs have games left the benchmark stops with the interval it has. A rung
   far above or below is so never played: 20 straight losses to random place a policy without
   one slow game against the search rung, and a policy that beats random but never the
   heuristic is not sent on to the rungs above the heuristic.

Decisions read finished stages only, so which games are played, and the rating, depend neither
on the number of workers nor on the order games end; a rerun with a database walks the same
stages and reuses its games. The solo game has no rungs to choose: it plays stages of deals
against Zara until the Wilson interval of the win rate is narrower than ±`SOLO_PRECISION`, or
the published deals run out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

DEFAULT_PRECISION = 75.0  # Elo points: the 95% interval's half-width that places an agent
SOLO_PRECISION = 0.05  # the solo game: the win rate's 95% interval half-width
STAGE_DEALS = 4  # deals per stage (each from every seat)
MIN_END_GAMES = 64  # games against the lowest or highest rung before calling an agent off it
FAR_RUNG = 400.0  # Elo points outside the interval beyond which a rung's games say too little


@dataclass(frozen=True)
class Estimate:
    """The rating after a stage: Elo points with the 95% interval."""

    rating: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the interval's width (infinite when an end is)."""
        return (self.high - self.low) / 2


@dataclass
class Placement:
    """The adaptive schedule of one benchmark: `ratings` are the rungs' reference ratings in
    ladder order, `max_deals` the deals each rung may get (the full protocol's), `players` the
    seats; `stages` records (rung, first deal, deals) as they are chosen and `stopped` why it
    ended."""

    ratings: Sequence[float]
    max_deals: int
    players: int
    precision: float = DEFAULT_PRECISION
    stage_deals: int = STAGE_DEALS
    deals: list[int] = field(default_factory=list)
    stages: list[tuple[int, int, int]] = field(default_factory=list)
    stopped: str | None = None

    def __post_init__(self) -> None:
        if not self.ratings:
            raise ValueError("a placement needs at least one rung")
        if not (math.isfinite(self.precision) and self.precision > 0):
            raise ValueError(f"precision must be a positive number of Elo points, got "
                             f"{self.precision!r}")
        self.deals = [0] * len(self.ratings)

    def next_stage(self, estimate: Estimate | None) -> tuple[int, int, int] | None:
        """The next stage as (rung index, first deal, deals), or None when the benchmark
        stops (`stopped` says why); `estimate` is the fit after the stages so far (None before
        the first)."""
        if estimate is not None:
            self.stopped = self._stop(estimate)
            if self.stopped:
                return None
        rung = self._nearest(estimate)
        if rung is None:
            games = self.max_deals * self.players
            wide = f"the interval is ±{_width(estimate)}, wider than ±{self.precision:g}"
            if any(d < self.max_deals for d in self.deals):
                self.stopped = (f"the rungs near the rating (its neighbours on the ladder and "
                                f"those within {FAR_RUNG:.0f} Elo of the interval) have played "
                                f"their {games} games each; {wide} (the others are too far to "
                                f"narrow it)")
            else:
                self.stopped = f"every rung's {games} games played; {wide}"
            return None
        first = self.deals[rung]
        count = min(self.stage_deals, self.max_deals - first)
        self.deals[rung] += count
        self.stages.append((rung, first, count))
        return rung, first, count

    def _stop(self, estimate: Estimate) -> str | None:
        """Why the benchmark stops after `estimate`, or None to go on."""
        if estimate.half_width <= self.precision:
            return f"placed: the 95% interval is ±{_width(estimate)} (target ±{self.precision:g})"
        low_rung, high_rung = 0, len(self.ratings) - 1
        end_games = self.players * self.deals[low_rung]
        if estimate.high < self.ratings[low_rung] and end_games >= MIN_END_GAMES:
            return (f"below the ladder: the whole interval is under its lowest rung's "
                    f"{self.ratings[low_rung]:.0f} after {end_games} games against it")
        end_games = self.players * self.deals[high_rung]
        if estimate.low > self.ratings[high_rung] and end_games >= MIN_END_GAMES:
            return (f"above the ladder: the whole interval is over its highest rung's "
                    f"{self.ratings[high_rung]:.0f} after {end_games} games against it")
        return None

    def _informative(self, rung: int, estimate: Estimate) -> bool:
        """Whether a game against `rung` can still move the estimate: the rung lies within
        `FAR_RUNG` of the interval, or it is a neighbour of the rating on the ladder (the
        highest rung at or below it, the lowest at or above it: the nearest games on either
        side, and the end rung that decides "off the ladder")."""
        rating = self.ratings[rung]
        if _outside(rating, estimate) <= FAR_RUNG:
            return True
        below = [r for r in self.ratings if r <= estimate.rating]
        above = [r for r in self.ratings if r >= estimate.rating]
        return (bool(below) and rating == max(below)) or (bool(above) and rating == min(above))

    def _nearest(self, estimate: Estimate | None) -> int | None:
        """The rung with games left whose rating is nearest the estimate (the lowest first
        when there is none yet; the lower on a tie), among those whose games still say
        something (`_informative`); None when there is none."""
        open_rungs = [r for r in range(len(self.ratings)) if self.deals[r] < self.max_deals]
        if estimate is None:
            return min(open_rungs, key=lambda r: (self.ratings[r], r)) if open_rungs else None
        open_rungs = [r for r in open_rungs if self._informative(r, estimate)]
        if not open_rungs:
            return None
        return min(open_rungs,
                   key=lambda r: (abs(self.ratings[r] - estimate.rating), self.ratings[r], r))


def solo_stop(wins: int, deals: int, max_deals: int,
              interval: Callable[[float, int], tuple[float, float]],
              precision: float = SOLO_PRECISION) -> str | None:
    """Why a solo benchmark stops after `wins` of `deals` (`interval` the Wilson interval), or
    None to play another stage."""
    if deals >= max_deals:
        return f"all {max_deals} published deals played"
    if deals == 0:
        return None
    low, high = interval(wins, deals)
    if (high - low) / 2 <= precision:
        return (f"placed: the 95% interval of the win rate is ±{100 * (high - low) / 2:.1f} "
                f"points (target ±{100 * precision:g})")
    return None


def _outside(rating: float, estimate: Estimate) -> float:
    """How far `rating` lies outside the estimate's interval (0 inside it)."""
    return max(estimate.low - rating, rating - estimate.high, 0.0)


def _width(estimate: Estimate | None) -> str:
    """An interval's half-width for a message."""
    if estimate is None or not math.isfinite(estimate.half_width):
        return "unbounded"
    return f"{estimate.half_width:.0f}"
