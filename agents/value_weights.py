"""Learned constants of the Alpujarras solo heuristic's value: the heuristic's own search,
judged by `solo_value` with weights a training run chose (`huerta.training.methods.cem`).

The solo heuristic (`agents/heuristics/alpujarras.py`) values a position as the log chance that
every duty ahead is met and Zara out-earned, built from hand-set constants (`SoloWeights`: how
many duties ahead the holdings are checked against, how often a stop yields a wanted item, how
loosely the margin over Zara is judged, what norias, fruit and double turns are worth). Those
constants were guesses; a run of `huerta train alpujarras-solo` learns them from games against
Zara, and the file it writes holds only them:

    about = {"kind": "value_weights", "game": "alpujarras", "players": 1,
             "weights": {"window": 5, "hit": 0.62, ...}, "trained": {...}}

Why constants and not a network (issue 14): networks fitted to the heuristic's solo games (an
afterstate value, or a policy by imitation and PPO) predicted the results better and chose worse
turns (9% and 5% of the 200 balance deals, the heuristic 13-16%): one win in six gives too few
examples of what wins, and the search asks the value about hundreds of turns the heuristic never
plays. Nine constants of a value that already reads like the rules keep its sense everywhere,
and games against Zara measure each choice of them directly. The file is JSON in an `.npz`, like
the other model files, so `learned` loads it the same way.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from huerta.envs.core.errors import InvalidConfigError

KIND = "value_weights"  # `about["kind"]` of a weights file
# what each constant of `SoloWeights` may be (the value takes logs of the chances and divides by
# the scale and spread): (lowest, highest or None, the rule in words); others: at least 0
RANGES: dict[str, tuple[float, float | None, str]] = {
    "window": (1.0, None, "at least 1 (duties judged by the holdings)"),
    "hit": (0.0, 1.0, "a chance above 0 and at most 1"),
    "risk": (0.0, 1.0, "a chance above 0 and at most 1"),
    "far_duty": (0.0, 1.0, "a chance above 0 and at most 1"),
    "scale": (0.0, None, "above 0"),
    "spread": (0.0, None, "above 0"),
}
OPEN_BELOW = frozenset(("hit", "risk", "far_duty", "scale", "spread"))
GAME = "alpujarras"
PLAYERS = 1  # the solo game: the only value with learned constants


def weight_names() -> tuple[str, ...]:
    """The constants a file may set: the fields of the solo heuristic's `SoloWeights`."""
    from huerta.agents.heuristics.alpujarras import SoloWeights

    return tuple(f.name for f in fields(SoloWeights))


class ValueWeights:
    """The learned constants of the solo value, read from (or written to) an `.npz` file;
    `agent(seed)` is the heuristic playing with them."""

    def __init__(self, weights: dict[str, float], about: dict[str, Any] | None = None,
                 path: Path | None = None) -> None:
        self.path = path or Path("<in memory>")
        self.about = {"kind": KIND, "game": GAME, "players": PLAYERS, "trained": {},
                      **(about or {})}
        self.about["weights"] = dict(weights)
        self._check()

    @classmethod
    def load(cls, path: str | Path) -> ValueWeights:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                about = json.loads(str(data["about"]))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
            raise InvalidConfigError(f"{path} is not a value-weights file (an .npz with "
                                     f"about): {type(exc).__name__}: {exc}") from None
        if not isinstance(about, dict) or not isinstance(about.get("weights"), dict):
            raise InvalidConfigError(f"{path}: its `about` has no table of weights")
        return cls(about["weights"], about, path)

    def save(self, path: Any) -> None:
        """Write the file to `path` (a path, or an open binary file)."""
        from .afterstate import write_npz

        write_npz(path, {"about": np.array(json.dumps(self.about))})

    def _check(self) -> None:
        about, path = self.about, self.path
        if about.get("kind") != KIND:
            raise InvalidConfigError(f"{path}: not a value-weights file (kind "
                                     f"{about.get('kind')!r}, expected {KIND!r})")
        valid = weight_names()
        unknown = sorted(set(about["weights"]) - set(valid))
        if unknown:
            raise InvalidConfigError(f"{path}: unknown weight(s) {unknown}; valid: "
                                     f"{', '.join(valid)}")
        for name, value in about["weights"].items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not np.isfinite(value):
                raise InvalidConfigError(f"{path}: weight {name} = {value!r} is not a number")
            low, high, what = RANGES.get(name, (0.0, None, "at least 0"))
            if value < low or (high is not None and value > high) \
                    or (name in OPEN_BELOW and value == low):
                raise InvalidConfigError(f"{path}: weight {name} = {value!r} is out of range: "
                                         f"it must be {what}")

    @property
    def game(self) -> str:
        return str(self.about["game"])

    @property
    def players(self) -> int:
        return int(self.about["players"])

    def solo_weights(self) -> Any:
        """The `SoloWeights` of the file (constants it leaves out keep the heuristic's)."""
        from huerta.agents.heuristics.alpujarras import SoloWeights

        weights = dict(self.about["weights"])
        if "window" in weights:
            weights["window"] = round(weights["window"])
        return SoloWeights(**weights)

    def check_game(self, game: str, players: int | None = None) -> None:
        """Refuse another game, or a table other than the solo game's."""
        from huerta.envs.core.registry import get_game

        name = get_game(game).name
        if name != self.game or (players is not None and players != self.players):
            seats = "" if players is None else f" at {players} seat(s)"
            raise InvalidConfigError(f"{self.path} holds the learned constants of the "
                                     f"{self.game} solo value, not a model of {name}{seats}")

    def agent(self, seed: int | None = None) -> Any:
        """The solo heuristic playing with these constants."""
        from huerta.agents.heuristics.alpujarras import AlpujarrasHeuristic

        return AlpujarrasHeuristic(seed=seed, solo_weights=self.solo_weights())


def is_weights_file(path: str | Path) -> bool:
    """Whether `path` holds learned value constants."""
    from .afterstate import model_kind

    return model_kind(path) == KIND
