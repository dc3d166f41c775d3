"""The rules are free of the speed layer (issue 16): a game's rule modules, `rules.py` and the
modules of its package that it imports (transitively), never import the observation, never call
an observation writer and never read or write a cache key, a dirty flag or the observation's
cached parts. They report what an action changed in the game's terms, and the observation
alone turns that report into writes; arrows run from the observation to the rules, not back.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from huerta.envs.core.registry import game_specs

# what belongs to the speed layer: cache keys and flags, the observation's cached parts
FORBIDDEN_ATTRIBUTES = frozenset({
    "version", "_mask_version", "_legal_version", "market_version", "material_version",
    "board_version", "seat_versions", "dirty", "_views", "_players", "_obs_cache",
    "_row_cache", "_board_cache",
})
SPEED_MODULES = ("observation",)  # the fast writer; observation_spec.py is the declaration


def _package_dir(game: str) -> Path:
    return Path(importlib.import_module(f"huerta.envs.{game}").__file__).parent


def _local_imports(tree: ast.AST) -> set[str]:
    """The sibling modules a module imports (`from .x import ...`, `from . import x`), at run
    time: imports for type checkers alone (`if TYPE_CHECKING:`) are not arrows."""
    typing_only = {id(n) for block in ast.walk(tree)
                   if isinstance(block, ast.If) and isinstance(block.test, ast.Name)
                   and block.test.id == "TYPE_CHECKING"
                   for n in ast.walk(block)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                names.add(node.module.split(".")[0])
            else:
                names.update(alias.name for alias in node.names)
    return names


def rule_modules(game: str) -> dict[str, ast.AST]:
    """`rules.py` and every module of the game's package it imports, transitively, parsed."""
    folder = _package_dir(game)
    found: dict[str, ast.AST] = {}
    todo = ["rules"]
    while todo:
        name = todo.pop()
        if name in found or not (folder / f"{name}.py").exists():
            continue
        tree = ast.parse((folder / f"{name}.py").read_text())
        found[name] = tree
        todo.extend(_local_imports(tree) - set(found))
    return found


GAMES = [spec.name for spec in game_specs()]


@pytest.mark.parametrize("game", GAMES)
def test_the_rule_modules_never_import_the_observation(game):
    modules = rule_modules(game)
    assert "rules" in modules and len(modules) >= 2  # rules.py and at least its components
    offenders = {name: sorted(_local_imports(tree) & set(SPEED_MODULES))
                 for name, tree in modules.items()}
    assert not {name: bad for name, bad in offenders.items() if bad}, offenders


@pytest.mark.parametrize("game", GAMES)
def test_the_rule_modules_touch_no_cache_and_call_no_writer(game):
    problems = []
    for name, tree in rule_modules(game).items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
                problems.append(f"{game}/{name}.py:{node.lineno}: .{node.attr}")
            if isinstance(node, ast.Name) and node.id.startswith("show_"):
                problems.append(f"{game}/{name}.py:{node.lineno}: {node.id}")
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_cache_key_where_one_is_used():
    """The walk above is not blind: the states themselves keep their cache keys."""
    tree = ast.parse((_package_dir("finca") / "state.py").read_text())
    assert any(isinstance(n, ast.Attribute) and n.attr in FORBIDDEN_ATTRIBUTES
               for n in ast.walk(tree))
