"""Speed and memory benchmark: huerta's games under random legal play, beside connect_four_v3.

Every environment is driven by the same loop (`env.last()`, a uniformly random unmasked action,
`env.step`), so the figures compare like with like on the same machine in the same run. The engine
alone is timed with the same sampler on `state.legal_mask()` / `state.apply()`.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass
class BenchResult:
    """One row of the benchmark table."""

    name: str
    players: int | None
    mode: str
    steps_per_s: float
    games_per_s: float
    peak_kib: float | None = None


def _pick(mask: np.ndarray, rand: random.Random) -> int:
    """A uniformly random legal action: the harness's share of a step, kept small (nonzero on
    the 1-d mask is about a third of flatnonzero's cost) so the figures measure the env."""
    legal = mask.nonzero()[0]
    return int(legal[int(rand.random() * len(legal))])


def run_aec(
    make_env: Callable[[], object], seconds: float, seed: int = 0
) -> tuple[int, int, float]:
    """Play random games through an AEC env for about `seconds`; return steps, games, time."""
    env = make_env()
    rand = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(_pick(obs["action_mask"], rand))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def run_engine(game: str, players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random games on the bare engine (no observation) for about `seconds`."""
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    rand = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = spec.new_game(players, seed=seed + games)
        while not state.is_terminal and state.steps < spec.default_max_steps:
            state.apply(_pick(state.legal_mask(), rand))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def peak_memory_kib(make_env: Callable[[], object], games: int = 3) -> float:
    """Peak Python memory (tracemalloc) of making an env and playing `games` random games."""
    tracemalloc.start()
    try:
        run_aec_games(make_env, games)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1024


def run_aec_games(make_env: Callable[[], object], games: int, seed: int = 0) -> None:
    env = make_env()
    rand = random.Random(seed)
    for g in range(games):
        env.reset(seed=seed + g)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else _pick(obs["action_mask"], rand))


def connect_four_factory() -> Callable[[], object] | None:
    """PettingZoo's connect_four_v3 env maker, or None when it cannot be imported (pygame)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    return connect_four_v3.env


def benchmark(
    games: tuple[str, ...] = ("finca",),
    players: tuple[int, ...] | None = None,
    seconds: float = 2.0,
    memory: bool = True,
) -> list[BenchResult]:
    """Run every measurement; connect_four_v3 first so the ratio uses the same machine state.
    `players=None` measures every player count each game supports."""
    from huerta.envs.core.aec import BoardGameAEC
    from huerta.envs.core.registry import get_game

    results: list[BenchResult] = []
    c4 = connect_four_factory()
    if c4 is not None:
        steps, n_games, dt = run_aec(c4, seconds)
        peak = peak_memory_kib(c4) if memory else None
        results.append(BenchResult("connect_four_v3", 2, "env()", steps / dt, n_games / dt, peak))
    for game in games:
        spec = get_game(game)
        for n in players or spec.player_counts:
            if n not in spec.player_counts:
                continue
            steps, n_games, dt = run_engine(game, n, seconds)
            results.append(BenchResult(game, n, "engine", steps / dt, n_games / dt))

            def make(spec=spec, n=n):
                return BoardGameAEC(spec, n)

            steps, n_games, dt = run_aec(make, seconds)
            peak = peak_memory_kib(make) if memory else None
            results.append(BenchResult(game, n, "env()", steps / dt, n_games / dt, peak))
    return results


def format_table(results: list[BenchResult]) -> str:
    """A fixed-width table with the ratio of each env() row to connect_four_v3."""
    base = next((r.steps_per_s for r in results if r.name == "connect_four_v3"), None)
    header = (
        f"{'environment':<16} {'players':>7} {'mode':<7} {'steps/s':>10} {'games/s':>9} "
        f"{'x c4':>6} {'peak KiB':>9}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        ratio = f"{r.steps_per_s / base:6.2f}" if base and r.mode == "env()" else "     -"
        peak = f"{r.peak_kib:9.0f}" if r.peak_kib is not None else "        -"
        lines.append(
            f"{r.name:<16} {r.players or '-':>7} {r.mode:<7} {r.steps_per_s:10.0f} "
            f"{r.games_per_s:9.1f} {ratio} {peak}"
        )
    return "\n".join(lines)
