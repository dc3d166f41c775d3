"""The `huerta` command line.

    huerta play GAME --agents human,heuristic [--players N] [--seed S]
    huerta tournament GAME --agents random,heuristic,mcts:200 --games 400 [--players N]
                      [--workers K] [--out DIR [--resume]] [--backend ray [--ray-address ADDR]]
                      [--db PATH | --no-db]
    huerta benchmark GAME AGENT [--players N] [--games K] [--workers K] [--db PATH | --no-db]
                     [--json PATH]
    huerta leaderboard GAME [--players N] [--db PATH] [--plot PATH]
    huerta replay RECORD.json [--boards] [--gif OUT.gif]
    huerta bench [--game GAME ...] [--seconds S] [--players 2 3 4] [--no-memory]
    huerta demo [--game GAME] [--games N] [--players 2 3 4] [--agents random] [--records DIR]
    huerta train GAME [--players N] [--steps S] [--envs K] [--seed X] [--out DIR] [--config F]
                 [--resume | --force] [--backend rllib [--ray-address ADDR] [--env-runners K]]
    huerta main      (the README's main job: a short training, then tournaments)
    huerta serve [--port P] [--runs DIR] [--host H]   (watch and play in the browser)

GAME is finca, alpujarras, alpujarras-solo (the solo game against Zara: alpujarras with 1
player; `alpujarras --players 1` is the same game) or mi_tierra, in every command. `--games` is
always a number of games; `bench --game` lists the games to measure.

Bad input never ends in a traceback: numbers out of range are refused by the parser (with the
usage line), agent codes with their arguments right after it, before anything runs, and anything
found later (an unsupported player count, a corrupt record, an unreadable file) as one line
`huerta COMMAND: error: ...`; all of these exit with status 2. Ctrl-C prints one line (exit
status 130) and output cut short by a closed pipe (`| head`) ends quietly (exit status 1).

The package holds one module per command or group (play.py: demo and play; bench.py;
tournament.py; benchmark.py: benchmark and leaderboard; train.py: train and export; main_job.py;
replay.py; serve.py), each adding its parser and running it, and arguments.py, what they share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from huerta.envs.core.errors import HuertaError

from .arguments import check_agent_argument
from .bench import add_bench
from .benchmark import add_benchmark, add_leaderboard
from .main_job import add_main_job
from .play import add_demo, add_play
from .replay import add_replay
from .serve import add_serve
from .tournament import add_tournament
from .train import add_export, add_train


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `huerta` command."""
    parser = argparse.ArgumentParser(
        prog="huerta",
        description="Reinforcement-learning environments for farming board games.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (add_demo, add_bench, add_play, add_tournament, add_benchmark, add_leaderboard,
                add_train, add_main_job, add_export, add_replay, add_serve):
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `huerta` console script: every expected failure becomes one line on
    stderr and a non-zero exit status, never a traceback."""
    command = "huerta"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = f"huerta {args.command}"
        check_agent_argument(args)
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at exit
        return code
    except KeyboardInterrupt as exc:
        _flush_quietly()
        print(f"{command}: {_one_line(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except (HuertaError, ValueError, OSError, EOFError, ImportError) as exc:
        _flush_quietly()
        print(f"{command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: BaseException) -> str:
    """The error's message on one line (a library's message may span several)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """After a closed pipe (`huerta replay x.json | head`): point stdout at devnull so that
    Python's final flush is quiet too (the recipe of Python's signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (tests)
        pass
