"""Draw the README's Finca pictures from one seeded game between two heuristic agents:
docs/finca_heuristic_game.json (its record), docs/finca.png (the position half-way) and
docs/finca_replay.gif (the game animated, one frame per turn, as `huerta replay --gif` makes it).

Run from the repository root: `.venv/bin/python scripts/finca_pictures.py`. The game is seeded, so
the pictures only change when the agent, the engine or the picture does.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from huerta.agents import make_agent
from huerta.envs.core.records import replay
from huerta.training.animation import save_gif
from huerta.training.evaluation.matches import play_game

DOCS = Path(__file__).resolve().parent.parent / "docs"
SEED = 3
# Full size: the smallest text is then 13 px (at least 11 px keeps it readable), and unscaled frames
# keep their flat colours, so the GIF is smaller than a resampled one at 0.85 (about 2 MB, not 5).
GIF_SCALE = 1.0


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    agents = [make_agent("heuristic", "finca"), make_agent("heuristic", "finca")]
    record, final = play_game("finca", agents, seed=SEED)
    record.save(DOCS / "finca_heuristic_game.json")
    halfway = replay(record, upto=len(record.actions) // 2)
    Image.fromarray(halfway.render_rgb()).save(DOCS / "finca.png", optimize=True)
    frames = save_gif(record, DOCS / "finca_replay.gif", scale=GIF_SCALE)
    print(f"seed {SEED}: {len(record.actions)} actions, final scores {final.scores()}; wrote "
          f"finca_heuristic_game.json, finca.png and finca_replay.gif ({frames} frames) in {DOCS}")


if __name__ == "__main__":
    main()
