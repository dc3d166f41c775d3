"""Game records: (game, players, seed, options, actions) as JSON, and their replay.

A record replays to the identical game because every random draw comes from the seed. A corrupt
record raises `CorruptRecordError` saying which field or which step is wrong.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .engine import GameState
from .errors import CorruptRecordError, HuertaError, IllegalActionError

RECORD_VERSION = 1


@dataclass
class GameRecord:
    """Everything needed to replay a game exactly."""

    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    final_scores: list[int] | None = None
    version: int = RECORD_VERSION

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict."""
        return asdict(self)

    def to_json(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        """Write the record as JSON to `path`."""
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Validate and build a record; raise `CorruptRecordError` naming the bad field."""
        if not isinstance(data, dict):
            raise CorruptRecordError(
                f"a game record must be a JSON object, got {type(data).__name__}"
            )
        expected = {
            "game": str, "num_players": int, "seed": int, "options": dict, "actions": list,
        }
        for name, kind in expected.items():
            if name not in data:
                raise CorruptRecordError(f"game record: missing field {name!r}")
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, kind):
                raise CorruptRecordError(
                    f"game record: field {name!r} must be {kind.__name__}, got {value!r}"
                )
        for i, a in enumerate(data["actions"]):
            if isinstance(a, bool) or not isinstance(a, int):
                raise CorruptRecordError(f"game record: actions[{i}] is {a!r}, not an action id")
        unknown = set(data) - {*expected, "final_scores", "version"}
        if unknown:
            raise CorruptRecordError(f"game record: unknown field(s) {sorted(unknown)}")
        version = data.get("version", RECORD_VERSION)
        if version != RECORD_VERSION:
            raise CorruptRecordError(
                f"game record: version {version!r} is not supported (expected {RECORD_VERSION})"
            )
        return cls(
            game=data["game"], num_players=data["num_players"], seed=data["seed"],
            options=dict(data["options"]), actions=list(data["actions"]),
            final_scores=data.get("final_scores"), version=version,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CorruptRecordError(
                f"game record is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record saved with `save`."""
        return cls.from_json(Path(path).read_text())


def start_state(record: GameRecord) -> GameState:
    """The record's game before its first action."""
    from .registry import get_game

    try:
        spec = get_game(record.game)
    except HuertaError as exc:
        raise CorruptRecordError(f"game record: field 'game': {exc}") from None
    try:
        return spec.new_game(record.num_players, seed=record.seed, **record.options)
    except (HuertaError, TypeError) as exc:
        raise CorruptRecordError(f"game record: cannot set the game up: {exc}") from None


def apply_recorded(state: GameState, index: int, action: int) -> None:
    """Apply the record's `index`-th action; a refused one is reported as a corrupt record."""
    try:
        state.apply(action)
    except IllegalActionError as exc:
        raise CorruptRecordError(
            f"game record: actions[{index}] cannot be replayed: {exc}"
        ) from None


def replay(record: GameRecord, upto: int | None = None) -> GameState:
    """Play the record's actions (the first `upto` of them) and return the resulting state.

    An action that the replayed state refuses raises `CorruptRecordError` naming its index; a
    recorded final score that differs from the replayed one is reported too.
    """
    state = start_state(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for i, action in enumerate(actions):
        if state.is_terminal:
            raise CorruptRecordError(
                f"game record: actions[{i}] = {action} comes after the end of the game"
            )
        apply_recorded(state, i, action)
    if upto is None and record.final_scores is not None and state.scores() != record.final_scores:
        raise CorruptRecordError(
            f"game record: final_scores {record.final_scores} differ from the replayed "
            f"scores {state.scores()}"
        )
    return state


def iter_states(record: GameRecord):
    """Yield (index, action, state before the action) for every recorded action, then
    (len, None, final state). The state object is reused: clone it to keep it."""
    state = start_state(record)
    for i, action in enumerate(record.actions):
        yield i, action, state
        apply_recorded(state, i, action)
    yield len(record.actions), None, state
