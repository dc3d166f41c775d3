"""Plumbing shared by the tests of seeds/<game>.md (tests/<game>/test_*spec_document.py).

Each game's document holds generated table blocks (scripts/<game>_tables.py, built on
scripts/spec_tables.py), rule clauses (`- **FIN-01** ...`) and gaps (`- **G-01** question?
**Decision:** ... **Why:** ...`). The three test modules check them the same way, so this module
holds that part once:

* SpecDocument loads the game's generator script, reads the document, cuts out and parses its
  marked blocks, and builds the two tests that hold the document to the script ("every block is
  current", "--check passes");
* the assert_* functions are the checks that read alike in all three modules (clauses defined
  once in order, gaps with question, decision and reason, parsed tables against the code and
  against play).

Imported by name (`from spec_document_helpers import ...`) like conftest's `games`: pytest puts
tests/ on sys.path because of tests/conftest.py, which also registers this module for assertion
rewriting so a failing check here reports its values. What differs between the games (the
played fixtures, observation decoding, the component tables) stays in each game's module.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from huerta.envs.core.aec import BoardGameAEC
from huerta.envs.core.rewards import REWARD_MODES

ROOT = Path(__file__).resolve().parent.parent

Row = dict[str, str]


def load_generator(game: str) -> ModuleType:
    """scripts/<game>_tables.py loaded from its file (scripts/ is not a package); registered in
    sys.modules as <game>_tables unless a module of that name is there already. scripts/ goes
    on sys.path first, as running the script puts it there: it imports its sibling spec_tables."""
    name = f"{game}_tables"
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def _clean(cell: str) -> str:
    return cell.strip().strip("`").replace("**", "").strip()


class SpecDocument:
    """seeds/<game>.md together with scripts/<game>_tables.py, which generates its blocks.

    gap_prefixes: the id prefixes of the document's gaps (G, and ZG for the Alpujarras solo
    game); `gap_def` matches one gap bullet as (id, body).
    """

    def __init__(self, game: str, gap_prefixes: Sequence[str] = ("G",)) -> None:
        self.game = game
        self.path = ROOT / "seeds" / f"{game}.md"
        self.label = f"seeds/{game}.md"
        self.tables = load_generator(game)
        self.generated = self.tables.GENERATED
        prefixes = "|".join(gap_prefixes)
        self.gap_def = re.compile(
            rf"^- \*\*((?:{prefixes})-\d+)\*\* (.*?)(?=^- \*\*|^#|\Z)", re.MULTILINE | re.DOTALL
        )

    def read(self) -> str:
        """The document's text."""
        return self.path.read_text(encoding="utf-8")

    def doc_fixture(self) -> Callable[[], str]:
        """A module-scoped fixture `doc` holding the document's text; assign it to `doc` in the
        test module."""

        def doc() -> str:
            return self.read()

        return pytest.fixture(scope="module", name="doc")(doc)

    def block_text(self, doc: str, name: str) -> str:
        """The lines between the markers of block `name` (which must occur exactly once)."""
        begin = self.generated.begin(name)
        end = self.generated.end(name)
        assert doc.count(begin) == 1, f"{self.label} needs exactly one block {begin}"
        start = doc.index(begin) + len(begin)
        stop = doc.index(end, start)
        return doc[start:stop].strip("\n")

    def parse_table(self, doc: str, name: str) -> list[Row]:
        """The markdown pipe table of block `name` as a list of {header: cell} rows."""
        lines = [ln for ln in self.block_text(doc, name).splitlines() if ln.startswith("|")]
        assert len(lines) >= 2, f"block {name!r} holds no table"
        header = [_clean(c) for c in lines[0].strip("|").split("|")]
        assert all(set(c.strip()) <= {"-", ":"} for c in lines[1].strip("|").split("|"))
        rows = []
        for line in lines[2:]:
            cells = [_clean(c) for c in line.strip("|").split("|")]
            assert len(cells) == len(header), f"{name}: row {line!r} has {len(cells)} cells"
            rows.append(dict(zip(header, cells, strict=True)))
        return rows

    def fields(self, doc: str, name: str) -> list[tuple[str, int, int, float]]:
        """(field, offset in block, size, divided by) of the field table of block `name`."""
        return [
            (r["field"], int(r["offset in block"]), int(r["size"]), float(r["divided by"]))
            for r in self.parse_table(doc, name)
        ]

    def gaps(self, doc: str) -> list[tuple[str, str]]:
        """(id, body) of every gap bullet, in document order."""
        return self.gap_def.findall(doc)

    def gap(self, doc: str, gid: str) -> str:
        """The body of gap `gid` with its whitespace runs collapsed to single spaces."""
        return " ".join(dict(self.gaps(doc))[gid].split())

    def generator_tests(self) -> tuple[Callable[..., None], Callable[[], None]]:
        """The tests holding the document to its script: (test_generated_block_is_current,
        test_generator_check_mode_passes); assign them to those names in the test module."""
        script = self.generated.script

        @pytest.mark.parametrize("name", list(self.generated.tables))
        def test_generated_block_is_current(doc: str, name: str) -> None:
            assert self.block_text(doc, name) == self.generated.body(name), (
                f"{self.label} block {name!r} is stale; run .venv/bin/python {script} --write"
            )

        def test_generator_check_mode_passes() -> None:
            assert self.generated.main(["--check"]) == 0

        test_generated_block_is_current.__doc__ = (
            f"Each generated block equals the script's output (run {script} --write)."
        )
        test_generator_check_mode_passes.__doc__ = f"{script} --check finds {self.label} current."
        return test_generated_block_is_current, test_generator_check_mode_passes


# --- rule clauses, gaps and sections ----------------------------------------------------------

def assert_clauses_defined_once_in_order(doc: str, prefix: str, count: int) -> None:
    """`prefix`-01 ... `prefix`-`count` are each defined by exactly one bullet, in order."""
    found = re.findall(rf"^- \*\*({prefix}-\d+)\*\* \S", doc, re.MULTILINE)
    expected = [f"{prefix}-{i:02d}" for i in range(1, count + 1)]
    counts = Counter(found)
    assert [i for i in expected if counts[i] != 1] == [], f"{prefix} ids not defined exactly once"
    assert sorted(set(found) - set(expected)) == [], f"unknown {prefix} ids defined"
    assert found == expected, f"{prefix} clauses must keep the analysis numbering and order"


def assert_ids_defined_once_in_order(ids: list[str], expected: list[str]) -> None:
    """The gap ids found are exactly `expected`: each once, none unknown, in order."""
    counts = Counter(ids)
    assert [i for i in expected if counts[i] != 1] == [], "gap ids not defined exactly once"
    assert sorted(set(ids) - set(expected)) == [], "unknown gap ids defined"
    assert ids == expected, "gaps must keep their numbering and order"


def assert_gap_states_question_decision_reason(gid: str, body: str) -> None:
    """A gap states its question first, then one **Decision:**, then one **Why:**."""
    assert "?" in body.split("**Decision:**")[0], f"{gid}: state the question first"
    assert body.count("**Decision:**") == 1, f"{gid}: one **Decision:**"
    assert body.count("**Why:**") == 1, f"{gid}: one **Why:**"
    assert body.index("**Decision:**") < body.index("**Why:**"), gid


def assert_sections_exist(doc: str, titles: Iterable[str]) -> None:
    """Every title in `titles` is a heading (any level) of the document."""
    headings = set(re.findall(r"^#+ (.+)$", doc, re.MULTILINE))
    for title in titles:
        assert title in headings, f"missing section {title!r}"


def data_decisions_section(doc: str) -> str:
    """The text of the section "Where our data is a decision, not the printed game"."""
    section = doc.split("## Where our data is a decision, not the printed game", 1)[1]
    return section.split("\n## ", 1)[0]


def assert_reward_modes_documented(gap_text: str, default_phrase: str) -> None:
    """`gap_text` names the AEC's default reward mode in `default_phrase` (with `{default}` in
    it) and quotes `reward="..."` for exactly the reward modes of the code."""
    default = inspect.signature(BoardGameAEC.__init__).parameters["reward"].default
    assert default_phrase.format(default=default) in gap_text
    for mode in REWARD_MODES:
        assert f'"{mode}"' in gap_text, f"the gap must describe reward mode {mode!r}"
    assert set(re.findall(r'reward="(\w+)"', gap_text)) == set(REWARD_MODES)


# --- parsed tables against the code and against play ------------------------------------------

def assert_numbers_table(rows: list[Row], components: ModuleType) -> None:
    """Each row's `value` is the value of the components.py constant the row names."""
    assert rows, "numbers table is empty"
    for r in rows:
        assert int(r["value"]) == getattr(components, r["constant"]), r["constant"]


def assert_action_table_ids_and_names(
    rows: list[Row], n_actions: int, spec_actions: int, action_name: Callable[[int], str]
) -> None:
    """One row per action id 0 ... n-1, named as action_name() names it."""
    assert len(rows) == n_actions == spec_actions
    assert [int(r["id"]) for r in rows] == list(range(n_actions))
    for r in rows:
        assert r["name"] == action_name(int(r["id"]))


def assert_documented_ids_match_play(
    documented: set[tuple[int, str]], seen: set[tuple[int, str]]
) -> None:
    """The (action id, phase) pairs of the action table are exactly those seen legal in play."""
    assert sorted(seen - documented) == [], "legal in play but not in the action table"
    assert sorted(documented - seen) == [], "in the action table but never legal in play"


def assert_enum_table(rows: list[Row], column: str, enum: type[Enum]) -> None:
    """The (value, `column`) rows list the members of `enum` in order."""
    assert [(int(r["value"]), r[column]) for r in rows] == [(m.value, m.name) for m in enum]


def assert_transitions_match_play(
    rows: list[Row], phases: type[Enum], changes: set[tuple[str, str, str]]
) -> None:
    """The (from, action kind, to) rows name only phases and are exactly the changes seen."""
    documented = {(r["from"], r["action"], r["to"]) for r in rows}
    names = {p.name for p in phases}
    assert {a for a, _, _ in documented} | {b for _, _, b in documented} <= names
    assert sorted(changes - documented) == [], "phase changes missing from the document"
    assert sorted(documented - changes) == [], "documented phase changes never seen in play"


def assert_layout_table(
    rows: list[Row], layout: Sequence[tuple[str, int, int]], obs_size: int
) -> None:
    """(block, offset, size) rows equal OBS_LAYOUT, followed by a total row of OBS_SIZE."""
    total = rows[-1]
    assert total["block"] == "total"
    assert int(total["size"]) == obs_size
    assert [(r["block"], int(r["offset"]), int(r["size"])) for r in rows[:-1]] == list(layout)


def assert_fields_match(
    parsed: list[tuple[str, int, int, float]], fields: Sequence[tuple[str, int, float]]
) -> None:
    """A parsed field table lists the code's (name, size, divisor) fields at running offsets."""
    assert [(n, s, d) for n, _, s, d in parsed] == [(n, s, float(d)) for n, s, d in fields]
    offsets = np.cumsum([0] + [s for _, s, _ in fields])[:-1].tolist()
    assert [o for _, o, _, _ in parsed] == offsets
