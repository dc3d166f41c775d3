"""Draw the README's Mi Tierra picture: docs/mi_tierra.png (three heuristic players at the start
of round 8's placement).

Run from the repository root: `.venv/bin/python scripts/mi_tierra_pictures.py`. The game is seeded,
so the picture only changes when the agent, the engine or the picture does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from huerta.agents.heuristics.mi_tierra import MiTierraHeuristic
from huerta.envs.core.view import PlayerView
from huerta.envs.mi_tierra import Stage, new_game

DOCS = Path(__file__).resolve().parent.parent / "docs"
SEED = 14
ROUND = 8


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    state = new_game(3, seed=SEED)
    agents = [MiTierraHeuristic(seed=p) for p in range(3)]
    while not state.is_terminal and not (state.round == ROUND and state.stage == Stage.PLACEMENT):
        p = state.current_player
        obs = {"observation": state.observe(p),
               "action_mask": state.legal_mask().astype(np.int8)}
        state.apply(agents[p].act(obs, PlayerView(state, p)))
    Image.fromarray(state.render_rgb()).save(DOCS / "mi_tierra.png", optimize=True)
    print(f"seed {SEED}, round {state.round}: wrote {DOCS / 'mi_tierra.png'}")


if __name__ == "__main__":
    main()
