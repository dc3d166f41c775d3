"""Agent versions follow play: the agent's code and imports, the game's engine, the heuristic
it plays, its model files; not pictures, not the registry, not other games."""

from __future__ import annotations

import shutil

import pytest

from huerta.agents.learned import learned_files
from huerta.agents.versions import VERSION_DIGITS, play_sources, play_version
from huerta.envs.core.registry import game_names
from huerta.training.agent_specs import agent_identity


def _names(modules, game, scripts=()):
    return {name for name, _ in play_sources(modules, game, scripts)}


@pytest.mark.parametrize("game", game_names())
def test_random_depends_on_its_game_rules_and_on_no_other_game(game):
    names = _names(["huerta.agents.random_agent"], game)
    assert {"huerta.agents.random_agent", "huerta.agents.base", f"huerta.envs.{game}.rules",
            f"huerta.envs.{game}.state", f"huerta.envs.{game}.game",
            "huerta.envs.core.engine"} <= names
    others = [g for g in game_names() if g != game]
    assert not [n for n in names for g in others if n.startswith(f"huerta.envs.{g}")]
    # what only draws or names a game is not part of play
    assert not [n for n in names if n.endswith((".picture", ".render"))]
    assert "huerta.envs.core.registry" not in names and "huerta.envs.core.pictures" not in names


@pytest.mark.parametrize("game", game_names())
def test_search_depends_on_the_heuristic_of_its_game_found_by_name(game):
    names = _names(["huerta.agents.search"], game)
    assert f"huerta.agents.heuristics.{game}" in names
    assert f"huerta.agents.heuristics.{game}.value" in names
    assert "huerta.agents.heuristics.protocol" in names
    others = [g for g in game_names() if g != game]
    assert not [n for n in names for g in others if f".{g}" in n]


def test_learned_depends_on_the_players_it_loads_inside_functions_and_its_models():
    names = _names(["huerta.agents.learned"], "finca")
    # imported inside functions only: an afterstate file plays through afterstate.py
    assert {"huerta.agents.afterstate", "huerta.agents.value_weights",
            "huerta.agents.policy_rollouts", "huerta.agents.heuristics.finca.turns"} <= names
    # value_weights imports Alpujarras' solo constants: not part of a Finca agent
    assert not [n for n in names if "alpujarras" in n]
    files = learned_files("finca", None)
    assert [f.name for f in files] == ["finca.npz"]
    assert {f.name for f in learned_files("alpujarras", None)} == {"alpujarras.npz",
                                                                   "alpujarras-solo.npz"}


def test_every_registry_rung_has_a_different_version_per_game():
    versions = {(code, game): agent_identity(code, game).version
                for code in ("random", "heuristic", "search") for game in game_names()}
    assert all(len(v) == VERSION_DIGITS for v in versions.values())
    assert len(set(versions.values())) == len(versions)


def test_a_script_edit_or_a_model_edit_is_a_new_version(tmp_path):
    script = tmp_path / "mypolicy.py"
    script.write_text("from huerta.agents.random_agent import RandomAgent\n"
                      "def first_legal(obs):\n    return int(obs['action_mask'].argmax())\n")
    before = play_version([], "finca", scripts=[script])
    assert before == play_version([], "finca", scripts=[script])
    assert "huerta.agents.random_agent" in _names([], "finca", [script])
    script.write_text(script.read_text() + "# edited\n")
    assert play_version([], "finca", scripts=[script]) != before

    model = tmp_path / "model.npz"
    shutil.copy(learned_files("finca", None)[0], model)
    with_model = play_version(["huerta.agents.learned"], "finca", files=[model])
    model.write_bytes(model.read_bytes() + b"\0")
    assert play_version(["huerta.agents.learned"], "finca", files=[model]) != with_model


def test_imports_under_type_checking_are_not_followed(tmp_path):
    script = tmp_path / "typed.py"
    script.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from huerta.agents.search import SearchAgent\n"
                      "else:\n    import huerta.agents.mcts\n")
    names = _names([], "mi_tierra", [script])
    assert "huerta.agents.search" not in names and "huerta.agents.mcts" in names


def test_a_user_module_version_covers_the_game_it_plays(tmp_path, monkeypatch):
    (tmp_path / "mypolicy.py").write_text(
        "def first_legal(obs):\n    return int(obs['action_mask'].argmax())\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    finca = agent_identity("mypolicy:first_legal", "finca")
    assert finca.kind == "module" and len(finca.version) == VERSION_DIGITS
    assert agent_identity("mypolicy:first_legal", "mi_tierra").version != finca.version
    assert agent_identity("mypolicy:first_legal", "alpujarras-solo").version == \
        agent_identity("mypolicy:first_legal", "alpujarras").version


def test_code_defined_outside_python_source_counts_by_its_bytes(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# a page whose python blocks were run\n`not python` either\n")
    before = play_version([], "finca", scripts=[page])
    page.write_text(page.read_text() + "edited\n")
    assert play_version([], "finca", scripts=[page]) != before


def test_a_left_out_package_is_neither_counted_nor_followed():
    """The match runner imports every agent (through the registry); code that measures agents
    one by one leaves `huerta.agents` out, so one agent's change stales only its own figures,
    while the runner's own modules and the game's engine still count."""
    everything = _names(["huerta.training.evaluation.matches"], "finca")
    assert "huerta.agents.learned_search" in everything
    runner = {name for name, _ in play_sources(["huerta.training.evaluation.matches"], "finca",
                                                leave_out=["huerta.agents"])}
    assert not [n for n in runner if n == "huerta.agents" or n.startswith("huerta.agents.")]
    assert {"huerta.training.evaluation.matches", "huerta.envs.finca.rules",
            "huerta.envs.core.records"} <= runner
    assert (play_version(["huerta.training.evaluation.matches"], "finca",
                         leave_out=["huerta.agents"])
            != play_version(["huerta.training.evaluation.matches"], "finca"))
