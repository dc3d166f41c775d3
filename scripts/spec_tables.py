"""The machinery shared by scripts/<game>_tables.py: markdown helpers and the marked blocks.

Each seeds/<game>.md holds tables that restate numbers of the code between two markers,

    <!-- generated: NAME (scripts/<game>_tables.py) -->
    ...the table...
    <!-- end: NAME -->

and each game's script supplies only what is particular to its game: one function per table
(returning the lines between the markers), the descriptions the code cannot supply, and the
TABLES dict naming them in document order. This module turns that dict into the marked blocks,
rewrites or checks a document, and runs the common command line (`--write`, `--check`, table
names to print); the game scripts and their tests (tests/spec_document_helpers.py) all go
through it, so the three documents follow one format.

scripts/ is not a package: the game scripts are run as files (`python scripts/finca_tables.py`,
which puts scripts/ first on sys.path) and import this module by name, `from spec_tables import
...`; whatever loads a game script from its file path instead (the tests'
spec_document_helpers.load_generator, scripts/docs_site.py) puts scripts/ on sys.path first, so
one module object, spec_tables, serves all three scripts in one process.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TableFunction = Callable[[], list[str]]


# --- markdown helpers -------------------------------------------------------------------------

def row(*cells: object) -> str:
    """One markdown pipe-table row of `cells`, each written with str()."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table(header: tuple[str, ...], rows: Iterable[tuple[object, ...]]) -> list[str]:
    """The lines of a markdown pipe table: header, separator, one line per row."""
    return [row(*header), row(*("---" for _ in header)), *(row(*r) for r in rows)]


def num(x: float) -> str:
    """A number as the tables print it: 10.0 as `10`, 0.5 as `0.5`."""
    return f"{x:g}"


def observation_layout_table(spec) -> list[str]:
    """The block table of an `ObservationSpec` (huerta.envs.core.observation_spec): offset, size
    and meaning of each block, then the total."""
    rows = [(f"`{name}`", offset, size, meaning)
            for name, offset, size, meaning in spec.layout_rows()]
    rows.append(("**total**", "", spec.size, "float32, every value in [0, 1]"))
    return table(("block", "offset", "size", "contents"), rows)


def observation_fields_table(spec, blocks: Iterable[str]) -> list[str]:
    """Every field of `blocks` with its place in the vector: its offset (of the first copy, and
    the stride between copies for a repeated block), size, encoding and meaning."""
    rows = []
    for name in blocks:
        block = spec.block(name)
        start = spec.offset(name)
        for field_name, at, size, encoding, divisor, meaning in spec.field_rows(name):
            where = str(start + at)
            if block.count > 1:
                where += f" + {block.width} × {block.copy_label or 'copy'}"
            rows.append((f"`{name}`", f"`{field_name}`", where, size, divisor, encoding, meaning))
    return table(("block", "field", "offset", "size", "divided by", "encoding", "contents"), rows)


def block_fields_table(spec, block: str) -> list[str]:
    """The fields of one copy of a repeated block: offset in the copy, size, encoding, meaning."""
    rows = [(f"`{name}`", at, size, divisor, encoding, meaning)
            for name, at, size, encoding, divisor, meaning in spec.field_rows(block)]
    return table(("field", "offset in block", "size", "divided by", "encoding", "contents"), rows)


def call_parts(name: str) -> tuple[str, str]:
    """An action name split into its kind and argument: ('BLADE', '3') for BLADE(3),
    ('DELIVER', '1,2') for DELIVER(1,2), ('CONFIRM', '') for CONFIRM."""
    m = re.fullmatch(r"(\w+)\(([\w,]+)\)", name)
    return (m.group(1), m.group(2)) if m else (name, "")


def transitions_table(transitions: Iterable[tuple[str, str, str, str]]) -> list[str]:
    """The phase changes an action can cause: (from, action kind, to, when) rows."""
    rows = [(f"`{a}`", f"`{k}`", f"`{b}`", why) for a, k, b, why in transitions]
    return table(("from", "action", "to", "when"), rows)


def slots_text(spec, block: str, count: int) -> list[str]:
    """Where each of the `count` seat slots of a repeated observation `block` starts."""
    slots = ", ".join(f"slot {k} at {spec.offset(block, copy=k)}" for k in range(count))
    return [f"Player slots start at: {slots}."]


def check_described(described: Iterable[str], found: Iterable[str], what: str) -> None:
    """Stop the script when the descriptions written here (`described`) and what the code has
    (`found`) differ: a new action kind, phase or stage without a description, or one
    described that no longer exists, would otherwise fall out of the document silently."""
    described, found = set(described), set(found)
    if described != found:
        raise SystemExit(f"{what}: not described {sorted(found - described)}, described but "
                         f"gone {sorted(described - found)}")


# --- marked blocks and the command line -------------------------------------------------------

@dataclass(frozen=True)
class SpecTables:
    """The generated blocks of one document.

    doc: the document (seeds/<game>.md); script: the generating script as the markers and the
    stale message name it (scripts/<game>_tables.py); tables: block name -> function giving the
    block's lines, in document order; description: the script's docstring (its first line is the
    --help description); doc_label: how the --write/--check help names the document.
    """

    doc: Path
    script: str
    tables: Mapping[str, TableFunction] = field(repr=False)
    description: str = field(repr=False)
    doc_label: str = "the document"

    @classmethod
    def for_game(
        cls, game: str, tables: Mapping[str, TableFunction], description: str | None,
        doc_label: str = "the document",
    ) -> SpecTables:
        """The blocks of seeds/<game>.md, generated by scripts/<game>_tables.py."""
        return cls(
            doc=ROOT / "seeds" / f"{game}.md", script=f"scripts/{game}_tables.py",
            tables=tables, description=description or "", doc_label=doc_label,
        )

    def begin(self, name: str) -> str:
        """The opening marker of block `name`."""
        return f"<!-- generated: {name} ({self.script}) -->"

    def end(self, name: str) -> str:
        """The closing marker of block `name`."""
        return f"<!-- end: {name} -->"

    def body(self, name: str) -> str:
        """The generated lines of block `name`, without the markers."""
        return "\n".join(self.tables[name]())

    def block(self, name: str) -> str:
        """The marked block for table `name`, as it must appear in the document."""
        return f"{self.begin(name)}\n{self.body(name)}\n{self.end(name)}"

    def block_pattern(self, name: str) -> re.Pattern[str]:
        """Matches block `name` in a document, markers included."""
        return re.compile(
            re.escape(self.begin(name)) + r"\n.*?" + re.escape(self.end(name)), re.DOTALL
        )

    def rewrite(self, text: str) -> str:
        """`text` with every marked block replaced by freshly generated content; a block missing
        from `text` stops the script (SystemExit naming the document and the table)."""
        for name in self.tables:
            pattern = self.block_pattern(name)
            if not pattern.search(text):
                raise SystemExit(f"{self.doc}: no block for table {name!r}")
            text = pattern.sub(lambda _m, n=name: self.block(n), text)
        return text

    def main(self, argv: list[str] | None = None) -> int:
        """The command line: print the named blocks (all without names), or `--write` the
        document, or `--check` it (exit status 1 and a message when it is stale)."""
        names = ", ".join(self.tables)
        summary = next(iter(self.description.splitlines()), None)  # None under python -OO
        parser = argparse.ArgumentParser(description=summary)
        parser.add_argument("tables", nargs="*", help=f"tables to print: {names}")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--write", action="store_true", help=f"rewrite the blocks in {self.doc_label}"
        )
        mode.add_argument(
            "--check", action="store_true", help=f"exit 1 if {self.doc_label} is stale"
        )
        args = parser.parse_args(argv)
        if args.write or args.check:
            old = self.doc.read_text(encoding="utf-8")
            new = self.rewrite(old)
            if args.check:
                if new != old:
                    print(f"{self.doc} is out of date; run {self.script} --write")
                    return 1
                return 0
            self.doc.write_text(new, encoding="utf-8")
            return 0
        unknown = [name for name in args.tables if name not in self.tables]
        if unknown:
            parser.error(f"unknown table(s) {unknown}; valid: {names}")
        for name in args.tables or self.tables:
            print(self.block(name))
            print()
        return 0
