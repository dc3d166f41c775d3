"""Every rule clause id in seeds/<game>.md is named by at least one test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLAUSE = re.compile(r"^\s*[-*] \*\*((?:FIN|ALP|ZARA|MIT)-\d+)\*\*", re.MULTILINE)
EXPECTED_MINIMUM = {"finca.md": 52, "alpujarras.md": 94, "mi_tierra.md": 106}


def clause_ids(spec: Path) -> list[str]:
    return CLAUSE.findall(spec.read_text())


def all_test_sources() -> str:
    return "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))


SPECS = sorted((ROOT / "seeds").glob("*.md"))


def test_every_game_has_a_spec():
    assert {p.name for p in SPECS} >= set(EXPECTED_MINIMUM)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_every_clause_id_is_named_by_a_test(spec):
    ids = clause_ids(spec)
    assert len(ids) >= EXPECTED_MINIMUM.get(spec.name, 1), f"{spec.name}: too few clause ids"
    assert len(ids) == len(set(ids)), f"{spec.name}: duplicate clause ids"
    text = all_test_sources()
    # an id counts when a test names it exactly (FIN-05 is not satisfied by FIN-051)
    missing = [i for i in ids if not re.search(rf"\b{re.escape(i)}\b", text)]
    assert not missing, f"{spec.name}: clause ids named by no test: {', '.join(missing)}"
