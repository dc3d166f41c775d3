"""Game records: (game, players, seed, options, actions, final scores) as JSON, and their replay.

A record replays to the identical game because every random draw comes from the seed. Every way a
record can be corrupt raises `CorruptRecordError` saying where: a file over `MAX_RECORD_BYTES`
(checked before parsing), binary or non-UTF-8 bytes, invalid JSON (line and column), nesting
deeper than `MAX_JSON_DEPTH`, NaN or infinite numbers, integers longer than `MAX_INT_DIGITS`
digits, duplicate keys, a missing, mistyped, unknown or out-of-range field (seeds are
0..`MAX_SEED`, actions 0..`MAX_ACTION`), an unknown game or player count, an action the game
refuses or one after its end, final scores that differ from the replayed ones, and a checksum that
does not match the content.

Format versions (the `version` field, an integer):

- 2 (`RECORD_VERSION`, written since checksums): carries `checksum`, the sha256 of the canonical
  JSON of the content fields (`content_checksum`), so that a changed action is caught even when
  the game still plays to an end. `replay` verifies it last, after the steps and the final
  scores, so a change that breaks the game is reported at the step it breaks.
- 1 (and records without `version`): the format before checksums, still accepted (e.g.
  docs/finca_heuristic_game.json); nothing to verify beyond the replay itself. Saving such a
  record writes it as version 2.

Anything else in `version` (99, "2", 2.0, true) is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import GameState
from .errors import CorruptRecordError, HuertaError, IllegalActionError

RECORD_VERSION = 2
SUPPORTED_VERSIONS = (1, 2)
MAX_RECORD_BYTES = 1 << 20  # 1 MiB: a truncated 5,000-step game takes about 25 KB
MAX_JSON_DEPTH = 16  # a record nests 2 levels; a tournament line with its record, 3
MAX_INT_DIGITS = 30
MAX_SEED = 2**63 - 1
MAX_ACTION = 2**31 - 1
MAX_SCORE = 2**31 - 1
CONTENT_FIELDS = ("game", "num_players", "seed", "options", "actions", "final_scores")

_SCALARS = (str, int, float, bool, type(None))
# runs of plain characters, escapes, quotes and brackets: enough to track nesting outside strings
_JSON_TOKEN = re.compile(r'[^"\\\[\]{}]+|\\.?|["\[\]{}]', re.S)


@dataclass
class GameRecord:
    """Everything needed to replay a game exactly.

    `checksum` is the one read from a file (None for a record built in memory); `replay`
    compares it with the content. `version` is the format it was read in; both are metadata,
    left out of `==`.
    """

    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    final_scores: list[int] | None = None
    version: int = field(default=RECORD_VERSION, compare=False)
    checksum: str | None = field(default=None, compare=False, repr=False)

    def content(self) -> dict[str, Any]:
        """The fields the checksum covers, as JSON-safe values."""
        return {
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [int(a) for a in self.actions],
            "final_scores": None if self.final_scores is None else list(self.final_scores),
        }

    def content_checksum(self) -> str:
        """sha256 (hex) of the canonical JSON of `content()` (sorted keys, no spaces)."""
        text = json.dumps(
            self.content(), sort_keys=True, separators=(",", ":"), ensure_ascii=True,
            allow_nan=False,
        )
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict in the current format (version 2, with the checksum)."""
        return {**self.content(), "version": RECORD_VERSION, "checksum": self.content_checksum()}

    def to_json(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        """Write the record as JSON to `path`."""
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Validate and build a record; raise `CorruptRecordError` naming the bad field.

        The checks here need no game: types, ranges, the version and its fields. The game, the
        player count, the actions, the final scores and the checksum are checked by `replay`.
        """
        if not isinstance(data, dict):
            raise CorruptRecordError(
                f"a game record must be a JSON object, got {type(data).__name__}"
            )
        version = _check_version(data)
        expected = {
            "game": str, "num_players": int, "seed": int, "options": dict, "actions": list,
        }
        for name, kind in expected.items():
            if name not in data:
                raise CorruptRecordError(f"game record: missing field {name!r}")
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, kind):
                raise CorruptRecordError(
                    f"game record: field {name!r} must be {kind.__name__}, got {_short(value)}"
                )
        allowed = {*expected, "final_scores", "version"} | ({"checksum"} if version >= 2 else set())
        unknown = set(data) - allowed
        if unknown:
            raise CorruptRecordError(f"game record: unknown field(s) {sorted(unknown)}")
        if not 0 <= data["seed"] <= MAX_SEED:
            raise CorruptRecordError(
                f"game record: field 'seed' = {_short(data['seed'])} is out of range "
                f"(0 to 2**63 - 1)"
            )
        for i, a in enumerate(data["actions"]):
            if isinstance(a, bool) or not isinstance(a, int):
                raise CorruptRecordError(
                    f"game record: actions[{i}] is {_short(a)}, not an action id"
                )
            if not 0 <= a <= MAX_ACTION:
                raise CorruptRecordError(
                    f"game record: actions[{i}] = {_short(a)} is out of range (0 to {MAX_ACTION})"
                )
        for key, value in data["options"].items():
            if not isinstance(value, _SCALARS):
                raise CorruptRecordError(
                    f"game record: options[{key!r}] must be a string, number, boolean or null, "
                    f"got {type(value).__name__}"
                )
        final_scores = _check_final_scores(data)
        checksum = data.get("checksum")
        if version >= 2:
            if "checksum" not in data:
                raise CorruptRecordError(
                    f"game record: missing field 'checksum' (required in version {version})"
                )
            if not isinstance(checksum, str) or not re.fullmatch(r"[0-9a-f]{64}", checksum):
                raise CorruptRecordError(
                    f"game record: field 'checksum' must be 64 lowercase hex digits (sha256), "
                    f"got {_short(checksum)}"
                )
        return cls(
            game=data["game"], num_players=data["num_players"], seed=data["seed"],
            options=dict(data["options"]), actions=list(data["actions"]),
            final_scores=final_scores, version=version, checksum=checksum,
        )

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "game record") -> GameRecord:
        """Parse a record from JSON text or bytes (size, encoding and JSON checks first)."""
        return cls.from_dict(parse_json(text, source))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file: its size is checked before anything is parsed."""
        return cls.from_json(read_limited(path), source=f"game record {path}")


def _check_version(data: dict[str, Any]) -> int:
    """The record's format version; absent means 1 (records written before versions)."""
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise CorruptRecordError(
            f"game record: field 'version' must be an integer "
            f"({' or '.join(map(str, SUPPORTED_VERSIONS))}), got {_short(version)}"
        )
    if version not in SUPPORTED_VERSIONS:
        raise CorruptRecordError(
            f"game record: version {version} is not supported "
            f"(supported: {', '.join(map(str, SUPPORTED_VERSIONS))})"
        )
    return version


def _check_final_scores(data: dict[str, Any]) -> list[int] | None:
    scores = data.get("final_scores")
    if scores is None:
        return None
    if not isinstance(scores, list):
        raise CorruptRecordError(
            f"game record: field 'final_scores' must be a list or null, got {_short(scores)}"
        )
    for i, s in enumerate(scores):
        if isinstance(s, bool) or not isinstance(s, int) or abs(s) > MAX_SCORE:
            raise CorruptRecordError(f"game record: final_scores[{i}] = {_short(s)} is not a score")
    return list(scores)


def _short(value: Any, limit: int = 40) -> str:
    """repr(value), cut to `limit` characters (a corrupt field may be huge)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**limit else (
        f"<an integer of {len(str(abs(value)))} digits>"
    )
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_limited(path: str | Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of file `path`, refusing one over `limit` bytes before reading it whole."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CorruptRecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.is_dir():
        raise CorruptRecordError(f"{path} is a folder, not a record file")
    if size > limit:
        raise CorruptRecordError(
            f"{path} is {size:,} bytes, over the {limit:,}-byte limit of a game record"
        )
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)  # a file that grows, or a pipe, is cut here
    except OSError as exc:
        raise CorruptRecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise CorruptRecordError(f"{path} is over the {limit:,}-byte limit of a game record")
    return data


def parse_json(
    raw: str | bytes, source: str = "game record", limit: int = MAX_RECORD_BYTES
) -> Any:
    """Parse JSON from a record file or a tournament line, refusing with `CorruptRecordError`
    (naming `source` and where) anything over `limit` bytes, binary or non-UTF-8 data, nesting
    over `MAX_JSON_DEPTH`, integers over `MAX_INT_DIGITS` digits, NaN/Infinity and duplicate
    keys."""
    if isinstance(raw, bytes):
        if len(raw) > limit:
            raise CorruptRecordError(
                f"{source} is {len(raw):,} bytes, over the {limit:,}-byte limit"
            )
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise CorruptRecordError(
                f"{source} is binary, not JSON text (a NUL byte at offset {nul})"
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CorruptRecordError(
                f"{source} is not UTF-8 text (byte {exc.start}: {raw[exc.start:exc.start + 1]!r})"
            ) from None
    else:
        text = raw.removeprefix("\ufeff")
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            raise CorruptRecordError(f"{source} is over the {limit:,}-byte limit")
        if "\x00" in text:
            raise CorruptRecordError(
                f"{source} is binary, not JSON text (a NUL character at {text.index(chr(0))})"
            )
    _check_depth(text, source)
    try:
        return json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
            parse_int=_bounded_int, parse_float=_finite_float,
        )
    except json.JSONDecodeError as exc:
        raise CorruptRecordError(
            f"{source} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from None
    except _JSONValueError as exc:
        raise CorruptRecordError(f"{source}: {exc}") from None
    except (RecursionError, ValueError) as exc:  # defensive: the checks above come first
        raise CorruptRecordError(f"{source} cannot be parsed: {exc}") from None


class _JSONValueError(ValueError):
    """A JSON value the record format refuses (raised inside the parser's hooks)."""


def _check_depth(text: str, source: str) -> None:
    """Refuse nesting deeper than MAX_JSON_DEPTH, with its line and column, before parsing
    (Python's parser would otherwise hit its recursion limit)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return  # every record and tournament line: nothing to scan
    depth = 0
    in_string = False
    for match in _JSON_TOKEN.finditer(text):
        char = match.group()[0]
        if char == '"':
            in_string = not in_string
        elif in_string or char not in "[]{}":
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                raise CorruptRecordError(
                    f"{source} nests deeper than {MAX_JSON_DEPTH} levels "
                    f"(line {line}, column {column})"
                )
        else:
            depth -= 1


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _JSONValueError(f"duplicate key {_short(key)}")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise _JSONValueError(f"{name} is not a number a record may hold")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _JSONValueError(
            f"an integer of {digits} digits (at most {MAX_INT_DIGITS} are accepted)"
        )
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _JSONValueError(f"the number {_short(text)} is out of range")
    return value


def start_state(record: GameRecord) -> GameState:
    """The record's game before its first action."""
    from .registry import get_game

    try:
        spec = get_game(record.game)
    except HuertaError as exc:
        raise CorruptRecordError(f"game record: field 'game': {exc}") from None
    try:
        return spec.new_game(record.num_players, seed=record.seed, **record.options)
    except (HuertaError, TypeError, ValueError) as exc:
        raise CorruptRecordError(f"game record: cannot set the game up: {exc}") from None


def apply_recorded(state: GameState, index: int, action: int) -> None:
    """Apply the record's `index`-th action; a refused one is reported as a corrupt record."""
    try:
        state.apply(action)
    except IllegalActionError as exc:
        raise CorruptRecordError(
            f"game record: actions[{index}] cannot be replayed: {exc}"
        ) from None


def verify_checksum(record: GameRecord) -> None:
    """Refuse a record whose stored checksum does not match its content (no-op without one)."""
    if record.checksum is not None and record.checksum != record.content_checksum():
        raise CorruptRecordError(
            "game record: the checksum does not match the content (an action, seed, option or "
            "score was changed after the record was written)"
        )


def replay(record: GameRecord, upto: int | None = None) -> GameState:
    """Play the record's actions (the first `upto` of them) and return the resulting state.

    The game and player count must set up, every action must be legal and none may follow the
    end (each reported by its index), recorded final scores must equal the replayed ones, and a
    stored checksum must match the content: any failure raises `CorruptRecordError`.
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
    verify_checksum(record)
    return state


def iter_states(record: GameRecord) -> Iterator[tuple[int, int | None, GameState]]:
    """Yield (index, action, state before the action) for every recorded action, then
    (len, None, final state). The state object is reused: clone it to keep it."""
    state = start_state(record)
    for i, action in enumerate(record.actions):
        yield i, action, state
        apply_recorded(state, i, action)
    yield len(record.actions), None, state
