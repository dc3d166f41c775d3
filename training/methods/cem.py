"""Training of the solo game's learned value constants (`huerta.agents.value_weights`) by the
cross-entropy method: games against Zara choose the constants of the heuristic's solo value.

The solo heuristic values a position by hand-set constants (`SoloWeights`); its search is sound
(twelve of Zara's futures per turn instead of six win no more deals), its constants are guesses.
A run searches them directly, each generation:

1. **Sample** around the current mean, in search units (the constant itself, or its log for
   the positive weights of `CONSTANTS`), `cem_population - 1` candidates in mirrored pairs
   (mean +- spread x a normal draw; with an even population the last has no mirror), clipped
   to each constant's range, beside the mean itself.
2. **Play** every candidate on the same `cem_deals` fresh deals against Zara, with the same
   agent seeds (common random numbers: the candidates differ by their play, not their deals).
3. **Score** each by wins + `DUTY_SCORE` x duties met per deal: a win needs all ten duties, and
   the duties, ten a game, break ties between win counts of few deals.
4. **Select** the `cem_elite` best: the new mean is their mean; the new spread blends their
   spread with the old (half each), never below a tenth of the starting spread.
5. **Evaluate** the new mean on `eval_games` fixed deals against Zara (disjoint from the
   training deals and from the balance deals 0-199): one line and one eval.csv row per
   generation, the learning curve's point. Generation 0 evaluates the heuristic's own
   constants, where the curve starts.

The run keeps the constants of its best evaluation after generation 0 as `best_policy.npz` (the
summary line says how they compare with the heuristic's own). Why constants and not a network:
`huerta.agents.value_weights`. Every generation is a line of `cem.jsonl` (its candidates,
their scores, the new mean and spread), written once its evaluation is done; `--resume` goes on
from the last line, and the draws of a generation depend only on the run's seed and the
generation, so a resumed run makes the same choices as one never stopped.
"""

from __future__ import annotations

import datetime
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huerta.agents.value_weights import ValueWeights

from ..runs import (
    Stop,
    TrainingInterrupted,
    append_eval,
    ignore_sigint,
    read_eval,
    run_provenance,
    save_atomically,
    write_atomic,
)
from .report import rates_text

if TYPE_CHECKING:
    from ..config import TrainConfig

DUTY_SCORE = 0.05  # score per duty met, beside 1 per win (ten duties: half a win)
TRAIN_SEED_BASE = 20_000_000  # training deals: 20,000,000 + seed x SEED_STRIDE + ...
SEED_STRIDE = 10**9  # the most deals a run plays: 10,000 generations x 100,000 deals
EVAL_SEED_BASE = 10_000_000  # evaluation deals: seed + 10,000,000 + i (as the other methods)
MIN_SPREAD = 0.1  # share of the starting spread the spread never falls below
JOB_GAMES = 4  # games per job handed to a worker process
GAME = "alpujarras"
DEFAULT_GENERATIONS = 8  # TrainConfig.cem_generations when a run names none


@dataclass(frozen=True)
class Constant:
    """One constant of `SoloWeights` that a run searches: its starting spread in search units
    (the log of the constant where `log`), and its range."""

    name: str
    spread: float
    low: float
    high: float
    log: bool = False

    def to_unit(self, value: float) -> float:
        return float(np.log(value)) if self.log else float(value)

    def from_unit(self, unit: float) -> float:
        value = float(np.exp(unit)) if self.log else float(unit)
        return float(np.clip(value, self.low, self.high))


# Starting spreads: a whole duty for the window (rounded, a smaller step would not move it) and
# small steps for the rest; with every constant moved at once, wide steps mostly made the
# candidates worse (a first run's spreads twice these: its first mean won 11 of 100 deals where
# the heuristic's constants won 22).
CONSTANTS: tuple[Constant, ...] = (
    Constant("window", 1.5, 1.0, 10.0),  # duties judged by the holdings (rounded)
    Constant("hit", 0.05, 0.3, 0.95),  # chance a stop yields a wanted item
    Constant("stop_rate", 0.08, 0.1, 1.0),  # stops per standard space between later duties
    Constant("risk", 0.05, 0.4, 1.0),  # chance a lone ready token is still there
    Constant("spread", 0.25, 0.25, 16.0, log=True),  # looseness of the margin over Zara
    Constant("double_turn", 0.35, 0.05, 10.0, log=True),
    Constant("harvest_lead", 0.35, 0.05, 10.0, log=True),
    Constant("noria", 0.35, 0.03, 10.0, log=True),
    Constant("fruit", 0.35, 0.02, 10.0, log=True),
)


def start_units() -> np.ndarray:
    """The heuristic's own constants in search units: every run's first mean."""
    from huerta.agents.heuristics.alpujarras import SOLO

    return np.array([c.to_unit(getattr(SOLO, c.name)) for c in CONSTANTS])


def start_spread() -> np.ndarray:
    return np.array([c.spread for c in CONSTANTS])


def weights_of(units: Sequence[float]) -> dict[str, float]:
    """The constants (a `SoloWeights` table, rounded to 4 decimals) at `units`, each clipped to
    its range."""
    return {c.name: round(c.from_unit(u), 4) for c, u in zip(CONSTANTS, units, strict=True)}


def units_of(weights: dict[str, float]) -> np.ndarray:
    return np.array([c.to_unit(weights[c.name]) for c in CONSTANTS])


def candidates(mean: np.ndarray, spread: np.ndarray, population: int,
               rng: np.random.Generator) -> list[np.ndarray]:
    """The mean and `population - 1` samples around it in mirrored pairs (the last one alone
    when `population` is even), in search units, each clipped to its constant's range and
    mapped back, so that a candidate is what it plays."""
    pairs = population // 2
    draws = rng.standard_normal((pairs, len(mean)))
    steps = np.concatenate([draws, -draws])[:population - 1]
    out = [mean.copy()]
    for step in steps:
        out.append(units_of(weights_of(mean + spread * step)))
    return out


def select(units: list[np.ndarray], scores: Sequence[float], spread: np.ndarray, elite: int,
           floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(new mean, new spread): the mean of the `elite` best candidates (the first of equal
    scores, in order), and their spread blended half and half with the old, at least `floor`."""
    order = sorted(range(len(units)), key=lambda k: -scores[k])[:elite]
    best = np.array([units[k] for k in order])
    mean = best.mean(axis=0)
    new = np.sqrt(0.5 * spread ** 2 + 0.5 * best.var(axis=0))
    return mean, np.maximum(new, floor)


# --- playing ------------------------------------------------------------------------------------
def play_deals(weights: dict[str, float], seeds: Sequence[int],
               options: dict[str, Any]) -> tuple[int, int]:
    """(wins, duties met) of the solo heuristic with `weights` over the deals `seeds` (the agent
    seeded as `play_game` seeds seat 0: the same for every candidate)."""
    from huerta.envs.alpujarras.effects import solo_duties_met

    from ..evaluation.matches import play_game

    model = ValueWeights(weights)
    wins = duties = 0
    for seed in seeds:
        _, state = play_game(GAME, [model.agent()], seed, options=options)
        wins += int(state.won())
        duties += solo_duties_met(state)
    return wins, duties


def _play_job(job: tuple[int, dict[str, float], list[int], dict[str, Any]]
              ) -> tuple[int, int, int]:
    index, weights, seeds, options = job
    return (index, *play_deals(weights, seeds, options))


class Player:
    """Plays batches of (constants, deals) jobs over `workers` processes (or in this one); the
    sums do not depend on the number of workers. `should_stop` is asked between jobs and while
    waiting on the workers; a stop returns None and ends the workers."""

    def __init__(self, workers: int, should_stop: Callable[[], bool]) -> None:
        self.workers = max(1, workers)
        self.should_stop = should_stop
        self.pool: Any = None

    def __enter__(self) -> Player:
        if self.workers > 1:
            import multiprocessing

            self.pool = multiprocessing.get_context("spawn").Pool(
                self.workers, initializer=ignore_sigint)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def play(self, table: list[dict[str, float]], seeds: list[int],
             options: dict[str, Any]) -> list[tuple[int, int]] | None:
        """(wins, duties) of each constants table in `table` over all of `seeds`."""
        # jobs of a few games: a stop is seen within seconds, and the sums do not depend on
        # how the deals are split
        jobs = [(k, weights, seeds[p:p + JOB_GAMES], options)
                for k, weights in enumerate(table) for p in range(0, len(seeds), JOB_GAMES)]
        sums = [[0, 0] for _ in table]
        if self.pool is None:
            results: Any = map(_play_job, jobs)
        else:
            from ..chunks import results_until_stopped

            results = results_until_stopped(self.pool, _play_job, jobs, self.should_stop)
        done = 0
        for index, wins, duties in results:
            sums[index][0] += wins
            sums[index][1] += duties
            done += 1
            if self.should_stop():
                return None
        if done < len(jobs):  # the workers' results ended early: a stop
            return None
        return [(w, d) for w, d in sums]


# --- a run --------------------------------------------------------------------------------------
@dataclass
class Generation:
    """One line of cem.jsonl: a generation's candidates and scores, the mean and spread it
    leaves, its evaluation, and the training games played so far (the curve's x)."""

    generation: int
    games: int
    mean: list[float]
    spread: list[float]
    weights: dict[str, float]  # the new mean's constants (what was evaluated)
    eval_rate: float
    candidates: list[dict[str, float]]
    scores: list[float]
    wins: list[int]
    seconds: float


def read_generations(run: Path) -> list[Generation]:
    path = run / "cem.jsonl"
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                out.append(Generation(**json.loads(line)))
            except (ValueError, TypeError):
                break  # a line cut short by a kill: that generation runs again
    return out


def _write_generations(run: Path, generations: list[Generation]) -> None:
    text = "".join(json.dumps(asdict(g)) + "\n" for g in generations)
    path = run / "cem.jsonl"
    write_atomic(path, text)


def weights_path(run: Path, games: int) -> Path:
    return run / "values" / f"weights_{games:07d}.npz"


def train_deals(seed: int, generation: int, deals: int) -> list[int]:
    start = TRAIN_SEED_BASE + seed * SEED_STRIDE + (generation - 1) * deals
    return list(range(start, start + deals))


def eval_deals(seed: int, games: int) -> list[int]:
    return [seed + EVAL_SEED_BASE + i for i in range(games)]


def eval_text(generation: Generation, eval_games: int) -> str:
    """One generation as a line: its evaluation and the constants evaluated."""
    shown = ", ".join(f"{k} {v:g}" for k, v in generation.weights.items())
    where = ("the heuristic's constants" if generation.generation == 0
             else f"generation {generation.generation} ({generation.games:,} games)")
    return (f"eval of {where}: {rates_text({'zara': generation.eval_rate}, eval_games)} "
            f"({eval_games} deals); {shown}")


def train_cem(config: Any, run: Path, stop: Any) -> tuple[int, float]:
    """The cem run of `config` (a checked `TrainConfig`) in `run`, whose folder is ready: the
    generations still missing from cem.jsonl, each saved with its mean's constants
    (`values/weights_<games>.npz`) and eval.csv row once evaluated; then the best evaluation's
    constants become best_policy.npz and the curve learning_curve.png. Returns (training games
    played, seconds). A signal raises `TrainingInterrupted` keeping the finished generations."""
    started = time.monotonic()
    (run / "values").mkdir(parents=True, exist_ok=True)
    generations = read_generations(run)
    should_stop = lambda: stop.signum is not None  # noqa: E731
    floor = MIN_SPREAD * start_spread()
    options = config.game_options
    eval_seeds = eval_deals(config.seed, config.eval_games)

    def interrupted() -> TrainingInterrupted:
        done = generations[-1].generation if generations else 0
        kept = run / ("cem.jsonl" if generations else "config.json")  # nothing played yet
        return TrainingInterrupted(stop.signum, done, config.cem_generations, kept,
                                   unit="generations")

    def finish(generation: Generation) -> None:
        generations.append(generation)
        path = weights_path(run, generation.games)
        model = ValueWeights(generation.weights, {"trained": {
            "method": "cem", "seed": config.seed, "generation": generation.generation,
            "games": generation.games, "eval_vs_zara": round(generation.eval_rate, 4),
            "threads": 1, **run_provenance(run)}})
        save_atomically(path, model.save)
        append_eval(run, generation.games, {"zara": generation.eval_rate}, config.eval_games)
        _write_generations(run, generations)
        print(eval_text(generation, config.eval_games), flush=True)

    workers = min(os.cpu_count() or 1, 2 * config.cem_population)
    with Player(workers, should_stop) as player:
        if not generations:
            t0 = time.monotonic()
            weights = weights_of(start_units())
            result = player.play([weights], eval_seeds, options)
            if result is None:
                raise interrupted()
            finish(Generation(0, 0, start_units().tolist(), start_spread().tolist(), weights,
                              result[0][0] / config.eval_games, [], [], [],
                              round(time.monotonic() - t0, 1)))
        while generations[-1].generation < config.cem_generations:
            t0 = time.monotonic()
            last = generations[-1]
            g = last.generation + 1
            rng = np.random.default_rng([config.seed, g])
            units = candidates(np.array(last.mean), np.array(last.spread),
                               config.cem_population, rng)
            table = [weights_of(u) for u in units]
            played = player.play(table, train_deals(config.seed, g, config.cem_deals), options)
            if played is None:
                raise interrupted()
            scores = [(w + DUTY_SCORE * d) / config.cem_deals for w, d in played]
            mean, spread = select(units, scores, np.array(last.spread), config.cem_elite, floor)
            weights = weights_of(mean)
            result = player.play([weights], eval_seeds, options)
            if result is None:
                raise interrupted()
            finish(Generation(
                g, last.games + len(table) * config.cem_deals, mean.tolist(), spread.tolist(),
                weights, result[0][0] / config.eval_games, table,
                [round(s, 4) for s in scores], [w for w, _ in played],
                round(time.monotonic() - t0, 1)))
    best = best_generation(generations)
    model = ValueWeights.load(weights_path(run, best.games))
    model.about["trained"].update(run_facts(run, config))
    save_atomically(run / "best_policy.npz", model.save)
    try:
        from ..evaluation.plots import plot_learning_curve

        plot_learning_curve(read_eval(run), run / "learning_curve.png",
                            title="alpujarras solo: learned value constants (at 0: the "
                                  "heuristic's)",
                            x_label="training games against Zara")
    except ImportError:
        pass
    return generations[-1].games, time.monotonic() - started


def best_generation(generations: list[Generation]) -> Generation:
    """The learned generation (1 on) whose constants won the most evaluation deals, the
    earliest of equals; generation 0, the heuristic's own constants, is the curve's reference,
    never the run's result (only a run stopped before its first generation has nothing else)."""
    learned = [g for g in generations if g.generation > 0] or generations
    return max(learned, key=lambda g: (g.eval_rate, -g.generation))


def run_facts(run: Path, config: Any) -> dict[str, Any]:
    """How a cem run was trained, for its best_policy.npz: its command line, seed, settings,
    the best evaluation, the wall time (the generations' own seconds), and where it came from
    (`run_provenance`: commit and libraries). Its arithmetic is numpy's on a dozen numbers, no
    torch, no BLAS: one thread (its games' worker processes do not change the sums)."""

    generations = read_generations(run)
    flags = ""
    if config.cem_generations != DEFAULT_GENERATIONS:
        flags += f" --generations {config.cem_generations}"
    if config.threads is not None:
        flags += f" --threads {config.threads}"
    facts: dict[str, Any] = {
        "method": "cem", "command": f"huerta train alpujarras-solo --seed {config.seed}{flags} "
                                    f"--out {config.out}",
        "seed": config.seed, "threads": 1, "generations": config.cem_generations,
        "population": config.cem_population, "elite": config.cem_elite,
        "deals": config.cem_deals, "eval_games": config.eval_games,
        **run_provenance(run),
    }
    if generations:
        best = best_generation(generations)
        facts["wall_seconds"] = round(sum(g.seconds for g in generations))
        facts["finished"] = datetime.date.today().isoformat()
        facts["best_generation"] = best.generation
        facts["best_games"] = best.games
        facts["best_eval"] = {"zara": round(best.eval_rate, 4)}
        facts["heuristic_eval"] = {"zara": round(generations[0].eval_rate, 4)}
    return facts


def summary_text(run: Path, games: int, seconds: float, eval_games: int) -> str:
    """The line that ends a cem run: games, wall time, the best evaluation beside the
    heuristic's constants' own."""
    minutes, secs = divmod(round(seconds), 60)
    text = f"training done: {games:,} games against Zara, {minutes} min {secs:02d} s"
    generations = read_generations(run)
    if generations:
        best = best_generation(generations)
        text += (f"; best constants (generation {best.generation}): "
                 f"{rates_text({'zara': best.eval_rate}, eval_games)}, the heuristic's "
                 f"{rates_text({'zara': generations[0].eval_rate}, eval_games)}")
    return text


class CEM:
    """The `cem` method: the solo heuristic's value constants learned by the cross-entropy method
    (see the module docstring for what it leaves in the run folder)."""

    name = "cem"
    folders = ("values",)

    def check_resumable(self, config: TrainConfig, run: Path) -> None:
        """Any folder resumes: a cem run goes on from its last finished generation."""
        return  # a cem run goes on from its last finished generation, or from the start

    def train(self, config: TrainConfig, run: Path, stop: Stop, resume: bool) -> int:
        """Train (or go on training) in `run`; return the games it counts."""
        games, _ = train_cem(config, run, stop)
        return games

    def finish(self, config: TrainConfig, run: Path, games: int, seconds: float) -> str:
        """The line that ends the run."""
        return summary_text(run, games, seconds, config.eval_games)
