"""What a results page is made of: measurements (commands whose output becomes figures, and the
code those figures measure), tables over their records, and blocks of other files rendered from
them. Plain data: running, rendering and staleness live in their own modules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"

Record = dict[str, Any]  # one measurement's figures and provenance, as the page's JSON holds it
Records = dict[str, Record]  # a page's records by measurement id
Figures = dict[str, Any]
# the figures of a run: (the folder its commands ran in, each command's printed output)
Parse = Callable[[Path, list[str]], Figures]
# a table's rows from one record: each row's cells
Rows = Callable[[Record], list[list[str]]]


@dataclass(frozen=True)
class Agent:
    """An agent code of a game whose play a figure measures: its version follows play (the
    agent's modules, the game's engine and heuristic, its model files)."""

    code: str
    game: str
    label: str = ""

    def name(self) -> str:
        return self.label or f"agent {self.code} ({self.game})"

    def version(self) -> str:
        from huerta.training.agent_specs import agent_identity

        return agent_identity(self.code, self.game).version


@dataclass(frozen=True)
class Code:
    """Code a figure measures that is not an agent (a training method, the speed harness, a
    script): importable modules, scripts and data files of the repository (paths relative to
    its root), followed through their huerta imports, with the game's engine."""

    label: str
    game: str
    modules: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    leave_out: tuple[str, ...] = ()  # packages neither counted nor followed (`play_sources`)

    def name(self) -> str:
        return self.label

    def version(self) -> str:
        """The digest of the modules with their imports, and of the scripts and files by their
        names and bytes (not their paths: two checkouts of one commit agree), the huerta
        modules the scripts import followed too."""
        from huerta.agents.versions import play_sources, play_version

        scripts = [(ROOT / s).resolve() for s in self.scripts]
        imported = [name for name, path in play_sources(self.modules, self.game, scripts,
                                                        self.leave_out)
                    if path not in scripts]
        return play_version(imported, self.game,
                            files=[*(ROOT / f for f in self.files), *scripts],
                            leave_out=self.leave_out)


Measured = Agent | Code


@dataclass(frozen=True)
class Measurement:
    """One measurement: `commands` run in order in a fresh folder (`huerta` is this
    environment's command, `python` its interpreter, `scripts/...` and `examples/...` the
    repository's files), `parse` turns what they wrote and printed into figures, and `measures`
    names the code the figures depend on, whose versions the record keeps. A parse that imports
    figures measured elsewhere (the ladder file) also returns how they were measured, under
    the keys "versions" and "commands"."""

    id: str
    what: str  # one line: what the figures say
    commands: tuple[str, ...]
    parse: Parse
    measures: tuple[Measured, ...]
    files: tuple[tuple[str, str], ...] = ()  # (name, text) written into the folder first
    keep_output: bool = False  # keep the printed output (an example block shows it)
    dear: str = ""  # why a whole-page run skips it (then only --only runs it), e.g. "a
    # 12-minute training run"

    def versions(self) -> dict[str, str]:
        """Today's version of everything the figures measure, by name."""
        return {m.name(): m.version() for m in self.measures}


@dataclass(frozen=True)
class Table:
    """A table over some of a page's records (`ids`, in order; `row` makes each record's
    rows), with a legend saying what every column means; a column saying where each row was
    measured is added, and the measurements' commands under it."""

    columns: tuple[tuple[str, str], ...]  # (header, what the column holds)
    ids: tuple[str, ...]
    row: Rows
    # the rows of a measurement with no record yet (a page still being measured): where this is
    # None, such a measurement has no row and only its command is listed under the table
    pending: Callable[[str], list[list[str]]] | None = None


# a part of a page: markdown text, a table, or markdown made from the records
Part = str | Table | Callable[[Records], str]


@dataclass(frozen=True)
class Page:
    """A results page: its measurements and, in order, the parts its markdown is made of. A
    page `in_progress` is published while its measurements are still being taken (each is hours
    of two cores, so they land over several sessions): it says so under its title, its tables
    show the rows still to measure with the command that measures each, and it must drop the
    flag once every measurement has a record (tests/test_results_pages.py checks both ways)."""

    name: str
    measurements: tuple[Measurement, ...]
    parts: tuple[Part, ...]
    in_progress: bool = False

    def measurement(self, measurement_id: str) -> Measurement:
        for m in self.measurements:
            if m.id == measurement_id:
                return m
        raise KeyError(f"the {self.name} page has no measurement {measurement_id!r} (it has: "
                       + ", ".join(m.id for m in self.measurements) + ")")

    @property
    def markdown_path(self) -> Path:
        return RESULTS / f"{self.name}.md"

    @property
    def json_path(self) -> Path:
        return RESULTS / f"{self.name}.json"


@dataclass(frozen=True)
class Block:
    """A block of another file (the README, a docs page) rendered from the records of every
    page (by page name), between the markers `<!-- results: NAME -->` and
    `<!-- /results: NAME -->`."""

    file: str  # relative to the repository's root
    name: str
    render: Callable[[dict[str, Records]], str]
