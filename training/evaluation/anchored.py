"""Anchored ratings: an Elo-scale maximum-likelihood fit with fixed anchors, and 95% intervals.

The scale is Elo's: P(A finishes ahead of B) = 1 / (1 + 10 ** ((r_B - r_A) / 400)), so 400
points are odds of 10 to 1; a tie counts half a win (Bradley-Terry with Elo units). The data are
pairwise outcomes: every two seats of a game held by different agents give one (1 for finishing
ahead by rank, 0.5 for a tie, 0 for behind), so an N-player game gives N-1 pairs per agent.

Anchors (random at 0 and the ladder's reference ratings) are fixed; the free ratings maximise the
likelihood plus a weak prior, one virtual draw between every two agents that met (once per pair
of agents, not per game), so that a 100% result stays finite: after n wins in n games the
rating is the one that makes n + 0.5 wins out of n + 1 likely. A free agent with no path of games
to an anchor has no rating (it is left out).

The 95% interval is the profile-likelihood interval (the ratings at which twice the drop in
log-likelihood, the others refitted, reaches 3.84), widened by the design effect of games that
share a deal: a deal's seat rotations, and the pairs of one multiplayer game, are not independent.
The design effect is the variance of the rating over a bootstrap that resamples whole deals
(clusters; a fixed seed, so the interval is deterministic) divided by the likelihood's own
variance, never below 1; the interval's threshold is 3.84 times it. Where every game went one way
(the bootstrap cannot vary) the likelihood interval alone stands: it is wide and lopsided, as it
should be.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

ELO = math.log(10) / 400  # Elo points -> natural log-odds
CHI2_95 = 3.841458820694124  # the 95% quantile of chi-squared with one degree of freedom
BOOTSTRAP_SAMPLES = 300
BOOTSTRAP_SEED = 20_250_517
PRIOR_DRAWS = 1.0  # virtual draws between every two agents that met
MAX_RATING_SPAN = 20_000.0  # an interval end past this distance is reported as infinite


@dataclass(frozen=True)
class FittedRating:
    """One free agent's fitted rating with its 95% interval (Elo points) and design effect."""

    rating: float
    low: float
    high: float
    design_effect: float


@dataclass
class PairTable:
    """Pairwise outcomes per cluster (deal): `score[c, i, j]` is what agent i scored against
    agent j in cluster c (1 a win, 0.5 a tie), `count[c, i, j]` how many pairs they met in."""

    score: np.ndarray
    count: np.ndarray

    @property
    def agents(self) -> int:
        """How many agents the table covers."""
        return self.score.shape[1]


def pair_outcome(rank_a: int, rank_b: int) -> float:
    """A's pairwise result against B from their ranks (0 is best): 1, 0.5 for a tie, or 0."""
    return 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0


def pair_table(
    games: Iterable[tuple[Hashable, Sequence[int], Sequence[int]]], agents: int
) -> PairTable:
    """Pairwise outcomes of `games`, each (cluster key, agent index per seat, rank per seat);
    seats of the same agent are not compared."""
    clusters: dict[Hashable, int] = {}
    cells: list[tuple[int, int, int, float]] = []
    for key, seats, ranks in games:
        c = clusters.setdefault(key, len(clusters))
        for s, a in enumerate(seats):
            for t in range(s + 1, len(seats)):
                b = seats[t]
                if a != b:
                    won = pair_outcome(ranks[s], ranks[t])
                    cells.append((c, a, b, won))
                    cells.append((c, b, a, 1.0 - won))
    score = np.zeros((max(len(clusters), 1), agents, agents))
    count = np.zeros_like(score)
    if cells:
        c, a, b, won = (np.array(column) for column in zip(*cells, strict=True))
        c, a, b = c.astype(int), a.astype(int), b.astype(int)
        np.add.at(score, (c, a, b), won)
        np.add.at(count, (c, a, b), 1.0)
    return PairTable(score, count)


def loglik(ratings: np.ndarray, score: np.ndarray, count: np.ndarray) -> float:
    """The log-likelihood of pooled outcomes (`score`, `count`: agents x agents) at `ratings`."""
    d = (ratings[:, None] - ratings[None, :]) * ELO
    return float(-np.sum(score * np.logaddexp(0.0, -d)))


def _newton(
    ratings: np.ndarray, free: np.ndarray, score: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """Maximise the (concave) log-likelihood over the `free` entries of `ratings`, the others
    held; Newton steps of at most 400 points, halved until the likelihood does not fall."""
    r = ratings.copy()
    if not free.any():
        return r
    current = loglik(r, score, count)
    for _ in range(200):
        d = (r[:, None] - r[None, :]) * ELO
        p = 1.0 / (1.0 + np.exp(-d))
        grad = ELO * np.sum(score - count * p, axis=1)
        w = count * p * (1.0 - p) * ELO * ELO
        hess = w - np.diag(np.sum(w, axis=1))
        h = hess[np.ix_(free, free)] - 1e-12 * np.eye(int(free.sum()))
        step = -np.linalg.solve(h, grad[free])
        step = np.clip(step, -400.0, 400.0)
        for _ in range(60):
            trial = r.copy()
            trial[free] += step
            value = loglik(trial, score, count)
            if value >= current - 1e-12:
                break
            step = step / 2
        r, current = trial, value
        if np.max(np.abs(step)) < 1e-7:
            break
    return r


def _information(ratings: np.ndarray, free: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The free block of the observed information (minus the Hessian) at `ratings`."""
    d = (ratings[:, None] - ratings[None, :]) * ELO
    p = 1.0 / (1.0 + np.exp(-d))
    w = count * p * (1.0 - p) * ELO * ELO
    info = np.diag(np.sum(w, axis=1)) - w
    return info[np.ix_(free, free)]


def connected_to_anchors(count: np.ndarray, anchors: Iterable[int]) -> set[int]:
    """The agents joined to an anchor by a path of games (the anchors included)."""
    met = count > 0
    seen = set(anchors)
    todo = list(seen)
    while todo:
        a = todo.pop()
        for b in np.flatnonzero(met[a]):
            if int(b) not in seen:
                seen.add(int(b))
                todo.append(int(b))
    return seen


class AnchoredFit:
    """The anchored fit of a `PairTable` (see the module docstring): `fit()` gives every free
    agent connected to an anchor its rating and 95% interval."""

    def __init__(self, table: PairTable, anchors: dict[int, float],
                 bootstrap: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED) -> None:
        if not anchors:
            raise ValueError("an anchored fit needs at least one anchor")
        self.table = table
        self.anchors = dict(anchors)
        self.bootstrap = bootstrap
        self.seed = seed
        pooled = table.count.sum(axis=0)
        reach = connected_to_anchors(pooled, self.anchors)
        self.free = np.array([a not in self.anchors and a in reach
                              for a in range(table.agents)], dtype=bool)
        # the prior: one virtual draw between every two agents that met (a free one among them)
        met = (pooled > 0) & (self.free[:, None] | self.free[None, :])
        self.prior_count = PRIOR_DRAWS * met
        self.prior_score = 0.5 * self.prior_count
        self.start = np.zeros(table.agents)
        for a, value in self.anchors.items():
            self.start[a] = value

    def _solve(self, score: np.ndarray, count: np.ndarray, free: np.ndarray,
               start: np.ndarray) -> np.ndarray:
        return _newton(start, free, score + self.prior_score, count + self.prior_count)

    def fit(self) -> dict[int, FittedRating]:
        """Every rated free agent's rating, interval and design effect, by agent index."""
        score = self.table.score.sum(axis=0)
        count = self.table.count.sum(axis=0)
        best = self._solve(score, count, self.free, self.start)
        if not self.free.any():
            return {}
        info = _information(best, self.free, count + self.prior_count)
        model_var = np.diag(np.linalg.inv(info + 1e-12 * np.eye(len(info))))
        boot_var = self._bootstrap_variance(best)
        top = loglik(best, score + self.prior_score, count + self.prior_count)
        fitted = {}
        for k, agent in enumerate(np.flatnonzero(self.free)):
            deff = max(1.0, float(boot_var[k] / model_var[k])) if model_var[k] > 0 else 1.0
            low, high = self._profile(int(agent), best, score, count, top, CHI2_95 * deff,
                                      math.sqrt(max(model_var[k], 1e-9)))
            fitted[int(agent)] = FittedRating(float(best[agent]), low, high, deff)
        return fitted

    def _bootstrap_variance(self, best: np.ndarray) -> np.ndarray:
        """The variance of each free rating over fits to resampled deals (clusters)."""
        clusters = self.table.score.shape[0]
        if clusters < 2 or self.bootstrap < 2:
            return np.zeros(int(self.free.sum()))
        rng = np.random.default_rng(self.seed)
        samples = []
        for _ in range(self.bootstrap):
            weights = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters))
            score = np.tensordot(weights, self.table.score, axes=1)
            count = np.tensordot(weights, self.table.count, axes=1)
            samples.append(self._solve(score, count, self.free, best)[self.free])
        return np.var(np.array(samples), axis=0, ddof=1)

    def _profile(self, agent: int, best: np.ndarray, score: np.ndarray, count: np.ndarray,
                 top: float, threshold: float, scale: float) -> tuple[float, float]:
        """Where twice the profile log-likelihood's drop reaches `threshold`, on each side."""
        held = self.free.copy()
        held[agent] = False
        prior_score, prior_count = score + self.prior_score, count + self.prior_count

        def drop(value: float) -> float:
            start = best.copy()
            start[agent] = value
            fitted = _newton(start, held, prior_score, prior_count)
            return 2.0 * (top - loglik(fitted, prior_score, prior_count))

        ends = []
        for sign in (-1.0, 1.0):
            inside, step = 0.0, max(scale, 1.0)
            while drop(best[agent] + sign * step) < threshold:
                inside, step = step, 2 * step
                if step > MAX_RATING_SPAN:
                    break
            if step > MAX_RATING_SPAN:
                ends.append(sign * math.inf)
                continue
            outside = step
            while outside - inside > 0.01:
                middle = (inside + outside) / 2
                if drop(best[agent] + sign * middle) < threshold:
                    inside = middle
                else:
                    outside = middle
            ends.append(float(best[agent] + sign * (inside + outside) / 2))
        return ends[0], ends[1]
