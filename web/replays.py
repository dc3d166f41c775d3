"""Game records opened in the page: verified as `huerta replay` verifies them, then described move
by move and replayed to any step on demand.

A record comes from an upload (a `huerta play --save` file, a `huerta demo --records` file or one
line of a tournament's games.jsonl) or from a tournament under the server's runs folder. States
are rebuilt from checkpoints (a clone every `CHECKPOINT_EVERY` moves), so stepping back and forth
costs at most that many moves. Replays show everything (`state_json(..., viewer=None)`): the
record's seed fixes every hidden tile and card anyway.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from huerta.envs.core.engine import GameState
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import (
    MAX_RECORD_BYTES,
    GameRecord,
    apply_recorded,
    parse_json,
    replay,
    start_state,
)
from huerta.envs.core.registry import game_label

from . import boards
from .errors import WebError

MAX_UPLOAD_BYTES = 2 << 20  # one games.jsonl line: a record (at most 1 MiB) and its fields
MAX_REPLAYS = 32  # replays kept in memory; the least recently opened goes first
CHECKPOINT_EVERY = 50


@dataclass
class Replay:
    """One verified record: its moves described, and checkpoints to rebuild any step from."""

    id: str
    record: GameRecord
    source: str
    seat_names: list[str]
    moves: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: dict[int, GameState] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def steps(self) -> int:
        return len(self.record.actions)

    def summary(self) -> dict[str, Any]:
        """What the page needs to show the replay's frame: the game, the seats, the moves."""
        final = self.state_at(self.steps)
        return {
            "id": self.id,
            "game": self.record.game,
            "label": game_label(self.record.game, self.record.num_players),
            "num_players": self.record.num_players,
            "seed": self.record.seed,
            "options": self.record.options,
            "source": self.source,
            "seats": self.seat_names,
            "steps": self.steps,
            "moves": self.moves,
            "final_scores": final.scores(),
            "finished": final.is_terminal,
            "winners": final.winners() if final.is_terminal else [],
        }

    def state_at(self, step: int) -> GameState:
        """The state before move `step` (0: the set-up; `steps`: the end), from the nearest
        checkpoint; a copy the caller may keep."""
        with self.lock:
            base = step - step % CHECKPOINT_EVERY
            state = self.checkpoints[base].clone()
        for i in range(base, step):
            apply_recorded(state, i, self.record.actions[i])
        return state

    def frame(self, step: int) -> dict[str, Any]:
        """Step `step` for the page: the whole board (a replay shows everything) and scores."""
        if not 0 <= step <= self.steps:
            raise WebError(404, "step", f"{step} is not a step of this replay (0 to {self.steps})")
        state = self.state_at(step)
        return {
            "step": step,
            "board": boards.state_json(self.record.game, state, None),
            "scores": state.scores(),
            "finished": state.is_terminal,
        }


def _build(record: GameRecord, source: str, seat_names: list[str] | None) -> Replay:
    """Verify `record` exactly as `huerta replay` does, then describe its moves."""
    try:
        replay(record)  # set-up, every step, the final scores and the checksum
    except CorruptRecordError as exc:
        raise WebError(422, "record", str(exc)) from None
    names = seat_names or [f"player_{p}" for p in range(record.num_players)]
    result = Replay(id=secrets.token_hex(8), record=record, source=source, seat_names=names)
    state = start_state(record)
    for i, action in enumerate(record.actions):
        if i % CHECKPOINT_EVERY == 0:
            result.checkpoints[i] = state.clone()
        seat = state.current_player
        result.moves.append({"step": i, "seat": seat, "action": action,
                             "text": state.describe(action)})
        apply_recorded(state, i, action)
    if len(record.actions) % CHECKPOINT_EVERY == 0:  # the end falls on a checkpoint (or 0)
        result.checkpoints[len(record.actions)] = state.clone()
    return result


def parse_upload(raw: bytes, source: str) -> tuple[GameRecord, dict[str, Any] | None]:
    """A record from uploaded bytes: a record file, or one line of a tournament's games.jsonl
    (then also the line's fields). Raises `WebError` naming what is wrong."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise WebError(413, "record", f"{source} is {len(raw):,} bytes, over the "
                       f"{MAX_UPLOAD_BYTES:,}-byte limit of an upload")
    lines = [line for line in raw.splitlines() if line.strip()]
    if len(lines) > 1:
        raise WebError(422, "record", f"{source} holds {len(lines)} lines: a tournament's "
                       "games.jsonl? Upload one game record (or one line), or open the "
                       "tournament from the Results view (huerta serve --runs DIR)")
    try:
        data = parse_json(raw, source, limit=MAX_UPLOAD_BYTES)
    except CorruptRecordError as exc:
        raise WebError(422, "record", str(exc)) from None
    line = None
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        line, data = data, data["record"]  # a games.jsonl line
    elif len(raw) > MAX_RECORD_BYTES:
        raise WebError(413, "record", f"{source} is {len(raw):,} bytes, over the "
                       f"{MAX_RECORD_BYTES:,}-byte limit of a game record")
    try:
        return GameRecord.from_dict(data), line
    except CorruptRecordError as exc:
        raise WebError(422, "record", f"{source}: {exc}") from None


class ReplayStore:
    """The replays opened in this server, the least recently opened dropped beyond `limit`."""

    def __init__(self, limit: int = MAX_REPLAYS) -> None:
        self.limit = limit
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, record: GameRecord, source: str, seat_names: list[str] | None = None) -> Replay:
        """Verify and keep a record; raises `WebError` (422) for a corrupt one."""
        result = _build(record, source, seat_names)
        with self._lock:
            self._replays[result.id] = result
            while len(self._replays) > self.limit:
                self._replays.popitem(last=False)
        return result

    def get(self, replay_id: str) -> Replay:
        """The replay `replay_id`; 404 when there is none (or it was dropped)."""
        with self._lock:
            result = self._replays.get(replay_id)
            if result is not None:
                self._replays.move_to_end(replay_id)
        if result is None:
            raise WebError(404, "replay", f"no replay {replay_id!r} (open the record again)")
        return result
