"""Speed and memory benchmark: huerta's games under random legal play, beside connect_four_v3.

Every environment is driven by the same loop (`env.last()`, a uniformly random unmasked action,
`env.step`), so the figures compare like with like on the same machine in the same run. The engine
alone is timed with the same sampler on `state.legal_mask()` / `state.apply()`.

Each `env()` row runs in a fresh Python process (connect_four_v3's too), which reports its peak
resident set size ("RSS MiB": the whole process, interpreter and numpy included, after playing
that game for the row's seconds; Linux's VmHWM, `ru_maxrss` elsewhere) and how far the peak
during the timed play rose above the resident size before it ("+play": what caches filled while
playing; on Linux the peak is restarted for the play, elsewhere the end size is used). A fresh
process per row keeps one game's memory out of another's figures and gives every row the same
cold start. The "peak KiB" column (tracemalloc, skipped
with `memory=False`) is the Python memory of making an env and playing three games, in this
process.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
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
    peak_kib: float | None = None  # tracemalloc peak of making an env and playing 3 games
    rss_mib: float | None = None  # peak RSS of a fresh process that played this row
    rss_play_mib: float | None = None  # how much of it the play added (peak - RSS before)


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
    """PettingZoo's connect_four_v3 env maker, from PettingZoo's registry (the module import is
    deprecated), or None when it cannot be made (pygame missing)."""
    import pettingzoo

    try:
        pettingzoo.make("aec", "classic/connect_four-v3")
    except ImportError:
        return None
    return functools.partial(pettingzoo.make, "aec", "classic/connect_four-v3")


C4 = "connect_four_v3"


def _proc_status_kib(field: str) -> float | None:
    """A memory figure of this process from Linux's /proc/self/status ("VmHWM", "VmRSS"), KiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return float(line.split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return None


def peak_rss_kib() -> float | None:
    """This process's peak resident set size, in KiB: Linux's VmHWM, elsewhere `ru_maxrss`
    (None where neither exists). On Linux `ru_maxrss` is not used: after `exec` it starts from
    the parent's peak, so a small child of a large process would report the parent's size."""
    peak = _proc_status_kib("VmHWM")
    if peak is not None:
        return peak
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform == "darwin" else float(peak)  # bytes on macOS


def current_rss_kib() -> float | None:
    """This process's resident set size now, in KiB (Linux; None elsewhere)."""
    return _proc_status_kib("VmRSS")


def _reset_peak_rss() -> bool:
    """Start the peak (VmHWM) again from the present size (Linux 4.0+); False if impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def env_maker(game: str, players: int) -> Callable[[], object]:
    """A factory of fresh AEC environments of `game` at `players` seats (Connect Four:
    PettingZoo's), the same for every measurement."""
    if game == C4:
        maker = connect_four_factory()
        if maker is None:
            raise ImportError("pettingzoo.classic.connect_four_v3 cannot be imported")
        return maker
    from huerta.envs.core.aec import BoardGameAEC
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    return lambda: BoardGameAEC(spec, players)


def child_measure(game: str, players: int, seconds: float) -> dict[str, float | None]:
    """The `env()` row, as run in a fresh process: steps, games and time of `run_aec`, the
    process's peak RSS, and how far the peak during the timed play rose above the resident size
    before it (after the imports, the env and one game played to warm up the code paths)."""
    make = env_maker(game, players)
    run_aec_games(make, 1, seed=10**6)
    setup_peak = peak_rss_kib()
    reset = _reset_peak_rss()
    before = current_rss_kib()
    steps, games, dt = run_aec(make, seconds)
    play_peak = peak_rss_kib() if reset else current_rss_kib()
    peaks = [p for p in (setup_peak, play_peak) if p is not None]
    return {
        "steps": steps, "games": games, "seconds": dt,
        "rss_peak_kib": max(peaks) if peaks else None,
        "rss_play_kib": play_peak - before if play_peak is not None and before is not None
        else None,
    }


def _child_main(argv: Sequence[str]) -> None:
    game, players, seconds = argv
    print(json.dumps(child_measure(game, int(players), float(seconds))))


def measure_in_fresh_process(game: str, players: int, seconds: float) -> dict[str, float | None]:
    """`child_measure` in a new Python process (the same interpreter), so that its peak RSS is
    this game's alone."""
    code = "import sys; from huerta.training.bench import _child_main; _child_main(sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", code, game, str(players), str(seconds)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench of {game} ({players} players) failed: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _env_row(
    name: str, players: int, seconds: float, fresh: bool, memory: bool, label: str | None = None
) -> BenchResult:
    make = env_maker(name, players)
    if fresh:
        m = measure_in_fresh_process(name, players, seconds)
        steps, n_games, dt = m["steps"], m["games"], m["seconds"]
        peak, grew = m["rss_peak_kib"], m["rss_play_kib"]
        rss = peak / 1024 if peak is not None else None
        grew = grew / 1024 if grew is not None else None
    else:
        steps, n_games, dt = run_aec(make, seconds)
        rss = grew = None
    traced = peak_memory_kib(make) if memory else None
    return BenchResult(label or name, players, "env()", steps / dt, n_games / dt, traced, rss,
                       grew)


def bench_rows(
    games: Sequence[str], players: Sequence[int] | None = None
) -> list[tuple[str, int]]:
    """The (game, player count) rows to measure, in order, each once. A game name stands for
    its own counts (alpujarras: 2, 3, 4), a variant for its count (alpujarras-solo: 1); with
    `players` a game stands for every count it supports among them (`alpujarras` with
    `players=(1,)` is the solo game)."""
    from huerta.envs.core.registry import own_player_counts, resolve_game

    rows: list[tuple[str, int]] = []
    for name in games:
        spec, fixed = resolve_game(name)
        if fixed is not None:
            counts: Sequence[int] = (fixed,)
        else:
            counts = spec.player_counts if players else own_player_counts(spec.name)
        for n in counts:
            if (players is None or n in players) and (spec.name, n) not in rows:
                rows.append((spec.name, n))
    return rows


def benchmark(
    games: tuple[str, ...] = ("finca",),
    players: tuple[int, ...] | None = None,
    seconds: float = 2.0,
    memory: bool = True,
    fresh: bool = True,
    on_row: Callable[[BenchResult], None] | None = None,
) -> list[BenchResult]:
    """Run every measurement; connect_four_v3 first so the ratio uses the same machine state.
    `games` are game or variant names, expanded by `bench_rows` (`players=None`: each name's
    own counts; the solo game's rows are labelled alpujarras-solo). `fresh` runs every `env()`
    row in its own process and reports its peak RSS; `memory` adds the tracemalloc pass.
    `on_row` is called with every row as it finishes."""
    from huerta.envs.core.registry import game_label

    results: list[BenchResult] = []

    def add(row: BenchResult) -> None:
        results.append(row)
        if on_row is not None:
            on_row(row)

    if connect_four_factory() is not None:
        add(_env_row(C4, 2, seconds, fresh, memory))
    for game, n in bench_rows(games, players):
        label = game_label(game, n)
        steps, n_games, dt = run_engine(game, n, seconds)
        add(BenchResult(label, n, "engine", steps / dt, n_games / dt))
        add(_env_row(game, n, seconds, fresh, memory, label=label))
    return results


TABLE_LEGEND = (
    "x c4: env() steps/s over connect_four_v3's in this run; peak KiB: tracemalloc peak "
    "while playing; RSS MiB: peak resident size of the fresh process that ran the row; "
    "+play: what the timed play added to it"
)


def table_header() -> str:
    """The table's header and rule (two lines)."""
    header = (
        f"{'environment':<16} {'players':>7} {'mode':<7} {'steps/s':>10} {'games/s':>9} "
        f"{'x c4':>6} {'peak KiB':>9} {'RSS MiB':>8} {'+play':>6}"
    )
    return header + "\n" + "-" * len(header)


def format_row(r: BenchResult, base: float | None) -> str:
    """One row of the table; `base` is connect_four_v3's env() steps/s (None: no ratio)."""
    ratio = f"{r.steps_per_s / base:6.2f}" if base and r.mode == "env()" else "     -"
    peak = f"{r.peak_kib:9.0f}" if r.peak_kib is not None else "        -"
    rss = f"{r.rss_mib:8.1f}" if r.rss_mib is not None else "       -"
    grew = f"{r.rss_play_mib:6.1f}" if r.rss_play_mib is not None else "     -"
    return (
        f"{r.name:<16} {r.players or '-':>7} {r.mode:<7} {r.steps_per_s:10.0f} "
        f"{r.games_per_s:9.1f} {ratio} {peak} {rss} {grew}"
    )


def format_table(results: list[BenchResult]) -> str:
    """A fixed-width table with the ratio of each env() row to connect_four_v3, the tracemalloc
    peak and the fresh process's peak RSS (with what the play added to it)."""
    base = next((r.steps_per_s for r in results if r.name == C4), None)
    lines = [table_header(), *(format_row(r, base) for r in results), TABLE_LEGEND]
    return "\n".join(lines)
