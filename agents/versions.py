"""Agent versions that follow play: a digest of everything an agent's moves depend on.

A rating is only worth citing while the code that earned it is the code that plays, so an
agent's version (what the leaderboard and the benchmark ladder record) covers:

- the agent's own module and every huerta module it imports, at the top of a file or inside a
  function (`learned` loads the afterstate player only when its model asks for it);
- the game's engine: the module that declares the game's `GameSpec` and what it imports, so a
  rule change is a new version of every agent, `random` included;
- the parts found by the game's name rather than by an import (`BY_NAME`: the game's heuristic
  package, which `search`, `learned` and MCTS rollouts play);
- the files the agent reads: model files, policy folders.

Left out, so that editing them keeps every rating: modules that only name, draw or describe
(`DESCRIBES_ONLY`: the game registry, legends, pictures, text renderers), and every other
game's packages (one game's play never runs another's code). Imports are found by reading the
source (`ast`), not by running it, and only modules of the `huerta` package are followed.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
from collections.abc import Iterable
from pathlib import Path
from typing import Any

VERSION_DIGITS = 12
PACKAGE = "huerta"

# modules found by a game's name at run time (importlib), not by an import statement: when the
# first is among an agent's modules, the game's own second one is too
BY_NAME = {
    "huerta.agents.heuristics": "huerta.agents.heuristics.{game}",
}

# modules that name, draw or describe but never choose a move; `.picture` and `.render` are
# every game's board picture and text rendering
DESCRIBES_ONLY = frozenset({
    "huerta.envs.core.registry",
    "huerta.envs.core.legend",
    "huerta.envs.core.pictures",
    "huerta.envs.core.transcript",
})
DESCRIBES_ONLY_SUFFIXES = (".picture", ".render")

# the packages that hold one game each: another game's package is never part of a version
GAME_PACKAGES = ("huerta.envs.", "huerta.agents.heuristics.")


def play_version(modules: Iterable[str], game: str, files: Iterable[Path] = (),
                 scripts: Iterable[Path] = (), leave_out: Iterable[str] = ()) -> str:
    """The version (first `VERSION_DIGITS` hex digits of a sha256) of an agent of `game` that
    plays with `modules` (importable names) and `scripts` (source files outside the package,
    as a user's policy), their huerta imports followed, and reads `files` (a folder counts
    with every file inside it); `leave_out` as in `play_sources`."""
    digest = hashlib.sha256()
    for name, path in play_sources(modules, game, scripts, leave_out):
        digest.update(f"module {name}\0".encode())
        digest.update(path.read_bytes())
    for file in files:
        _digest_path(digest, Path(file))
    return digest.hexdigest()[:VERSION_DIGITS]


def play_sources(modules: Iterable[str], game: str, scripts: Iterable[Path] = (),
                 leave_out: Iterable[str] = ()) -> list[tuple[str, Path]]:
    """(module name, source file) of every module whose code an agent of `game` playing with
    `modules` and `scripts` runs, by name (a script by its path): the closure of their huerta
    imports, the game's engine and the parts found by the game's name, less what only
    describes and other games' packages. `leave_out` names packages neither counted nor
    followed: code that measures agents leaves out `huerta.agents`, whose agents are
    versioned one by one."""
    from huerta.envs.core.registry import GAME_MODULES, resolve_game

    game = resolve_game(game)[0].name
    other_games = [g for g in GAME_MODULES if g != game]
    left_out = tuple(leave_out)
    todo = [*modules, GAME_MODULES[game]]
    found: dict[str, Path] = {}
    for script in scripts:
        script = Path(script).resolve()
        found[str(script)] = script
        todo.extend(_imports(script.stem, script))
    while todo:
        name = todo.pop()
        if (name in found or _left_out(name, other_games)
                or any(name == p or name.startswith(f"{p}.") for p in left_out)):
            continue
        path = _source(name)
        if path is None:
            continue
        found[name] = path
        todo.extend(_imports(name, path))
        if name in BY_NAME:
            todo.append(BY_NAME[name].format(game=game))
    return sorted(found.items())


def _left_out(name: str, other_games: list[str]) -> bool:
    """Whether module `name` is outside every version: it only describes, or it belongs to
    another game."""
    if name in DESCRIBES_ONLY or name.endswith(DESCRIBES_ONLY_SUFFIXES):
        return True
    return any(name == f"{prefix}{other}" or name.startswith(f"{prefix}{other}.")
               for prefix in GAME_PACKAGES for other in other_games)


@functools.lru_cache(maxsize=1024)
def _source(name: str) -> Path | None:
    """The .py file of module `name`, or None (not found, or not Python source)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


@functools.lru_cache(maxsize=1024)
def _imports(name: str, path: Path) -> tuple[str, ...]:
    """The huerta modules that module `name` (source `path`) imports anywhere in its code, but
    under `if TYPE_CHECKING:`; `from package import name` counts the submodule when there is
    one; none for a file that is not Python source (code run from a notebook or a page counts
    by its bytes alone)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return ()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(package, node.module, node.level)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names
                         if _source(f"{base}.{alias.name}") is not None)
    return tuple(sorted(n for n in names if n == PACKAGE or n.startswith(f"{PACKAGE}.")))


def _runtime_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node of `tree` but those under an `if TYPE_CHECKING:` block (never run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                stack.extend(child.orelse)
            else:
                stack.append(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _absolute(package: str, module: str | None, level: int) -> str:
    """The absolute name of `from <level dots><module> import ...` inside `package`."""
    if not level:
        return module or ""
    base = package
    for _ in range(level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{module}" if module else base


def _digest_path(digest: Any, path: Path) -> None:
    """Add a file's name and bytes (or a folder's name and its files', each after its relative
    name) to `digest`."""
    digest.update(f"file {path.name}\0".encode())
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            digest.update(str(file.relative_to(path)).encode() + b"\0")
        with file.open("rb") as f:
            for chunk in iter(lambda f=f: f.read(1 << 20), b""):
                digest.update(chunk)
