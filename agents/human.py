"""A person at the terminal: the board as text, the legal actions listed, bad input asked again."""

from __future__ import annotations

import sys
from typing import TextIO

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
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


class HumanAgent(Agent):
    """Reads an action id from `stdin` (a number from the printed list), asking again with the
    reason when the input is not a legal action."""

    name = "human"
    needs_view = True

    def __init__(
        self, seed: int | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
    ) -> None:
        super().__init__(seed)
        self.stdin = stdin
        self.stdout = stdout

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        out = self.stdout or sys.stdout
        inp = self.stdin or sys.stdin
        if inp is None or getattr(inp, "closed", False):
            raise EOFError("no standard input to read moves from: the game stops here")
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if view is not None:
            print(view.render_text(), file=out)
        print(f"Your move, player_{view.player if view else '?'}. Legal actions:", file=out)
        for a in legal:
            meaning = view.describe(a) if view is not None else ""
            print(f"  {a:3d}  {meaning}", file=out)
        while True:
            print("action id> ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                raise EOFError("no more input: the game stops here")
            text = line.strip()
            try:
                action = int(text)
            except ValueError:
                print(f"'{text}' is not a number; type one of the ids listed above.", file=out)
                continue
            if action not in legal:
                print(f"{action} is not legal now; choose one of {legal}.", file=out)
                continue
            return action
