"""scripts/decision_parts.py: a searching agent's decision time is split into its parts, the
network's parts of the learned search inside its decisions' time. The script wraps the agents'
methods in its process; each test here has them restored after it (`wrapped_methods_restored`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import decision_parts


@pytest.fixture(autouse=True)
def wrapped_methods_restored(monkeypatch):
    """The methods the script wraps with its timers, put back after each test."""
    for _, owner, name in decision_parts.PARTS:
        monkeypatch.setattr(owner, name, getattr(owner, name))


def rows(text: str) -> dict[str, tuple[float, float]]:
    """The printed parts: name -> (ms per decision, ms per simulation)."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"(.+?)\s+([\d.]+)\s+([\d.]+)$", line)
        if match:
            found[match.group(1).strip()] = (float(match.group(2)), float(match.group(3)))
    return found


def test_the_learned_search_shows_its_network_parts_inside_its_time(capsys):
    assert decision_parts.main(["--game", "finca", "--games", "1", "--code", "learned"]) == 0
    out = capsys.readouterr().out
    header = re.search(r"(\d+) searched decisions, ([\d.]+) s each", out)
    assert header and int(header.group(1)) > 0
    parts = rows(out)
    simulated, leaves = parts["simulations"], parts["of which the network's score of a "
                                                    "cut-off simulation"]
    default = parts["the default: the afterstate agent's turn search"]
    assert 0 < leaves[0] < simulated[0]  # the leaves are timed inside the simulations
    assert default[0] > 0
    assert simulated[0] <= 1000 * float(header.group(2))  # inside the decisions' own time


def test_the_search_agent_has_simulations_only(capsys):
    assert decision_parts.main(["--game", "finca", "--games", "1", "--code", "search:4"]) == 0
    parts = rows(capsys.readouterr().out)
    assert list(parts) == ["simulations"]
    assert parts["simulations"][0] > 0
