"""The first hour of a new user (issue 20, items 3, 5, 6): render modes that gymnasium.make
accepts without a warning, long commands that show progress, and one name for the solo game."""

from __future__ import annotations

import datetime
import fnmatch
import importlib.util
import io
import json
import warnings
from pathlib import Path
from unittest import mock

import gymnasium
import numpy as np
import pytest

import huerta.envs  # noqa: F401  (registers the gym ids)
from huerta.envs.alpujarras.env import SoloSingleAgentEnv
from huerta.envs.core.aec import BoardGameAEC
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import (
    game_choices,
    game_label,
    game_names,
    game_specs,
    get_game,
    gym_ids,
    own_player_counts,
    resolve_game,
)
from huerta.envs.core.single_agent import SingleAgentEnv
from huerta.training import bench as bench_module
from huerta.training.cli import main
from huerta.training.evaluation.tournament_result import AgentStats, TournamentResult
from huerta.training.evaluation.tournament_table import format_results

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED_NAMES = ["finca", "alpujarras", "alpujarras-solo", "mi_tierra"]  # what commands take
GYM_IDS = list(gym_ids())  # every game's id and every variant's, as the specs declare them
MODES = ["ansi", "rgb_array", "human"]


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# --- item 3: render modes -------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("env_id", GYM_IDS)
def test_gymnasium_make_takes_every_render_mode_without_a_warning(env_id, mode, capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(env_id, render_mode=mode)
        env.reset(seed=0)
        frame = env.render()
    assert [str(w.message) for w in caught] == []
    printed = capsys.readouterr().out
    if mode == "ansi":
        assert isinstance(frame, str) and "player" in frame.lower()
    elif mode == "rgb_array":
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0
    else:
        assert frame is None and printed.strip()  # the text board, printed
    env.close()


def test_gymnasium_registers_exactly_the_registrys_ids():
    """`import huerta.envs` registers one id per game and one per variant, as the specs declare
    them (tests/<game>/<game>_contract.py pins each game's ids by hand), and no other."""
    registered = [env_id for env_id in gymnasium.registry if env_id.startswith("huerta/")]
    assert sorted(registered) == sorted(GYM_IDS)
    assert len(GYM_IDS) == sum(1 + len(spec.variants) for spec in game_specs())


def test_class_metadata_lists_every_mode_of_every_game():
    """gymnasium.make reads the class's metadata; an instance lists its own game's modes."""
    for cls in (SingleAgentEnv, SoloSingleAgentEnv, BoardGameAEC):
        modes = cls.metadata["render_modes"]
        for game in game_names():
            assert set(get_game(game).render_modes) <= set(modes), (cls, game)
    for env_id in GYM_IDS:
        env = gymnasium.make(env_id)
        game = env.unwrapped.game_spec
        assert env.unwrapped.metadata["render_modes"] == list(game.render_modes)


@pytest.mark.parametrize("mode", MODES)
def test_aec_env_renders_every_mode(mode, capsys):
    from huerta.envs import finca_v0

    env = finca_v0.env(num_players=2, render_mode=mode)
    env.reset(seed=0)
    frame = env.render()
    expected = {"ansi": str, "rgb_array": np.ndarray, "human": type(None)}[mode]
    assert isinstance(frame, expected)


# --- item 5: progress -----------------------------------------------------------------------------
def fake_row(name: str, mode: str, players: int = 2) -> bench_module.BenchResult:
    return bench_module.BenchResult(name, players, mode, 1000.0, 10.0)


def test_bench_prints_each_row_as_it_finishes(capsys, monkeypatch):
    """The fake benchmark looks at stdout after each row: the row is there already."""
    seen: list[str] = []

    def fake(games, players, seconds, memory, on_row):
        assert games == ("finca", "alpujarras-solo") and players is None
        for row in (fake_row("connect_four_v3", "env()"), fake_row("finca", "engine"),
                    fake_row("finca", "env()")):
            on_row(row)
            seen.append(capsys.readouterr().out)
        return []

    monkeypatch.setattr(bench_module, "benchmark", fake)
    code = main(["bench", "--game", "finca", "alpujarras-solo", "--seconds", "0.1"])
    assert code == 0
    assert "steps/s" in seen[0] and "connect_four_v3" in seen[0]
    assert "finca" in seen[1] and "engine" in seen[1]
    assert "env()" in seen[2] and "1.00" in seen[2]  # the ratio to connect four's row
    assert "x c4:" in capsys.readouterr().out  # the legend comes last


def test_bench_writes_its_rows_as_json(capsys, monkeypatch, tmp_path):
    """--json keeps every row's figures, the seconds per row and the cores: what the results
    pages read (scripts/results.py)."""
    rows = [fake_row("connect_four_v3", "env()"), fake_row("finca", "engine")]

    def fake(games, players, seconds, memory, on_row):
        for row in rows:
            on_row(row)
        return rows

    monkeypatch.setattr(bench_module, "benchmark", fake)
    assert main(["bench", "--game", "finca", "--seconds", "0.1", "--json",
                 str(tmp_path / "bench.json")]) == 0
    data = json.loads((tmp_path / "bench.json").read_text())
    assert data["mode"] == "env" and data["seconds"] == 0.1 and data["cores"] >= 1
    assert [(r["name"], r["mode"], r["steps_per_s"]) for r in data["rows"]] == [
        ("connect_four_v3", "env()", 1000.0), ("finca", "engine", 1000.0)]
    assert "written:" in capsys.readouterr().out


def test_benchmark_hands_over_every_row_in_order():
    rows: list[bench_module.BenchResult] = []
    results = bench_module.benchmark(games=("alpujarras-solo",), seconds=0.02, memory=False,
                                     fresh=False, on_row=rows.append)
    assert rows == results
    assert [(r.name, r.players, r.mode) for r in results if r.name != "connect_four_v3"] == [
        ("alpujarras-solo", 1, "engine"), ("alpujarras-solo", 1, "env()"),
    ]


def solo_record():
    from huerta.agents import make_agent
    from huerta.training.evaluation.matches import play_game

    record, _ = play_game("alpujarras", [make_agent("random", game="alpujarras", seed=0)], 3)
    return record


def test_gif_reports_its_progress(tmp_path):
    pytest.importorskip("PIL")
    from huerta.training.animation import save_gif

    record = solo_record()
    calls: list[tuple[str, int, int]] = []
    frames = save_gif(record, tmp_path / "g.gif", scale=0.25,
                      progress=lambda *c: calls.append(c))
    drawing = [c for c in calls if c[0] == "drawing"]
    encoding = [c for c in calls if c[0] == "encoding"]
    assert drawing[-1] == ("drawing", len(record.actions), len(record.actions))
    assert [c[1] for c in encoding] == list(range(1, frames + 1))
    assert all(c[2] == frames for c in encoding)
    assert calls.index(drawing[-1]) < calls.index(encoding[0])  # drawn, then encoded


def test_replay_gif_shows_progress_on_stderr(tmp_path, capsys):
    pytest.importorskip("PIL")
    path = tmp_path / "game.json"
    solo_record().save(path)
    code, out, err = run(["replay", str(path), "--gif", str(tmp_path / "g.gif"),
                          "--scale", "0.25"], capsys)
    assert code == 0 and "frames" in out
    assert "drawing frames" in err and "encoding frames" in err


def test_eval_line_and_summary_name_wilson_intervals(tmp_path):
    from huerta.training.methods.report import eval_line, summary_line
    from huerta.training.runs import append_eval

    assert eval_line(100_000, {"random": 0.925, "heuristic": 0.1}, 40) == (
        "eval at 100,000 steps: 92.5% [80.1, 97.4] vs random, "
        "10.0% [4.0, 23.1] vs heuristic (40 games each)"
    )
    assert eval_line(0, {"zara": 0.0}, 40) == "eval at 0 steps: 0.0% [0.0, 8.8] vs zara (40 games)"
    append_eval(tmp_path, 0, {"random": 0.5, "heuristic": 0.0})
    append_eval(tmp_path, 100, {"random": 1.0, "heuristic": 0.25})
    append_eval(tmp_path, 200, {"random": 1.0, "heuristic": 0.25})  # a tie keeps the first
    line = summary_line(tmp_path, 250, 125.0, 4)
    assert line.startswith("training done: 250 steps, 2 min 05 s; best model at 100 steps: ")
    assert "100.0% [51.0, 100.0] vs random" in line


def test_eval_csv_times_are_iso_8601_and_old_epoch_rows_still_read(tmp_path):
    from huerta.training.runs import append_eval, read_eval

    (tmp_path / "eval.csv").write_text("steps,win_rate_vs_random,time\n0,0.5000,1700000000\n")
    append_eval(tmp_path, 100, {"random": 0.75})
    lines = (tmp_path / "eval.csv").read_text().splitlines()
    assert lines[1].endswith(",1700000000")
    stamp = lines[2].split(",")[-1]
    when = datetime.datetime.fromisoformat(stamp)
    assert when.tzinfo is not None and "T" in stamp
    assert abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) < 3600
    assert read_eval(tmp_path) == [{"steps": 0, "vs_random": 0.5},
                                   {"steps": 100, "vs_random": 0.75}]


def test_training_prints_a_line_per_evaluation_and_a_summary(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from huerta.training.config import TrainConfig
    from huerta.training.methods.dispatch import train
    from huerta.training.runs import read_eval

    config = TrainConfig(
        game="alpujarras-solo", steps=128, out=str(tmp_path), n_steps=64, batch_size=32,
        n_epochs=1, net_arch=[8], eval_every=64, eval_games=2, snapshot_every=64,
        checkpoint_every=64, progress=False, envs=1, imitation_games=0, method="ppo",
    )
    train(config)
    out = capsys.readouterr().out.splitlines()
    evals = [line for line in out if line.startswith("eval at ")]
    assert len(evals) == len(read_eval(tmp_path)) >= 2
    assert evals[0].startswith("eval at 0 steps: ") and "vs zara (2 games)" in evals[0]
    assert out[-1].startswith("training done: ") and "; best model at " in out[-1]


# --- item 6: one name for the solo game, pyproject, tables, --games -------------------------------
def test_the_solo_game_has_one_name_everywhere():
    choices = game_choices()
    # every game, each followed by its variants' names, as the specs declare them
    assert choices == [name for spec in game_specs() for name in (spec.name, *spec.variants)]
    assert choices.index("alpujarras-solo") == choices.index("alpujarras") + 1
    # the names published so far, in their order: the registry may add names, never drop one
    assert [n for n in choices if n in PUBLISHED_NAMES] == PUBLISHED_NAMES
    spec, players = resolve_game("alpujarras-solo")
    assert (spec.name, players) == ("alpujarras", 1)
    assert resolve_game("alpujarras", 1)[1] == 1  # the other spelling still works
    assert game_label("alpujarras", 1) == "alpujarras-solo"
    assert game_label("alpujarras", 2) == "alpujarras"
    assert own_player_counts("alpujarras") == (2, 3, 4)
    with pytest.raises(InvalidConfigError, match="contradicts it"):
        resolve_game("alpujarras-solo", 2)
    with pytest.raises(InvalidConfigError, match=r"valid games: .*alpujarras-solo"):
        resolve_game("chess")


@pytest.mark.parametrize(
    "argv",
    [["play", "chess"], ["tournament", "chess"], ["train", "chess"], ["demo", "--game", "chess"],
     ["bench", "--game", "chess"]],
    ids=["play", "tournament", "train", "demo", "bench"],
)
def test_every_valid_games_message_lists_the_solo_game(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'chess'" in err and "'alpujarras-solo'" in err


def test_train_config_names_the_solo_game_among_the_valid_ones():
    from huerta.training.config import TrainConfig

    with pytest.raises(InvalidConfigError, match=r"valid games: .*alpujarras-solo"):
        TrainConfig(game="chess").check()


def test_tournament_demo_and_play_take_alpujarras_solo(capsys, monkeypatch):
    code, out, _ = run(["tournament", "alpujarras-solo", "--agents", "random", "--games", "2",
                        "--quiet"], capsys)
    assert code == 0 and "solo against the game's opponent" in out
    code, out, _ = run(["demo", "--game", "alpujarras-solo", "--games", "2"], capsys)
    assert code == 0 and "2 games of alpujarras-solo" in out
    code, out, _ = run(["play", "alpujarras-solo", "--agents", "random"], capsys)
    assert code == 0 and "final scores: [" in out
    # the default line-up of the solo game is one human seat (not human,heuristic)
    from huerta.agents import human

    monkeypatch.setattr(human.sys, "stdin", io.StringIO(""))
    code, _, err = run(["play", "alpujarras-solo"], capsys)
    assert code == 1 and "no more input" in err


@pytest.mark.parametrize("command", ["tournament", "play", "train"])
def test_a_player_count_that_contradicts_the_solo_game_is_one_line(command, capsys):
    code, out, err = run([command, "alpujarras-solo", "--players", "2"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == (f"huerta {command}: error: alpujarras-solo is the 1-player game; "
                           "--players 2 contradicts it (for 2 players use alpujarras)")


def test_bench_rows_name_the_solo_game():
    rows = bench_module.bench_rows(game_choices())
    assert ("alpujarras", 1) in rows and rows.count(("alpujarras", 1)) == 1
    assert rows.index(("alpujarras", 4)) < rows.index(("alpujarras", 1))
    assert bench_module.bench_rows(["alpujarras"]) == [("alpujarras", n) for n in (2, 3, 4)]
    assert bench_module.bench_rows(["alpujarras"], players=(1,)) == [("alpujarras", 1)]
    assert bench_module.bench_rows(["finca", "alpujarras-solo"], players=(1, 2)) == [
        ("finca", 2), ("alpujarras", 1),
    ]


def test_bench_game_is_a_list_of_games_and_games_its_deprecated_name(capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(bench_module, "benchmark", lambda **kw: calls.append(kw) or [])
    code, _, err = run(["bench", "--game", "mi_tierra", "--seconds", "0.1"], capsys)
    assert code == 0 and calls[-1]["games"] == ("mi_tierra",) and "deprecated" not in err
    code, _, err = run(["bench", "--games", "finca", "--seconds", "0.1"], capsys)
    assert code == 0 and calls[-1]["games"] == ("finca",)
    assert "--games is deprecated" in err and "use --game" in err
    code, _, _ = run(["bench", "--seconds", "0.1"], capsys)
    assert calls[-1]["games"] == tuple(game_choices())


def test_pyproject_license_is_an_spdx_string():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"
    setuptools = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools == ["setuptools>=77"]  # the first to take SPDX strings


def test_the_ladder_file_ships_in_the_wheel():
    """The benchmark's reference ratings are package data: without them the ladder is empty."""
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = data["tool"]["setuptools"]["package-data"]
    patterns = package_data.get("huerta.training.evaluation", []) + package_data.get("*", [])
    assert any(fnmatch.fnmatch("ladder.json", pattern) for pattern in patterns)
    assert (ROOT / "training" / "evaluation" / "ladder.json").is_file()


def test_packaging_finds_every_game_package_by_itself():
    """setup.py lists the packages by walking the folders, so a new game's package ships with
    no line of packaging: every registered game's package, core, the agents, training and the
    web page's folders are among them."""
    spec = importlib.util.spec_from_file_location("huerta_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    with mock.patch("setuptools.setup"):  # (the module calls setup() when loaded)
        spec.loader.exec_module(module)
    packages = module.packages()
    expected = {f"huerta.envs.{game.name}" for game in game_specs()} | {
        "huerta.envs", "huerta.envs.core", "huerta.agents", "huerta.agents.heuristics",
        "huerta.training", "huerta.web", "huerta.web.boards", "huerta.web.static"}
    assert expected <= set(packages), sorted(expected - set(packages))
    assert len(packages) == len(set(packages))


def test_table_columns_fit_long_agent_names():
    long = "ppo:runs/" + "a-very-long-run-folder-name-" * 2 + "x"
    assert len(long) >= 60
    result = TournamentResult(game="finca", players=2, labels=[long, "random"],
                              codes=[long, "random"])
    result.stats = [
        AgentStats(long, long, games=10, win_rate=0.9, ci_low=0.6, ci_high=0.98, rating=3.0),
        AgentStats("random", "random", games=10, win_rate=0.1, ci_low=0.02, ci_high=0.4),
    ]
    lines = format_results(result).splitlines()
    header, rule, first, second = lines[1:5]
    assert len(rule) == len(header) == len(first) == len(second)
    column = header.index("games") + len("games")  # right-aligned: every row ends there
    assert first[:column].endswith(" 10") and second[:column].endswith(" 10")
    assert first.startswith(long + " ")


def test_demo_and_tournament_games_count_games(capsys):
    """--games is a count wherever it means games: demo, tournament and main (bench names its
    games with --game)."""
    parser_help = {}
    for command in ("demo", "tournament", "main", "bench"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        parser_help[command] = capsys.readouterr().out
    for command in ("demo", "tournament"):
        assert "--games GAMES" in parser_help[command]
    for command in ("bench", "main"):  # these name their games with --game
        assert "--games" not in parser_help[command] and "--game GAME" in parser_help[command]
