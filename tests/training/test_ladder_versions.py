"""The shipped ladder was measured on the code that plays now: every rung's version, and the
versions of the rungs it was measured against, match the agents' versions today. A failure
names the rung and the command that measures it again."""

from __future__ import annotations

import pytest

from huerta.training.agent_specs import agent_identity
from huerta.training.evaluation.ladder import LADDER_FILE, load_ladder_file


def _rungs():
    ladders = load_ladder_file(LADDER_FILE)["ladders"]
    return [pytest.param(game, int(players), code, entry, id=f"{game}-{players}p-{code}")
            for game, counts in ladders.items() for players, rungs in counts.items()
            for code, entry in rungs.items()]


def _command(game: str, players: int, code: str, entry: dict) -> str:
    return ".venv/bin/python " + entry.get(
        "command", f"scripts/reference_ladder.py --game {game} --players {players} --rungs {code}"
                   " --workers 2")


@pytest.mark.parametrize(("game", "players", "code", "entry"), _rungs())
def test_ladder_rung_was_measured_on_the_code_that_plays_now(game, players, code, entry):
    now = agent_identity(code, game).version
    assert entry.get("version") == now, (
        f"ladder rung {code!r} of {game} at {players} player(s) was measured at version "
        f"{entry.get('version')} on {entry.get('date')}; what it plays is now version {now}. "
        f"Measure it again: {_command(game, players, code, entry)}")
    for opponent, version in entry.get("opponent_versions", {}).items():
        current = agent_identity(opponent, game).version
        assert version == current, (
            f"ladder rung {code!r} of {game} at {players} player(s) was rated against "
            f"{opponent} version {version}; {opponent} is now version {current} (re-measure "
            f"{opponent} first, then this rung: {_command(game, players, code, entry)})")


def test_every_rung_records_how_to_measure_it_again():
    for game, players, code, entry in (p.values for p in _rungs()):
        assert entry.get("command", "").startswith("scripts/reference_ladder.py"), (game, code)
        assert f"--game {game} " in entry["command"] and f"--rungs {code} " in entry["command"]
        assert entry.get("commit"), (game, players, code)
