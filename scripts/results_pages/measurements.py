"""The kinds of measurement the pages share: a tournament, a benchmark and a script with a
--json file, each with its command, parser and the agents it measures."""

from __future__ import annotations

from . import parsers
from .model import Agent, Code, Measured, Measurement

# what decides a tournament's or a benchmark's figures beside its agents: the module that plays a
# game (followed through its imports: seeding, records, the engine) and, by their bytes alone,
# the files that schedule the deals and seats and count the results; the file and run plumbing
# those files import moves no figure, so it is left out
PLAYS = ("huerta.training.evaluation.matches",)
# the agents a tournament or benchmark plays are measured one by one (`Agent`), so the code of
# its games and counts leaves them out: a change to one agent stales that agent's figures only
AGENTS = ("huerta.agents",)
SCHEDULE = ("training/evaluation/jobs.py", "training/evaluation/ratings.py")
TOURNAMENT_FILES = (*SCHEDULE, "training/evaluation/tournament.py",
                    "training/evaluation/tournament_result.py")
BENCHMARK_FILES = (*SCHEDULE, "training/evaluation/benchmark.py",
                   "training/evaluation/ladder.py", "training/evaluation/placement.py",
                   "training/evaluation/anchored.py")
LADDER_FILE = "training/evaluation/ladder.json"


def rules_game(game: str) -> str:
    """The game whose rules a game or variant name plays (alpujarras-solo: alpujarras), the name
    agent versions take."""
    from huerta.envs.core.registry import resolve_game

    return resolve_game(game)[0].name


def agents_of(game: str, codes: list[str] | tuple[str, ...]) -> tuple[Measured, ...]:
    """The distinct agent codes of a line-up, as what a figure measures."""
    return tuple(Agent(code, rules_game(game)) for code in dict.fromkeys(codes))


def tournament(measurement_id: str, game: str, agents: list[str], games: int, what: str,
               players: int = 2, workers: int = 2, keep_output: bool = False,
               dear: str = "") -> Measurement:
    """`huerta tournament` of one line-up, its summary read per agent; it measures the agents
    and how the tournament plays and counts."""
    command = (f"huerta tournament {game} --agents {','.join(agents)} --games {games}"
               + (f" --players {players}" if players != 2 else "")
               + f" --workers {workers} --no-db --quiet --out {parsers.TOURNAMENT_OUT}")
    code = Code(f"the tournament's games and counts ({rules_game(game)})", rules_game(game),
                modules=PLAYS, files=TOURNAMENT_FILES, leave_out=AGENTS)
    return Measurement(measurement_id, what, (command,), parsers.tournament,
                       (*agents_of(game, agents), code), keep_output=keep_output, dear=dear)


def benchmark(measurement_id: str, game: str, agent: str, what: str, options: str = "",
              rungs: tuple[str, ...] = ("random", "heuristic", "search"),
              dear: str = "") -> Measurement:
    """`huerta benchmark` of one agent (adaptive unless `options` says --full), read from its
    --json file; it measures the agent, the rungs it may play (none in the solo game, rated
    against Zara), how the benchmark plays and counts, and the ladder's reference ratings where
    there are rungs."""
    command = " ".join(["huerta benchmark", game, agent, *options.split(), "--workers 2",
                        "--no-db --quiet", f"--json {parsers.JSON_OUT}"])
    code = Code(f"the benchmark's games and counts ({rules_game(game)})" if not rungs else
                f"the benchmark's games, counts and ladder ({rules_game(game)})",
                rules_game(game), modules=PLAYS, leave_out=AGENTS,
                files=(*BENCHMARK_FILES, *((LADDER_FILE,) if rungs else ())))
    return Measurement(measurement_id, what, (command,), parsers.benchmark,
                       (*agents_of(game, [agent, *rungs]), code), dear=dear)


def script(measurement_id: str, path: str, arguments: str, what: str,
           measures: tuple[Measured, ...], games: tuple[str, ...], dear: str = "") -> Measurement:
    """A script of the repository run with `--json`, its file read as it is; it measures the
    script itself (with its huerta imports and each game's engine) beside `measures`."""
    command = f"python {path} {arguments} --json {parsers.JSON_OUT}"
    own = tuple(Code(f"{path} ({game})", game, scripts=(path,)) for game in games)
    return Measurement(measurement_id, what, (command,), parsers.script_json,
                       (*own, *measures), dear=dear)
