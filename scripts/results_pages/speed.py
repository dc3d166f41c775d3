"""The speed page: environment steps per second beside PettingZoo's connect four, instruction
counts of a change, the training loop's speed and the README's main job, and the history of
earlier speed work."""

from __future__ import annotations

from . import measurements, parsers
from .formats import interval, number
from .model import Agent, Code, Measurement, Page, Record, Table
from .render import duration

GAMES = ("finca", "alpujarras", "mi_tierra")
TRAINED = ("finca", "alpujarras", "alpujarras-solo", "mi_tierra")
# the change whose instructions were counted (issue 16), against the code before it
INSTRUCTION_ROWS = (("finca", 2, 3), ("finca", 3, 2), ("finca", 4, 2), ("alpujarras", 2, 40),
                    ("alpujarras", 3, 30), ("alpujarras", 4, 30), ("alpujarras", 1, 100),
                    ("mi_tierra", 2, 8), ("mi_tierra", 3, 6), ("mi_tierra", 4, 4))
OLD = "6990285"


def _env_code(label: str, modules: tuple[str, ...]) -> tuple[Code, ...]:
    return tuple(Code(f"{label} ({game})", game, modules=modules) for game in GAMES)


MEASUREMENTS = (
    Measurement("env-speed", "steps and games per second under random legal play, each game "
                "and player count, beside connect four; peak memory",
                (f"huerta bench --seconds 3 --json {parsers.JSON_OUT}",), parsers.bench,
                _env_code("huerta bench", ("huerta.training.bench", "huerta.envs.core.aec"))),
    Measurement("instructions", f"instructions a pass of fixed random games, the code against "
                f"{OLD} (before the rules reported what they changed, issue 16)",
                (*(f"python scripts/instructions.py --old {OLD} --game {g} --players {n} "
                   f"--games {k}" for g, n, k in INSTRUCTION_ROWS),
                 f"python scripts/instructions.py --old {OLD} --game mi_tierra --players 2 "
                 "--games 8 --engine"),
                parsers.instructions,
                tuple(Code(f"scripts/instructions.py and the env ({game})", game,
                           modules=("huerta.envs.core.aec",),
                           scripts=("scripts/instructions.py",)) for game in GAMES),
                dear="valgrind's callgrind, old and new code: an hour or more"),
    Measurement("train-speed", "the training loop of `huerta train` per game: learner steps "
                "per second and where the time goes",
                (f"huerta bench --train --game {' '.join(TRAINED)} --json {parsers.JSON_OUT}",),
                parsers.bench,
                tuple(Code(f"huerta bench --train ({game})", game,
                           modules=("huerta.training.train_bench",)) for game in GAMES)),
    Measurement("main-job", "`huerta main`, the main job of `make run`: each game trained "
                "briefly with its own method, the trained agent benchmarked against the ladder",
                ("huerta main",), parsers.main_job,
                tuple(Code(f"huerta main ({game})", game,
                           modules=("huerta.training.cli.main_job",),
                           files=("training/evaluation/ladder.json",)) for game in GAMES)),
    measurements.script(
        "make-run", "scripts/time_make_run.py", "",
        "`make run` from a fresh clone: the set-up (a fresh virtual environment, CPU torch, "
        "the project and its train extra; pip's download cache warm) and the main job",
        measures=tuple(Code(f"make run ({game})", game,
                            modules=("huerta.training.cli.main_job",),
                            files=("Makefile", "pyproject.toml",
                                   "training/evaluation/ladder.json")) for game in GAMES),
        games=GAMES),
    measurements.script(
        "benchmark-cost", "scripts/benchmark_cost.py", "--workers 2",
        "what `huerta benchmark` costs: a first-legal-action policy and the heuristic rated by "
        "the default (adaptive) protocol, timed, beside the full protocol's rating",
        measures=(*(Agent(code, game) for game in GAMES for code in
                    ("random", "heuristic", "learned", "search")),
                  *(Code(f"the benchmark's games, counts and ladder ({game})", game,
                         modules=measurements.PLAYS,
                         files=(*measurements.BENCHMARK_FILES, measurements.LADDER_FILE))
                    for game in GAMES)),
        games=GAMES),
)


def env_rows(record: Record) -> list[list[str]]:
    rows = record["figures"]["rows"]
    c4 = next((r["steps_per_s"] for r in rows
               if r["name"] == "connect_four_v3" and r["mode"] == "env()"), None)
    out = []
    for r in rows:
        ratio = f"{r['steps_per_s'] / c4:.2f}" if c4 and r["mode"] == "env()" else "-"
        out.append([r["name"], str(r["players"]), r["mode"], number(r["steps_per_s"], 0),
                    number(r["games_per_s"], 1), ratio, number(r.get("rss_mib")),
                    number(r.get("rss_play_mib"))])
    return out


def instruction_rows(record: Record) -> list[list[str]]:
    return [[r["game"], str(r["players"]), r["mode"], str(r["games"]), f"{r['old']:,}",
             f"{r['new']:,}", f"{100 * (r['new'] / r['old'] - 1):+.2f}%"]
            for r in record["figures"]["rows"]]


def train_rows(record: Record) -> list[list[str]]:
    return [[r["name"], str(r["players"]), number(r["steps_per_s"], 0), f"{r['env']:.0%}",
             f"{r['opponents']:.0%}", f"{r['rollout_net']:.0%}", f"{r['update']:.0%}",
             number(r["random_play"], 0)] for r in record["figures"]["rows"]]


def main_rows(record: Record) -> list[list[str]]:
    time = duration(record["wall_s"])
    return [[time if i == 0 else "", g["game"], f"{g['rating']:.0f}",
             interval(g["low"], g["high"], 1, 0), str(g["games"])]
            for i, g in enumerate(record["figures"]["games"])]


# what pip prints of a machine's own configuration (an index folder it was told to read that
# does not exist there), not of this project's packaging
PIP_CONFIG_NOTE = "WARNING: Location '"


def make_run_rows(record: Record) -> list[list[str]]:
    f = record["figures"]
    ours = [line for line in f["setup_printed"] if not line.startswith(PIP_CONFIG_NOTE)]
    return [[duration(f["setup_seconds"]), duration(f["main_job_seconds"]),
             duration(f["total_seconds"]),
             f"{len(ours)} (+{len(f['setup_printed']) - len(ours)} of pip's configuration)",
             " ".join(f"{x:.1f}" for x in f["load"])]]


def benchmark_cost_rows(record: Record) -> list[list[str]]:
    rows = []
    for r in record["figures"]["rows"]:
        a, f = r["adaptive"], r["full"]
        agent = "first legal" if r["agent"].endswith("first_legal") else r["agent"]
        rows.append([r["game"], agent, f"{a['rating']:.0f}", interval(a["low"], a["high"], 1, 0),
                     str(a["games"]), duration(a["wall_seconds"]), duration(a["cpu_seconds"]),
                     f"{f['rating']:.0f}", interval(f["low"], f["high"], 1, 0), str(f["games"]),
                     "yes" if r["covers"] else "**no**", "yes" if r["inside"] else "no"])
    return rows


PARTS = (
    "# Results: speed",
    "Timings come from the machine that ran them, usually two cores shared with other work, "
    "so a timing says what a run cost there and has no interval; the load average beside each "
    "says how busy the machine was. Compare rows of one run with each other (a ratio within "
    "one run), not runs with runs. How two versions of the code compare is measured in "
    "instructions instead, which do not drift. How each is measured is on the "
    "[speed](../speed.md) page; see also [how to read a figure](index.md#how-to-read-a-figure).",
    "## Environment steps",
    "One run of `huerta bench` over every game and player count (the solo game as "
    "`alpujarras-solo`), random legal play, 3 s a row:",
    Table((("environment", "the game, or PettingZoo's connect_four_v3"),
           ("players", "seats"), ("mode", "engine: the bare engine; env(): the AEC env"),
           ("steps/s", "steps per second"), ("games/s", "games per second"),
           ("x c4", "env() steps/s over connect four's, this run"),
           ("RSS MiB", "peak resident size of the fresh process that ran the row"),
           ("+play", "what the timed play added to it")),
          ("env-speed",), env_rows),
    "## Instruction counts",
    "Taking the rules apart from the speed layer (issue 16: the rules report what they changed, "
    f"the observation alone writes it), against the code before it (`{OLD}`): one pass over "
    "fixed random games, counted under valgrind's callgrind (repeated counts agree within "
    "0.01%). The solo row is the 1-player game; the last row is the bare engine "
    "(`--engine`).",
    Table((("game", "the game"), ("players", "seats"), ("mode", "env() or the bare engine"),
           ("games a pass", "fixed random games per pass"),
           ("old instructions", f"instructions a pass, the code at `{OLD}`"),
           ("new instructions", "the same, the code measured"),
           ("change", "new over old")),
          ("instructions",), instruction_rows),
    "## The training loop",
    "`huerta bench --train`: the loop `huerta train` runs with its default settings, about "
    "30 s a game (the pool holds the untrained learner, so every opponent kind is drawn at its "
    "default weight):",
    Table((("game", "the game"), ("players", "seats"),
           ("train steps/s", "the learner's steps per second of the whole loop"),
           ("env", "share of its wall time in the games' transitions"),
           ("opponents", "share choosing the opponents' moves"),
           ("rollout net", "share in the learner's forward pass and bookkeeping"),
           ("update", "share in the PPO update"),
           ("random play", "env() steps/s under random legal play, the same run")),
          ("train-speed",), train_rows),
    "## The main job",
    "`huerta main`, what `make run` runs after its set-up: each game trained briefly with its "
    "own method, then the trained agent benchmarked against the ladder (stopping at ±150 Elo):",
    Table((("time", "wall time of the whole job, every game"), ("game", "the game, 2 players"),
           ("rating", "the briefly trained agent's rating on the fixed scale (Elo, random = 0)"),
           ("95% interval", "the rating's profile-likelihood interval"),
           ("games", "benchmark games it took")),
          ("main-job",), main_rows),
    "## `make run` from a fresh clone",
    "`python scripts/time_make_run.py` clones the committed code into a temporary folder and "
    "runs what a new user runs: the set-up of `make run`, then `make run` (the main job). "
    "pip's download cache was warm (the wheels already fetched once on this machine):",
    Table((("set-up", "a fresh .venv with CPU torch, the project and its train extra"),
           ("main job", "`huerta main`, as `make run` runs it"),
           ("together", "what `make run` costs a new user"),
           ("printed", "lines the set-up printed besides make's own commands (warnings of our "
                       "packaging would show here); in brackets pip's notes that an index "
                       "folder this machine's pip configuration names does not exist"),
           ("load", "the machine's load average (1, 5, 15 minutes) at the end")),
          ("make-run",), make_run_rows),
    "## What a benchmark costs",
    "`scripts/benchmark_cost.py` rates a first-legal-action policy (the degenerate policy of "
    "issue 38) and the heuristic in every game, 2 players, with `huerta benchmark`'s default "
    "protocol (stages against the nearest rung until the 95% interval is within ±75 Elo, "
    "[how many games](../benchmark.md#how-many-games)), timed, then with the full protocol "
    "(`--full`, 200 games against each rung the adaptive run played, and random and the "
    "heuristic). An interval of ±75 holds the rating a longer measurement finds 95 times in "
    "100; the adaptive rating itself lies inside the narrower full interval only when the two "
    "happen to agree within its width.",
    Table((("game", "the game, 2 players"), ("agent", "the agent rated"),
           ("adaptive", "its rating by the default protocol (Elo, random = 0)"),
           ("95% interval", "that rating's interval"),
           ("games", "games the default protocol played"),
           ("wall", "wall time of the default protocol, 2 workers"),
           ("CPU", "CPU time of the benchmark and its workers"),
           ("full", "the rating by the full protocol"), ("full interval", "its interval"),
           ("full games", "games the full protocol played"),
           ("covers", "the adaptive interval holds the full rating"),
           ("inside", "the adaptive rating lies in the full interval")),
          ("benchmark-cost",), benchmark_cost_rows),
)

HISTORY = '''## History

Recorded before these pages were generated, with the commit of the day and no versions; none
was measured again:

- **Run-to-run spread** (`9ac6a98`, 2026-12-02): on busier hours of one day the same code gave
  connect four 12,412 and 11,580 steps/s where a quieter run gave 17,373; repeated runs on busy
  hours were 10-20% apart, on a quiet machine about 3%. A solo game's `reset()` cost about
  46 µs (`6bf16fd`, 2026-11-29).
- **Earlier speed-ups** (`a4bc92b` and `215f35d`, 2026-12-01; old and new code run alternately
  on a quieter day, no command recorded beyond `huerta bench`): Mi Tierra's `env()` 10-11%
  faster, Finca's 11-15%. Of a Mi Tierra step, about 45% was then the engine's share of the
  round, 30% the observation, the rest the AEC loop, the mask and the random pick (a profile,
  no command recorded).
- **Memory** (`215f35d`, 2026-12-01): Mi Tierra's shared table of legal-action masks, bounded to
  two generations of 16,384 masks (about 21 MB per process), used to grow to about 120 MB; 20 s
  of random play peaked at 69 MiB (+19 for play), Finca and Alpujarras at 51-53 MiB (+2-3).
  Training runs' memory stays flat: the default runs peaked at 0.43 (Finca) to 0.51 GB
  (Alpujarras), where an older snapshot pool grew a 1.2-million-step Mi Tierra run to 14.8 GB
  (`874fb4d`, 2026-12-02).
- **The training loop before the shared first layer and the numpy opponents** (`adacd4a`,
  measured in turn with `874fb4d` twice in one session): it trained at 4,775 and 4,730
  (Finca), 2,805 and 2,749 (Alpujarras), 4,471 and 4,344 (solo) and 3,079 and 3,067 (Mi Tierra)
  steps/s, the code after it 14% (Finca) to 35-37% (solo) faster. With the heuristic in one
  Alpujarras episode in ten, the loop trained at 322 steps/s, 89% of it the heuristic's.
- **Ray** (`ecfbc0e`, 2026-12-02; the commands are on the [Ray](../ray.md) page): Finca, 2
  players, 30,000 learner steps per run, two rounds, another training job holding one of the
  two cores: SB3 (64 games in one process) 1,365-1,739 learner steps/s; RLlib with 1 env runner
  680-898 (env steps 1,130-1,488), with 2 env runners 640-766 (1,067-1,276). An RLlib update
  spent 2.3-2.5 s sampling its 4,096 env steps and 0.5-0.6 s learning: on one machine the SB3
  path was about twice as fast; RLlib's gain is in adding machines, one env runner per core.
- **The two commands** (`39bf336`, 2026-12-03): `make run` took 3 min 25 s from a fresh clone,
  set-up included, pip's download cache warm; its training 36 s. `make test`'s suite took
  10-11 min on two cores (about 3,000 tests; no commit recorded).'''

PAGE = Page("speed", MEASUREMENTS, (*PARTS, HISTORY))
