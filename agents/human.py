"""A person at the terminal: the board as text, the legal actions listed, bad input asked again."""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.legend import LEGEND_HEADING
from huerta.envs.core.policies import game_sizes
from huerta.envs.core.view import PlayerView

from .base import Agent


def check_terminal(stdin: TextIO | None = None) -> None:
    """Refuse to seat a human where nobody can answer: standard input closed or not a terminal
    (a pipe, a file, a background job). `huerta play` accepts piped answers; tournaments call
    this before their first game."""
    inp = stdin if stdin is not None else sys.stdin
    try:
        interactive = inp is not None and not inp.closed and inp.isatty()
    except (AttributeError, ValueError, OSError):
        interactive = False
    if not interactive:
        raise InvalidConfigError(
            "the human agent needs a terminal to ask for moves, and standard input is not one "
            "(a pipe, a file or no input at all); play it with `huerta play` in a terminal"
        )


# more legal actions than this are listed grouped by the words their descriptions start with
LONG_LIST = 12
LINE_WIDTH = 100
MIN_PREFIX_WORDS = 3


class HumanAgent(Agent):
    """Asks a person for each move: the board, the legal actions (grouped when there are many),
    then an action id or a few words of an action's name; bad input is asked again with the
    reason. A decision with one legal action is played at once, without asking. The board's
    legend is printed with the first board of a game and again on '?', not at every move."""

    name = "human"
    needs_view = True
    reads_observation = False

    def __init__(
        self, seed: int | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
        game: str | None = None,
    ) -> None:
        super().__init__(seed)
        if game is not None:
            game_sizes(game)  # an unknown game is refused now, naming the valid ones
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.legend_shown = False  # the board's legend is printed once a game, then on '?'

    def __getstate__(self) -> dict[str, Any]:
        """The agent's fields, the process's own terminal streams held as None (what they
        default to): they cannot be pickled, and a copy asks the same terminal."""
        state = self.__dict__.copy()
        for key in ("stdin", "stdout"):
            if state[key] is not None and state[key] in (getattr(sys, key),
                                                         getattr(sys, f"__{key}__")):
                state[key] = None
        return state

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.legend_shown = False

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        out = self.stdout or sys.stdout
        inp = self.stdin or sys.stdin
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        who = f"player_{view.player if view else '?'}"
        names = {a: view.describe(a) if view is not None else "" for a in legal}
        if len(legal) == 1:
            only = legal[0]
            print(f"{who}: {names[only] or only} (the only legal action: played without asking)",
                  file=out)
            return only
        if inp is None or getattr(inp, "closed", False):
            raise EOFError("no standard input to read moves from: the game stops here")
        legend = ""
        if view is not None:
            board, heading, rest = view.render_text().partition(LEGEND_HEADING)
            legend = heading + rest
            if self.legend_shown or not legend:
                print(board.rstrip("\n"), file=out)
            else:
                print(board + legend.rstrip("\n"), file=out)
                self.legend_shown = True
        listing = action_listing(legal, names)
        print(f"Your move, {who}. Legal actions:", file=out)
        print("\n".join(listing), file=out)
        hint = "action id or part of its name" if view is not None else "action id"
        if legend:
            hint += ", ? for the legend"
        while True:
            print(f"{hint}> ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                raise EOFError("no more input: the game stops here")
            text = line.strip()
            if text == "?" and legend:
                print(legend.rstrip("\n"), file=out)
                continue
            if not text:
                print("\n".join(listing), file=out)
                continue
            try:
                action = int(text)
            except ValueError:
                action = self._by_name(text, legal, names, out)
                if action is None:
                    continue
                return action
            if action not in legal:
                print(f"{action} is not legal now; choose one of {legal}.", file=out)
                continue
            return action

    @staticmethod
    def _by_name(text: str, legal: list[int], names: dict[int, str], out: TextIO) -> int | None:
        """The legal action whose name is `text`, else the only one containing it as whole words
        ('space 3' is not 'space 30'), else the only one containing it at all (any case); None,
        after saying why, when no name or several names match."""
        wanted = " ".join(text.lower().split())
        words = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")
        found = [a for a in legal if names[a].lower() == wanted]
        if not found and len(wanted) > 1:
            found = ([a for a in legal if words.search(names[a].lower())]
                     or [a for a in legal if wanted in names[a].lower()])
        if len(found) == 1:
            print(f"  -> {found[0]}  {names[found[0]]}", file=out)
            return found[0]
        if not found:
            print(f"'{text}' is not a number nor part of a legal action's name; type an id "
                  "listed above or a few words of its name (an empty line lists them again).",
                  file=out)
            return None
        shown = "; ".join(f"{a}: {names[a]}" for a in found[:6])
        more = f"; and {len(found) - 6} more" if len(found) > 6 else ""
        print(f"'{text}' matches {len(found)} legal actions ({shown}{more}); type more of the "
              "name or the id.", file=out)
        return None


def action_listing(legal: list[int], names: dict[int, str]) -> list[str]:
    """The legal actions, one a line ('  12  place a farmer on blade 0'); more than LONG_LIST are
    grouped: a run of actions whose names start with the same words shows those words once, then
    'id: the rest' packed several to a line (just 'the rest' when it starts with the id)."""
    if len(legal) <= LONG_LIST:
        return [f"  {a:3d}  {names[a]}" for a in legal]
    lines = []
    for prefix, members in _groups(legal, names):
        if len(members) == 1:
            a = members[0][0]
            lines.append(f"  {a:3d}  {names[a]}")
            continue
        lines.append(f"  {prefix} ...")
        row = ""
        for a, rest in members:
            entry = rest if rest.split()[0] == str(a) else f"{a}: {rest}"  # '5 (market)'
            if row and len(row) + 3 + len(entry) > LINE_WIDTH - 7:
                lines.append(f"       {row}")
                row = entry
            else:
                row = f"{row}   {entry}" if row else entry
        lines.append(f"       {row}")
    return lines


def _groups(legal: list[int], names: dict[int, str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Consecutive actions whose names share their first words (at least MIN_PREFIX_WORDS, and
    something after them), as (shared words, [(id, the rest)])."""
    groups: list[tuple[list[str], list[int]]] = []
    for a in legal:
        words = names[a].split()
        if groups:
            prefix, members = groups[-1]
            if len(members) == 1:
                common = _common(prefix, words)
                if len(common) >= MIN_PREFIX_WORDS and len(common) < min(len(words),
                                                                          len(prefix)):
                    groups[-1] = (common, [*members, a])
                    continue
            elif words[:len(prefix)] == prefix and len(words) > len(prefix):
                members.append(a)
                continue
        groups.append((words, [a]))
    return [(" ".join(prefix), [(a, " ".join(names[a].split()[len(prefix):])) for a in members])
            for prefix, members in groups]


def _common(first: list[str], second: list[str]) -> list[str]:
    """The words both lists start with."""
    common = []
    for x, y in zip(first, second, strict=False):
        if x != y:
            break
        common.append(x)
    return common
