"""Corrupt game records at the edges: every one refused with `CorruptRecordError` saying where.

Files over the size limit (refused before parsing), binary and non-UTF-8 bytes, deep nesting,
huge integers, NaN, duplicate keys, out-of-range seeds and actions, versions that are not the
integer versions, and the checksum, which catches a changed game even when it still plays to a
legal end (for every game). Old records without a checksum (version 1) still load and replay.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from huerta.envs.core import records
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import (
    MAX_JSON_DEPTH,
    MAX_RECORD_BYTES,
    RECORD_VERSION,
    GameRecord,
    parse_json,
    replay,
)
from huerta.envs.core.registry import game_names
from huerta.envs.core.transcript import random_record

DOCS_RECORD = Path(__file__).resolve().parents[2] / "docs" / "finca_heuristic_game.json"


def played(game: str, seed: int, action_seed: int, players: int = 2) -> GameRecord:
    """A complete game of random legal moves, the moves drawn from `action_seed`."""
    return random_record(game, players, seed, action_seed=action_seed)


@pytest.fixture(scope="module", params=game_names())
def game_record(request) -> GameRecord:
    return played(request.param, seed=5, action_seed=1)


def refused(data, match: str) -> None:
    """`data` (a dict, or JSON text) is refused by loading or replaying, with `match`."""
    with pytest.raises(CorruptRecordError, match=match):
        record = GameRecord.from_json(data) if isinstance(data, (str, bytes)) else (
            GameRecord.from_dict(data)
        )
        replay(record)


def test_written_records_carry_version_and_checksum(game_record):
    data = game_record.to_dict()
    assert data["version"] == RECORD_VERSION == 2
    assert re.fullmatch(r"[0-9a-f]{64}", data["checksum"])
    loaded = GameRecord.from_json(game_record.to_json())
    assert loaded == game_record and loaded.checksum == data["checksum"]
    assert replay(loaded).scores() == game_record.final_scores


def test_a_changed_game_that_still_plays_to_the_end_is_caught_by_the_checksum(game_record):
    """Other legal moves from the same deal give a different, complete, self-consistent game
    (its own final scores): only the checksum shows that the record was changed."""
    other = played(game_record.game, seed=game_record.seed, action_seed=2)
    assert other.actions != game_record.actions
    data = game_record.to_dict()
    data.update(actions=other.actions, final_scores=other.final_scores)
    refused(data, "checksum does not match the content")
    # the same change in a record without a checksum (version 1) replays: the checksum caught it
    del data["checksum"]
    data["version"] = 1
    replay(GameRecord.from_dict(data))


@pytest.mark.parametrize("field", ["seed", "options", "final_scores", "num_players"])
def test_any_changed_content_field_breaks_the_checksum(game_record, field):
    data = game_record.to_dict()
    record = GameRecord.from_dict(data)
    changed = {
        "seed": record.seed + 1,
        "options": {"colour": "red"},
        "final_scores": [s + 1 for s in record.final_scores],
        "num_players": record.num_players + 1,
    }[field]
    setattr(record, field, changed)
    assert record.content_checksum() != data["checksum"]
    with pytest.raises(CorruptRecordError):
        records.verify_checksum(record)


def test_a_version_1_record_without_checksum_still_replays(game_record):
    data = game_record.to_dict()
    del data["checksum"]
    for version in (1, None):
        if version is None:
            del data["version"]  # records from before the version field
        else:
            data["version"] = version
        record = GameRecord.from_dict(data)
        assert record.version == 1 and record.checksum is None
        assert replay(record).scores() == game_record.final_scores
        assert GameRecord.from_json(record.to_json()).checksum  # saved again: version 2


def test_the_docs_record_loads_with_a_valid_checksum_and_replays():
    """docs/finca_heuristic_game.json (written by scripts/finca_pictures.py) is a version-2
    record: its checksum matches its content and it replays to its final scores."""
    record = GameRecord.load(DOCS_RECORD)
    assert record.version == 2 and record.game == "finca"
    assert record.checksum == record.content_checksum()
    assert replay(record).scores() == record.final_scores


# name -> (how to spoil the record's data, the message expected)
FIELD_CORRUPTIONS = {
    "negative-seed": (lambda d: d.update(seed=-1), r"'seed' = -1 is out of range"),
    "huge-seed": (lambda d: d.update(seed=2**63), r"'seed' = 9223372036854775808 is out of range"),
    "float-seed": (lambda d: d.update(seed=3.0), "field 'seed' must be int, got 3.0"),
    "bool-seed": (lambda d: d.update(seed=True), "field 'seed' must be int, got True"),
    "negative-action": (lambda d: d["actions"].__setitem__(2, -1), r"actions\[2\] = -1 is out"),
    "huge-action": (lambda d: d["actions"].__setitem__(4, 2**40), r"actions\[4\] = 1099511627776"),
    "bool-action": (lambda d: d["actions"].__setitem__(1, True), r"actions\[1\] is True"),
    "version-string": (lambda d: d.update(version="2"), "'version' must be an integer"),
    "version-float": (lambda d: d.update(version=2.0), "'version' must be an integer"),
    "version-bool": (lambda d: d.update(version=True), "'version' must be an integer"),
    "version-0": (lambda d: d.update(version=0), "version 0 is not supported"),
    "version-3": (lambda d: d.update(version=3), "version 3 is not supported"),
    "missing-checksum": (lambda d: d.pop("checksum"), "missing field 'checksum'"),
    "short-checksum": (lambda d: d.update(checksum="abc"), "'checksum' must be 64 lowercase hex"),
    "checksum-in-version-1": (lambda d: d.update(version=1), r"unknown field\(s\) \['checksum'\]"),
    "nested-option": (lambda d: d["options"].update(x={"y": 1}), r"options\['x'\] must be"),
    "scores-not-a-list": (lambda d: d.update(final_scores="high"), "'final_scores' must be a list"),
    "float-score": (lambda d: d["final_scores"].__setitem__(0, 1.5), r"final_scores\[0\] = 1.5"),
    "scores-of-wrong-length": (lambda d: d["final_scores"].append(0), "differ from the replayed"),
    "record-not-an-object": (lambda d: d.clear(), "missing field 'game'"),
}


@pytest.mark.parametrize("corruption", FIELD_CORRUPTIONS)
def test_corrupt_fields_say_which(game_record, corruption):
    data = game_record.to_dict()
    mutate, message = FIELD_CORRUPTIONS[corruption]
    mutate(data)
    refused(data, message)
    refused(json.dumps(data), message)  # the same through the JSON loader


def _json_with(game_record, field: str, raw: str) -> str:
    """The record's JSON with `field`'s value replaced by the raw JSON text `raw`."""
    data = game_record.to_dict()
    data[field] = "@@"
    return json.dumps(data).replace('"@@"', raw)


@pytest.mark.parametrize(
    "field, raw, message",
    [
        ("seed", "1" * 5000, "an integer of 5000 digits"),
        ("seed", "-" + "9" * 40, "an integer of 40 digits"),
        ("seed", "NaN", "NaN is not a number a record may hold"),
        ("seed", "Infinity", "Infinity is not a number"),
        ("seed", "1e999", "the number '1e999' is out of range"),
        ("options", "[" * 100_000, f"nests deeper than {MAX_JSON_DEPTH} levels"),
        ("options", '{"a": ' * 40 + "1" + "}" * 40, f"nests deeper than {MAX_JSON_DEPTH} levels"),
    ],
    ids=["digits", "negative-digits", "nan", "infinity", "float-overflow", "deep", "deep-dict"],
)
def test_malformed_json_values_are_refused(game_record, field, raw, message):
    refused(_json_with(game_record, field, raw), message)


def test_nesting_error_gives_line_and_column():
    text = '{\n  "a": ' + "[" * 30 + "]" * 30 + "}"
    with pytest.raises(CorruptRecordError, match=r"line 2, column \d+"):
        parse_json(text)
    # brackets inside strings do not count
    assert parse_json(json.dumps({"a": "[" * 100})) == {"a": "[" * 100}


def test_duplicate_keys_are_refused(game_record):
    text = game_record.to_json()
    refused(text[:-1] + ',"seed":9}', "duplicate key 'seed'")


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", r"not valid JSON \(line 1, column 1\)"),
        (b"PK\x03\x04\x00\x00binary", "is binary, not JSON text \\(a NUL byte at offset 4\\)"),
        (b'{"game": "finca\xff"}', r"is not UTF-8 text \(byte 15"),
        (b"\xef\xbb\xbf[1]", "must be a JSON object, got list"),  # a BOM is fine, a list is not
        (b'{"game": ', "not valid JSON"),
    ],
    ids=["empty", "binary", "latin-1", "bom-list", "cut-short"],
)
def test_bad_files_say_why(tmp_path, content, message):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(CorruptRecordError, match=message):
        GameRecord.load(path)


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    with path.open("wb") as f:  # a sparse file: no disk space, all NUL bytes
        f.truncate(MAX_RECORD_BYTES + 1)

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed a file over the size limit")

    monkeypatch.setattr(records, "parse_json", no_parsing)
    with pytest.raises(CorruptRecordError, match=r"1,048,577 bytes, over the 1,048,576-byte"):
        GameRecord.load(path)


def test_text_over_the_size_limit_is_refused():
    with pytest.raises(CorruptRecordError, match="over the 1,048,576-byte limit"):
        GameRecord.from_json(" " * (MAX_RECORD_BYTES + 1))


def test_missing_file_and_folder_say_so(tmp_path):
    with pytest.raises(CorruptRecordError, match="No such file"):
        GameRecord.load(tmp_path / "nope.json")
    with pytest.raises(CorruptRecordError, match="is a folder"):
        GameRecord.load(tmp_path)


def test_saved_record_round_trips_through_a_file(game_record, tmp_path):
    path = tmp_path / "game.json"
    game_record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == game_record
    assert replay(loaded).scores() == game_record.final_scores
