"""What every command shares: the argument types with their limits (one set, from
`huerta.training.limits`), the help texts said more than once, the leaderboard flags, and the
checks made right after parsing, before anything runs."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from huerta.envs.core.errors import InvalidConfigError

from ..limits import MAX_GAMES, MAX_SEED, MAX_WORKERS

if TYPE_CHECKING:
    from huerta.envs.core.engine import GameSpec


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high`, refused with the range otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{value} is out of range: give an integer from {low:,} to {high:,}"
            )
        return value

    return parse


def float_range(high: float) -> Callable[[str], float]:
    """An argparse type: a finite number above 0 and at most `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: give a number above 0 and at most {high:g}"
            )
        return value

    return parse


SEED = int_range(0, MAX_SEED)
GAMES = int_range(1, MAX_GAMES)
WORKERS = int_range(1, MAX_WORKERS)


def seat_count(text: str) -> int:
    """An argparse type: a seat count some game has (each game's own counts are checked once
    the game is known)."""
    from huerta.envs.core.registry import game_names, get_game

    most = max(max(get_game(g).player_counts) for g in game_names())
    return int_range(1, most)(text)


GAME_HELP = "one of %(choices)s (alpujarras-solo: the solo game against Zara)"
PICKLE_NOTE = ("Warning: ppo:PATH (a MaskablePPO .zip) and rllib:PATH (an RLlib checkpoint) are "
               "pickle-based formats, and loading one runs the code it holds: load only files "
               "you trust (learned:PATH, a numpy file, runs nothing)")


def db_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--db PATH and --no-db, one or the other."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--db", metavar="PATH", default=None,
                       help=f"{what} (default $HUERTA_LEADERBOARD, else runs/leaderboard.sqlite)")
    group.add_argument("--no-db", action="store_true", help="store nothing in the leaderboard")


def db_path(args: argparse.Namespace) -> Path | None:
    """The leaderboard file of a command: --db, else $HUERTA_LEADERBOARD, else
    runs/leaderboard.sqlite; None with --no-db."""
    from ..evaluation.leaderboard import default_db_path

    if getattr(args, "no_db", False):
        return None
    return Path(args.db) if args.db else default_db_path()


def check_agent_argument(args: argparse.Namespace) -> None:
    """Check the --agents codes, each with its argument, for the command's game, right after
    parsing and before anything runs (an unknown code names the valid ones; `heuristic:3` says
    what heuristic accepts; `ppo:FILE` must be a saved model of this game)."""
    text = getattr(args, "agents", None)
    if text is None:
        return
    codes = [c.strip() for c in text.split(",") if c.strip()]
    if not codes:
        raise InvalidConfigError("--agents lists no agent codes, e.g. random,heuristic")
    game = getattr(args, "game", None)
    players = getattr(args, "players", None)
    if not isinstance(players, int):  # demo takes a list of counts: checked per game later
        players = None
    if isinstance(game, str):
        from huerta.envs.core.registry import resolve_game

        # alpujarras-solo: alpujarras's agents at 1 seat; a count the game lacks is refused here
        spec, players = resolve_game(game, players)
        game = spec.name
        if players is None and args.command == "play":  # seats: the number of agents
            players = len(codes)
    check_codes(codes, game, players)


def check_codes(codes: Sequence[str], game: str | None, players: int | None = None) -> None:
    """Check every agent code for `game` (at a table of `players` seats, when known) before
    the first game."""
    from huerta.agents.registry import check_agent_code

    for code in codes:
        check_agent_code(code, game, players)


def check_output_file(path: str, flag: str) -> None:
    """Refuse, before any work, an output file whose folder is missing or that is a folder."""
    target = Path(path)
    if target.is_dir():
        raise InvalidConfigError(f"{flag} {path} is a folder; give a file name")
    if not target.parent.is_dir():
        raise InvalidConfigError(f"{flag} {path}: the folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK):
        raise InvalidConfigError(f"{flag} {path}: the folder {target.parent} is not writable")


def game_and_counts(name: str, players: Sequence[int] | None) -> tuple[GameSpec, list[int]]:
    """The game of a game or variant name and the player counts to play: those given (each
    checked; a variant takes only its own), else the variant's count or 2, 3 and 4."""
    from huerta.envs.core.registry import own_player_counts, resolve_game

    spec, fixed = resolve_game(name)
    if not players:
        return spec, [fixed] if fixed is not None else list(own_player_counts(spec.name))
    for n in players:
        resolve_game(name, n)
    return spec, list(players)


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM (a `kill`) like Ctrl-C while a tournament runs: finished games are kept
    and one line says so."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (main() called from a thread)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class Progress:
    """Progress on stderr: a tqdm bar where tqdm is installed (the `train` extra), else a line
    at every tenth of the work."""

    def __init__(self, desc: str, total: int) -> None:
        self.desc, self.total, self.done, self.shown = desc, max(total, 1), 0, -1
        self.bar: Any = None
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(total=self.total, desc=desc)

    def update_to(self, done: int) -> None:
        """Advance to `done` of the total."""
        if self.bar is not None:
            self.bar.update(done - self.done)
        else:
            tenth = 10 * done // self.total
            if tenth > self.shown:
                self.shown = tenth
                print(f"{self.desc}: {done}/{self.total}", file=sys.stderr, flush=True)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
