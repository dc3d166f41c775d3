"""scripts/reference_ladder.py: a rung is measured against the rungs `--against` names, and its
entry records them and the command that measures it the same way again."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import reference_ladder


def test_a_rung_is_measured_against_the_rungs_named(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    assert reference_ladder.main(["--game", "finca", "--players", "2", "--rungs", "random",
                                  "heuristic", "--games", "2", "--out", str(out)]) == 0
    assert reference_ladder.main(["--game", "finca", "--players", "2", "--rungs", "learned",
                                  "--games", "2", "--against", "heuristic",
                                  "--out", str(out)]) == 0
    entries = json.loads(out.read_text())["ladders"]["finca"]["2"]
    assert entries["heuristic"]["opponents"] == ["random"]  # by default: random and the one below
    assert entries["heuristic"]["command"].endswith("--against random")
    learned = entries["learned"]
    assert learned["opponents"] == ["heuristic"] and learned["games"] == 2
    assert learned["command"].endswith("--against heuristic")
    assert set(learned["opponent_versions"]) == {"heuristic"}


def test_an_unmeasured_rung_to_play_against_is_refused(tmp_path):
    out = tmp_path / "ladder.json"
    with pytest.raises(SystemExit, match="--against search: not a measured rung of finca"):
        reference_ladder.main(["--game", "finca", "--players", "2", "--rungs", "random",
                               "heuristic", "--games", "2", "--against", "search",
                               "--out", str(out)])


def test_a_rung_measured_against_the_one_below_records_it_by_name(tmp_path):
    """`--only-below` plays the rung just below in ladder order; the entry's command names that
    rung, so it measures the same games after a rung is added in between."""
    out = tmp_path / "ladder.json"
    assert reference_ladder.main(["--game", "finca", "--players", "2", "--rungs", "random",
                                  "heuristic", "--games", "2", "--out", str(out)]) == 0
    assert reference_ladder.main(["--game", "finca", "--players", "2", "--rungs", "learned",
                                  "--games", "2", "--only-below", "--out", str(out)]) == 0
    learned = json.loads(out.read_text())["ladders"]["finca"]["2"]["learned"]
    assert learned["opponents"] == ["heuristic"]
    assert learned["command"].endswith("--against heuristic")
    assert "--only-below" not in learned["command"]
