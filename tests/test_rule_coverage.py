"""Every rule clause id in seeds/<game>.md is named by at least one test.

Which document is a game's specification, the prefixes of its clause ids and how many clauses it
holds at least are the game's own facts (`GameSpec.spec_document`, `clause_prefixes`,
`clause_minimum`), so a new game is checked here with no line of this file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from huerta.envs.core.registry import game_specs

ROOT = Path(__file__).resolve().parent.parent
GAME_SPECS = game_specs()
PREFIXES = sorted({prefix for spec in GAME_SPECS for prefix in spec.clause_prefixes})
CLAUSE = re.compile(rf"^\s*[-*] \*\*((?:{'|'.join(PREFIXES)})-\d+)\*\*", re.MULTILINE)
# spec document (under seeds/) -> the clause ids it holds at least
EXPECTED_MINIMUM = {Path(spec.spec_document).name: spec.clause_minimum for spec in GAME_SPECS}


def clause_ids(spec: Path) -> list[str]:
    return CLAUSE.findall(spec.read_text())


def all_test_sources() -> str:
    return "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))


SPECS = sorted((ROOT / "seeds").glob("*.md"))


def test_every_game_has_a_spec():
    assert {p.name for p in SPECS} >= set(EXPECTED_MINIMUM)
    for spec in GAME_SPECS:
        assert spec.spec_document == f"seeds/{Path(spec.spec_document).name}", spec.name
        assert spec.clause_prefixes, f"{spec.name}: no clause id prefixes"


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_every_clause_id_is_named_by_a_test(spec):
    ids = clause_ids(spec)
    assert len(ids) >= EXPECTED_MINIMUM.get(spec.name, 1), f"{spec.name}: too few clause ids"
    assert len(ids) == len(set(ids)), f"{spec.name}: duplicate clause ids"
    text = all_test_sources()
    # an id counts when a test names it exactly (FIN-05 is not satisfied by FIN-051)
    missing = [i for i in ids if not re.search(rf"\b{re.escape(i)}\b", text)]
    assert not missing, f"{spec.name}: clause ids named by no test: {', '.join(missing)}"


def _defined(doc: str, prefixes: tuple[str, ...]) -> list[str]:
    """The ids with `prefixes` that bullets of `doc` define (`- **T-05** ...`)."""
    alternatives = "|".join(prefixes)
    return re.findall(rf"^- \*\*((?:{alternatives})-\d+)\*\* \S", doc, re.MULTILINE)


@pytest.mark.parametrize(
    "game", [s for s in GAME_SPECS if s.scenario_prefixes], ids=lambda s: s.name
)
def test_every_scenario_id_a_test_names_is_defined_by_the_spec(game):
    """The scenario ids (`T-05`, `TS-12`, `ZS-03`) that the game's tests name are defined in its
    spec, each by exactly one bullet, and every scenario the spec defines is named by a test.
    Both directions read only the game's own tests (tests/<game name>/): games share prefixes
    (Finca's and Mi Tierra's T-05), so another game's test naming an id proves nothing."""
    defined = _defined((ROOT / game.spec_document).read_text(), game.scenario_prefixes)
    assert len(defined) == len(set(defined)), f"{game.spec_document}: duplicate scenario ids"
    folder = ROOT / "tests" / game.name
    assert folder.is_dir(), f"{game.name}: no tests/{game.name}/ folder for its scenario tests"
    alternatives = "|".join(game.scenario_prefixes)
    cited = set()
    for path in folder.rglob("*.py"):
        cited |= set(re.findall(rf"\b(?:{alternatives})-\d+\b", path.read_text()))
    assert sorted(cited - set(defined)) == [], f"{game.spec_document}: scenario ids not defined"
    text = "\n".join(p.read_text() for p in folder.rglob("test_*.py"))
    unnamed = [i for i in defined if not re.search(rf"\b{re.escape(i)}\b", text)]
    assert not unnamed, (f"{game.spec_document}: scenarios named by no test in tests/{game.name}/:"
                         f" {', '.join(unnamed)}")


# an id range: an id, two dots or an ellipsis (a line break allowed), then a later number with or
# without the prefix; ids are listed one by one, so that a search for one id finds every place
# that cites it
ID_RANGE = re.compile(r"\b([A-Z]{1,4})-\d+\s*(?:\.\.\.?|…)\s*(?:\1-)?\d+\b")


def test_no_code_test_or_spec_cites_an_id_range():
    """No module, test or document cites a range of ids (a first id, dots, a last one): each id
    is written out, so that a search for FIN-19 finds every place about it."""
    found = []
    for folder in ("envs", "agents", "training", "tests", "seeds", "docs", "scripts", "web"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md") and path.is_file():
                text = path.read_text(encoding="utf-8")
                for match in ID_RANGE.finditer(text):
                    line = text.count("\n", 0, match.start()) + 1
                    found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert not found, "id ranges cited:\n" + "\n".join(found)
