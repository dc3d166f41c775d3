"""The shipped afterstate value of a game without its learned search settings, for tests that
need its play to be the same on any machine: the learned search stops at a wall-clock budget,
the afterstate agent alone does not."""

from __future__ import annotations

from pathlib import Path

from huerta.agents.afterstate import ValueNetwork
from huerta.agents.learned import shipped_model


def shipped_value_alone(game: str, folder: Path) -> Path:
    """A copy in `folder` of `game`'s shipped 2-player value file, its `about["search"]` left
    out (so `learned:PATH` plays the afterstate agent); its path."""
    value = ValueNetwork.load(shipped_model(game, 2))
    value.about.pop("search")
    path = folder / "value.npz"
    value.save(path)
    return path
