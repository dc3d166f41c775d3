"""The huerta command line, end to end."""

from __future__ import annotations

import io
import json

import pytest

from huerta.training.cli import main


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_help_explains_each_command(capsys):
    for command in ("play", "tournament", "replay", "bench", "demo", "main"):
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
        assert "usage: huerta " + command in capsys.readouterr().out


def test_unknown_game_and_agent_name_the_valid_ones(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "chess"])
    err = capsys.readouterr().err
    assert "invalid choice: 'chess'" in err and "finca" in err.split("choose from")[1]
    code, _, err = run(["tournament", "finca", "--agents", "random,wizard", "--quiet"], capsys)
    assert code == 2 and "unknown agent code 'wizard'; valid codes: random" in err


def test_play_through_standard_input(capsys, monkeypatch, tmp_path):
    """A person places five farmers on blade 0 (one bad input of each kind on the way), then
    keeps answering 0 / the first legal id until the game ends."""
    from huerta.agents import human

    answers = ["x", "99"] + ["0"] * 5

    class Feeder(io.StringIO):
        def readline(self):
            if answers:
                return answers.pop(0) + "\n"
            return ""

    monkeypatch.setattr(human.sys, "stdin", Feeder())
    record = tmp_path / "game.json"
    code, out, err = run(
        ["play", "finca", "--agents", "human,random", "--seed", "2", "--save", str(record)],
        capsys,
    )
    assert "'x' is not a number" in out
    assert "99 is not legal now" in out
    assert "Legal actions:" in out and "place a farmer on blade 0" in out
    assert "player_1 (random): place a farmer" in out
    assert code == 1 and "no more input" in err  # the feeder ran dry after the introduction


def test_play_agents_only_saves_a_record_that_replays(capsys, tmp_path):
    record = tmp_path / "game.json"
    code, out, _ = run(
        ["play", "finca", "--agents", "heuristic,random,random", "--seed", "4",
         "--save", str(record)], capsys,
    )
    assert code == 0 and "final scores:" in out and "player_0 (heuristic)" in out
    data = json.loads(record.read_text())
    assert data["num_players"] == 3
    code, out, _ = run(["replay", str(record)], capsys)
    assert code == 0 and "final scores: " + str(data["final_scores"]) in out
    code, out, _ = run(["replay", str(record), "--boards"], capsys)
    assert out.count("Windmill") > len(data["actions"])


def test_replay_of_a_corrupt_record_says_where(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "finca", "num_players": 2, "seed": 1, "options": {}, '
                   '"actions": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 33]}')
    code, _, err = run(["replay", str(bad)], capsys)
    assert code == 2 and "actions[10] cannot be replayed" in err


def test_tournament_writes_results(capsys, tmp_path):
    code, out, _ = run(
        ["tournament", "finca", "--agents", "random,heuristic", "--games", "4", "--quiet",
         "--out", str(tmp_path)], capsys,
    )
    assert code == 0 and "95% CI" in out and "heuristic" in out
    assert (tmp_path / "games.jsonl").exists() and (tmp_path / "tournament.png").exists()


def test_bench_and_demo_and_main_run(capsys, tmp_path):
    code, out, _ = run(["bench", "--seconds", "0.2", "--players", "2", "--no-memory"], capsys)
    assert code == 0 and "connect_four_v3" in out and "finca" in out
    code, out, _ = run(["demo", "--games", "3", "--players", "2"], capsys)
    assert code == 0 and "random#1" in out



def test_the_main_job_trains_each_game_with_its_method_and_rates_it_on_the_ladder(
        capsys, tmp_path, quick_ladder):
    code, out, _ = run(["main", "--game", "finca", "mi_tierra", "--value-games", "2",
                        "--steps", "256", "--imitation-games", "2", "--precision", "2000",
                        "--workers", "1", "--out", str(tmp_path)], capsys)
    assert code == 0
    assert "finca: training with afterstate (2 heuristic games recorded)" in out
    assert "mi_tierra: training with ppo (2 heuristic games imitated, 256 steps" in out
    for game in ("finca", "mi_tierra"):
        run_folder = tmp_path / game
        assert (run_folder / "best_policy.npz").exists()
        result = json.loads((run_folder / "benchmark.json").read_text())
        assert result["agent"]["code"] == f"learned:{run_folder}" and result["games"] > 0
        table = out[out.index(f"{game}, 2 players: learned:{run_folder} beside"):]
        rows = [line.split()[0] for line in table.splitlines()[3:6]]
        assert set(rows) == {"random", "heuristic", "trained"}  # the rungs and the agent
        assert "this benchmark (placed)" in table and "the ladder: 0 by definition" in table
