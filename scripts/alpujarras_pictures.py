"""Draw the README's Alpujarras pictures: docs/alpujarras.png (three heuristic players half-way
through a game) and docs/alpujarras_solo.png (the heuristic against Zara, a few turns in).

Run from the repository root: `.venv/bin/python scripts/alpujarras_pictures.py`. The games are
seeded, so the pictures only change when the agent, the engine or the picture does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from huerta.agents.heuristics.alpujarras import AlpujarrasHeuristic
from huerta.envs.alpujarras import AlpujarrasState, Phase, new_game
from huerta.envs.core.view import PlayerView

DOCS = Path(__file__).resolve().parent.parent / "docs"


def play_until(num_players: int, seed: int, stop: Callable[[AlpujarrasState], bool]
               ) -> AlpujarrasState:
    """Heuristic agents in every seat play game `seed` until `stop(state)` (or the end)."""
    state = new_game(num_players, seed=seed)
    agents = [AlpujarrasHeuristic(seed=seed * 10 + p) for p in range(num_players)]
    while not state.is_terminal and not stop(state):
        p = state.current_player
        obs = {"observation": state.observe(p),
               "action_mask": state.legal_mask().astype(np.int8)}
        state.apply(agents[p].act(obs, PlayerView(state, p)))
    return state


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    three = play_until(3, 2, lambda s: s.turns >= 34 and s.phase == Phase.ACTION)
    Image.fromarray(three.render_rgb()).save(DOCS / "alpujarras.png", optimize=True)
    solo = play_until(1, 2, lambda s: s.turns >= 6 and s.phase == Phase.MOVE)
    Image.fromarray(solo.render_rgb()).save(DOCS / "alpujarras_solo.png", optimize=True)
    print(f"wrote {DOCS / 'alpujarras.png'} and {DOCS / 'alpujarras_solo.png'}")


if __name__ == "__main__":
    main()
