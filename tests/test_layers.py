"""Imports run one way everywhere: no module imports another module's private (_underscore) name
(nor reads one off a module it imported: `picture._label`), and no import cycle joins the
project's modules (envs/, agents/, training/, web/).

Everything is read with `ast` (nothing is imported), so the check is fast and sees every import:
those inside functions count (they run, later); those under `if TYPE_CHECKING:` do not (they
never run). The checker is tested on small fake packages, so that it is known to fail when it
should.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the folders setup.py maps to the huerta packages
PACKAGES = {"envs": "huerta.envs", "agents": "huerta.agents", "training": "huerta.training",
            "web": "huerta.web"}
# violations known and not yet removed, as `Violation.text()` writes them; the list may only
# shrink: a violation missing from it fails, and so does one listed that no longer occurs
KNOWN: list[str] = []


@dataclass(frozen=True, order=True)
class Violation:
    """One import that breaks the layering: where it is and what it imports."""

    module: str
    line: int
    name: str
    why: str

    def text(self) -> str:
        """The violation in one line, without its line number (which moves with every edit)."""
        return f"{self.module} imports {self.name}: {self.why}"


def find_modules(root: Path, packages: dict[str, str]) -> dict[str, Path]:
    """Every module under the package folders of `root`, by dotted name (a package by its
    __init__.py, under the package's own name)."""
    modules = {}
    for folder, package in packages.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = [p for p in path.relative_to(root / folder).with_suffix("").parts
                     if p != "__init__"]
            modules[".".join([package, *parts])] = path
    return modules


def _typing_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` (imports there never run)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for statement in node.body for child in ast.walk(statement))
    return skipped


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a `from ... import` names, relative levels resolved against `module`."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")  # dunders are public


def check_layers(modules: dict[str, Path]) -> list[Violation]:
    """The imports of another module's private names, and one import closing each cycle among
    `modules` (what `find_modules` gives), sorted."""
    edges: dict[str, dict[str, tuple[int, str]]] = {m: {} for m in modules}
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skipped = _typing_only(tree)
        bound = {}  # local name -> the other project module it names (`from . import picture`)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.name != module:
                        edges[module].setdefault(alias.name, (node.lineno, alias.name))
                        if alias.asname:
                            bound[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = _base(module, path.name == "__init__.py", node)
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if target in modules:  # a module imported from its package
                        if target != module:
                            edges[module].setdefault(target, (node.lineno, target))
                            bound[alias.asname or alias.name] = target
                    elif base in modules and base != module:
                        edges[module].setdefault(base, (node.lineno, target))
                        if _private(alias.name):
                            found.append(Violation(module, node.lineno, target,
                                                   "a private name of another module"))
        for node in ast.walk(tree):  # `picture._label(...)`: a private name read off a module
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and _private(node.attr)):
                found.append(Violation(module, node.lineno, f"{bound[node.value.id]}.{node.attr}",
                                       "a private name of another module"))
    for cycle in _cycles(edges):
        first, second = cycle[0], cycle[1 % len(cycle)]
        line, name = edges[first][second]
        found.append(Violation(first, line, name,
                               "closes the import cycle " + " -> ".join([*cycle, first])))
    return sorted(found)


def _cycles(edges: dict[str, dict[str, tuple[int, str]]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm, without
    recursion), as the modules in import order, starting at the smallest name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
    return [_cycle_in(group, edges) for group in groups]


def _cycle_in(group: set[str], edges: dict[str, dict[str, tuple[int, str]]]) -> list[str]:
    """A shortest cycle from the smallest module of `group` back to it, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(edges[node]):
                if target == start:
                    return paths[node]
                if target in group and target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle in the strongly connected group {sorted(group)}")


# --- the project ---------------------------------------------------------------------------------
def test_imports_run_one_way_and_keep_private_names_private():
    found = check_layers(find_modules(ROOT, PACKAGES))
    new = [v for v in found if v.text() not in KNOWN]
    gone = sorted(set(KNOWN) - {v.text() for v in found})
    assert not new, "imports that break the layering:\n" + "\n".join(
        f"  {v.module} line {v.line}: {v.name} ({v.why})" for v in new)
    assert not gone, "no longer violated, remove from KNOWN:\n" + "\n".join(gone)


def test_every_package_folder_holds_modules():
    modules = find_modules(ROOT, PACKAGES)
    for package in PACKAGES.values():
        assert package in modules  # its __init__.py: the folders are where setup.py says
    assert len(modules) > 100


# --- the checker, on fake packages ---------------------------------------------------------------
def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return find_modules(tmp_path, {"pkg": "fake.pkg"})


def test_the_checker_names_an_import_of_a_private_name(tmp_path):
    modules = _package(tmp_path, {
        "__init__.py": "",
        "low.py": "def _helper():\n    pass\n\n\ndef __getattr__(name):\n    pass\n",
        "high.py": "from __future__ import annotations\n\nfrom .low import __getattr__\n\n\n"
                   "def f():\n    from .low import _helper\n",
        "user.py": "from . import low\nimport fake.pkg.low as lower\n\n"
                   "low._helper()\nlower._helper()\nlow.__name__\n",
    })
    private = "a private name of another module"
    assert check_layers(modules) == [
        Violation("fake.pkg.high", 7, "fake.pkg.low._helper", private),
        Violation("fake.pkg.user", 4, "fake.pkg.low._helper", private),
        Violation("fake.pkg.user", 5, "fake.pkg.low._helper", private),
    ]


def test_the_checker_names_an_import_closing_a_cycle_inside_a_function(tmp_path):
    modules = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "import fake.pkg.c\n",
        "c.py": "def late():\n    from .a import thing\n",
        "d.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .a import x\n",
        "e.py": "from .d import y\n",  # d and e: no cycle (d's import never runs)
    })
    (found,) = check_layers(modules)
    assert (found.module, found.line, found.name) == ("fake.pkg.a", 1, "fake.pkg.b")
    assert found.why.endswith("fake.pkg.a -> fake.pkg.b -> fake.pkg.c -> fake.pkg.a")


def test_the_checker_passes_a_package_importing_one_way(tmp_path):
    modules = _package(tmp_path, {
        "__init__.py": "from .top import run\n",
        "low.py": "VALUE = 1\n",
        "mid/__init__.py": "from ..low import VALUE\n",
        "mid/part.py": "from . import VALUE\n",
        "top.py": "from .mid.part import VALUE\n\n\ndef run():\n    return VALUE\n",
    })
    assert check_layers(modules) == []
