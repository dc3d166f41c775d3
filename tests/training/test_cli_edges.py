"""Bad arguments and files on the command line: one clear line, a non-zero exit, no traceback.

Numbers out of range are refused by the parser (exit status 2 with the usage line), agent codes
with arguments they do not take and files that are not models right after parsing, anything else
(a corrupt record, an unsupported player count) before any work; `huerta replay` verifies a
record exactly as the API's replay() does; output cut short by a closed pipe ends quietly.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.registry import game_names, get_game
from huerta.envs.core.transcript import random_record
from huerta.training.cli import main
from huerta.training.cli import play as cli_play

ROOT = Path(__file__).resolve().parents[2]


def run(argv, capsys) -> tuple[int, str, str]:
    """main(argv) in this process: (exit status, stdout, stderr), argparse's exits included."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def one_error_line(err: str, command: str) -> str:
    """The stderr of a refused command: exactly one line of `huerta COMMAND: error: ...`."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"huerta {command}: error: "), err
    return lines[0]


def random_game(game: str, seed: int, action_seed: int) -> GameRecord:
    return random_record(game, 2, seed, action_seed=action_seed)


@pytest.fixture
def text_file(tmp_path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("not a model\n")
    return path


def fake_model(path: Path, observations: int, actions: int) -> Path:
    """A zip laid out like a saved MaskablePPO model, with the given space sizes and a policy
    that is not one."""
    data = {"observation_space": {"_shape": [observations]}, "action_space": {"n": str(actions)}}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", b"not torch weights")
    return path


PARSER_REFUSALS = {
    "play-negative-seed": ["play", "finca", "--agents", "random", "--seed", "-1"],
    "tournament-negative-seed": ["tournament", "finca", "--seed", "-1"],
    "tournament-huge-seed": ["tournament", "finca", "--seed", str(2**40)],
    "demo-negative-seed": ["demo", "--seed", "-1"],
    "main-negative-seed": ["main", "--seed", "-1"],
    "train-negative-seed": ["train", "finca", "--seed", "-1"],
    "seed-not-a-number": ["tournament", "finca", "--seed", "abc"],
    "scale-0": ["replay", "x.json", "--scale", "0"],
    "scale-negative": ["replay", "x.json", "--scale", "-2"],
    "scale-nan": ["replay", "x.json", "--scale", "nan"],
    "scale-huge": ["replay", "x.json", "--scale", "1000"],
    "gif-seconds-negative": ["replay", "x.json", "--seconds", "-1"],
    "bench-seconds-negative": ["bench", "--seconds", "-1"],
    "bench-seconds-0": ["bench", "--seconds", "0"],
    "bench-seconds-inf": ["bench", "--seconds", "inf"],
    "bench-players-9": ["bench", "--players", "9"],
    "play-players-9": ["play", "finca", "--agents", "random", "--players", "9"],
    "tournament-players-0": ["tournament", "finca", "--players", "0"],
    "tournament-games-0": ["tournament", "finca", "--games", "0"],
    "tournament-games-negative": ["tournament", "finca", "--games", "-5"],
    "tournament-games-word": ["tournament", "finca", "--games", "ten"],
    "demo-games-0": ["demo", "--games", "0"],
    "main-value-games-0": ["main", "--value-games", "0"],
    "tournament-workers-0": ["tournament", "finca", "--workers", "0"],
    "main-workers-0": ["main", "--workers", "0"],
    "main-precision-0": ["main", "--precision", "0"],
    "train-steps-0": ["train", "finca", "--steps", "0"],
    "train-envs-0": ["train", "finca", "--envs", "0"],
    "train-imitation-negative": ["train", "finca", "--imitation-games", "-1"],
}


def test_imitation_games_are_a_setting_of_the_sb3_backend(capsys):
    code, out, err = run(["train", "finca", "--backend", "rllib", "--imitation-games", "5"],
                         capsys)
    assert code == 2 and out == ""
    assert one_error_line(err, "train").endswith(
        "--imitation-games is a setting of --backend sb3 (the RLlib backend starts from random "
        "weights)")


@pytest.mark.parametrize("argv", PARSER_REFUSALS.values(), ids=PARSER_REFUSALS.keys())
def test_numbers_out_of_range_are_refused_by_the_parser(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert f"huerta {argv[0]}: error: argument " in err
    assert "out of range" in err or "is not" in err


# agent code -> what the error must say
BAD_AGENTS = {
    "heuristic:3": "agent code heuristic:3 is not valid: heuristic (takes no argument)",
    "random:1": "agent code random:1 is not valid: random (takes no argument)",
    "human:x": "agent code human:x is not valid: human (takes no argument)",
    "mcts:0": "bad mcts budget '0'",
    "mcts:-1s": "bad mcts budget '-1s'",
    "mcts:nans": "bad mcts budget 'nans'",
    "mcts:abc": "bad mcts budget 'abc'",
    "mcts:5:foo": "bad mcts rollout 'foo'",
    "mcts:5:heuristic:x": "agent code mcts:5:heuristic:x is not valid",
    "search:0": "agent code search:0 is not valid",
    "search:2.5s": "agent code search:2.5s is not valid",
    "search:fast": "agent code search:fast is not valid",
    "ppo": "the ppo agent needs a model path",
    "ppo:no/such/model.zip": "no trained model at no/such/model.zip",
    "wizard": "unknown agent code 'wizard'; valid codes: random, heuristic, mcts, search, "
    "learned, ppo, human",
    ",": "--agents lists no agent codes",
}


@pytest.mark.parametrize("command", ["tournament", "play", "demo"])
@pytest.mark.parametrize("agent", BAD_AGENTS, ids=BAD_AGENTS.keys())
def test_bad_agent_codes_are_refused_before_anything_runs(command, agent, capsys, monkeypatch):
    monkeypatch.setattr(cli_play, "play_batch", lambda *a, **k: pytest.fail("a game was played"))
    game = [] if command == "demo" else ["finca"]
    code, out, err = run([command, *game, "--agents", agent], capsys)
    assert code == 2 and out == ""
    assert BAD_AGENTS[agent] in one_error_line(err, command)


def test_ppo_of_a_file_that_is_not_a_model_is_refused(text_file, tmp_path, capsys):
    code, _, err = run(["tournament", "finca", "--agents", f"ppo:{text_file},random"], capsys)
    assert code == 2 and "is not a MaskablePPO model" in one_error_line(err, "tournament")
    empty_zip = tmp_path / "empty.zip"
    zipfile.ZipFile(empty_zip, "w").close()
    code, _, err = run(["play", "finca", "--agents", f"ppo:{empty_zip},random"], capsys)
    assert code == 2 and "the zip lacks 'data' or 'policy.pth'" in one_error_line(err, "play")
    code, _, err = run(["tournament", "finca", "--agents", f"ppo:{tmp_path},random"], capsys)
    assert code == 2 and "no best_model.zip or final_model.zip" in err


@pytest.mark.parametrize("game", game_names())
def test_ppo_model_of_another_game_is_refused(game, tmp_path, capsys):
    spec = get_game(game)
    model = fake_model(tmp_path / "other.zip", spec.observation_size + 1, spec.num_actions)
    code, _, err = run(["tournament", game, "--agents", f"ppo:{model},random"], capsys)
    assert code == 2 and "a model of another game" in one_error_line(err, "tournament")


def test_ppo_model_that_cannot_be_loaded_is_refused(tmp_path, capsys):
    """Right spaces, garbage weights: refused when the tournament opens it, before any game."""
    pytest.importorskip("sb3_contrib")
    spec = get_game("finca")
    model = fake_model(tmp_path / "broken.zip", spec.observation_size, spec.num_actions)
    code, _, err = run(["tournament", "finca", "--agents", f"ppo:{model},random", "--quiet",
                        "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and "cannot be loaded as a MaskablePPO model" in one_error_line(
        err, "tournament"
    )
    assert not (tmp_path / "out").exists()  # refused before the output folder was made


def test_human_in_a_tournament_needs_a_terminal_and_one_worker(capsys):
    code, _, err = run(["tournament", "finca", "--agents", "human,random", "--games", "2",
                        "--quiet"], capsys)  # pytest's stdin is not a terminal
    assert code == 2 and "the human agent needs a terminal" in one_error_line(err, "tournament")
    code, _, err = run(["tournament", "finca", "--agents", "human,random", "--workers", "2",
                        "--quiet"], capsys)
    assert code == 2 and "use --workers 1" in one_error_line(err, "tournament")


AFTER_PARSING = {
    "bench-players-1-finca": (["bench", "--games", "finca", "--players", "1"],
                              "no selected game has 1 seats (finca: 2, 3, 4)"),
    "play-players-1-finca": (["play", "finca", "--agents", "random", "--players", "1"],
                             "num_players=1 is not supported"),
    "demo-players-1": (["demo", "--players", "2", "1", "--games", "1"],
                       "num_players=1 is not supported"),
    "tournament-players-1-mi_tierra": (["tournament", "mi_tierra", "--players", "1"],
                                       "num_players=1 is not supported"),
    "agents-for-the-wrong-count": (["play", "finca", "--agents", "random,random,random",
                                    "--players", "2"], "--agents lists 3 agents for 2 players"),
    "resume-without-out": (["tournament", "finca", "--resume"], "give --out DIR"),
    "save-into-a-missing-folder": (["play", "finca", "--agents", "random", "--players", "2",
                                    "--save", "no/such/dir/x.json"], "does not exist"),
}


@pytest.mark.parametrize("argv, message", AFTER_PARSING.values(), ids=AFTER_PARSING.keys())
def test_errors_found_after_parsing_are_one_line(argv, message, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and "final scores" not in out
    assert message in one_error_line(err, argv[0])


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\x00\x01\x02binary", "is binary, not JSON text"),
        (b'{"game": "\xe9t\xe9"}', "is not UTF-8 text"),
        (b"[" * 10_000, "nests deeper than"),
        (b'{"seed": ' + b"7" * 5000 + b"}", "an integer of 5000 digits"),
        (b"{not json", "is not valid JSON (line 1, column 2)"),
    ],
    ids=["binary", "latin-1", "deep", "huge-int", "not-json"],
)
def test_replay_of_a_bad_file_says_why(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == ""
    assert message in one_error_line(err, "replay")


def test_replay_of_a_missing_file_or_a_folder(tmp_path, capsys):
    code, _, err = run(["replay", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and "No such file" in one_error_line(err, "replay")
    code, _, err = run(["replay", str(tmp_path)], capsys)
    assert code == 2 and "is a folder" in one_error_line(err, "replay")


def _spoilers(game: str):
    """Ways to spoil a complete record of `game` -> its dict."""
    other = random_game(game, seed=5, action_seed=9)

    def changed_game(d):  # other legal moves from the same deal: still a complete game
        d.update(actions=other.actions, final_scores=other.final_scores)

    def surplus(d):
        d["actions"].append(0)

    def scores(d):
        d["final_scores"] = [s + 1 for s in d["final_scores"]]

    def players(d):
        d["num_players"] = 9

    def cut(d):  # the last action dropped: the game no longer ends with the recorded scores
        d["actions"].pop()

    return {"changed-game": changed_game, "surplus-action": surplus, "final-scores": scores,
            "player-count": players, "cut-short": cut}


@pytest.mark.parametrize("spoil", ["changed-game", "surplus-action", "final-scores",
                                   "player-count", "cut-short"])
@pytest.mark.parametrize("game", game_names())
def test_replay_refuses_exactly_what_the_api_refuses(game, spoil, tmp_path, capsys):
    """`huerta replay` and replay() give the same verdict and the same message: the final
    scores, the player count, the length and the checksum are all checked."""
    record = random_game(game, seed=5, action_seed=1)
    data = record.to_dict()
    _spoilers(game)[spoil](data)
    with pytest.raises(CorruptRecordError) as api:
        replay(GameRecord.from_dict(data))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == ""
    assert one_error_line(err, "replay") == f"huerta replay: error: {api.value}"


@pytest.mark.parametrize("game", game_names())
def test_replay_of_a_good_record_prints_it(game, tmp_path, capsys):
    record = random_game(game, seed=5, action_seed=1)
    record.save(tmp_path / "game.json")
    code, out, err = run(["replay", str(tmp_path / "game.json")], capsys)
    assert code == 0 and err == ""
    assert f"final scores: {record.final_scores}" in out


def test_keyboard_interrupt_is_one_line(capsys, monkeypatch):
    from huerta.training.evaluation import matches

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(matches, "play_game", interrupted)
    code, _, err = run(["play", "finca", "--agents", "random", "--players", "2"], capsys)
    assert code == 130 and err.strip() == "huerta play: interrupted"


def _huerta(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "huerta.training.cli", *args], cwd=ROOT,
                            **kwargs)


@pytest.mark.parametrize("game", game_names())
def test_output_into_a_closed_pipe_ends_quietly(game, tmp_path):
    """The reader is gone before the first line: the write fails at once, deterministically,
    and the command ends with status 1 and nothing on stderr."""
    record = random_game(game, seed=5, action_seed=1)
    record.save(tmp_path / "game.json")
    proc = _huerta("replay", str(tmp_path / "game.json"), "--boards",
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    _, err = proc.communicate()
    assert proc.returncode == 1 and err == b""


def test_output_piped_into_head_ends_quietly(tmp_path):
    """`huerta replay ... --boards | head -n 3`: the output (over 200 KB) outlasts head."""
    record = random_game("finca", seed=5, action_seed=1)
    record.save(tmp_path / "game.json")
    command = (f"{sys.executable} -m huerta.training.cli replay {tmp_path / 'game.json'} "
               f"--boards 2>{tmp_path / 'err.txt'}; echo $? >{tmp_path / 'rc.txt'}")
    result = subprocess.run(["sh", "-c", f"({command}) | head -n 3"], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    assert len(result.stdout.splitlines()) == 3
    assert (tmp_path / "err.txt").read_text() == ""
    assert (tmp_path / "rc.txt").read_text().strip() == "1"


def test_the_play_hint_of_a_resumed_solo_run_names_the_solo_game(tmp_path, capsys):
    tiny = tmp_path / "tiny.json"
    tiny.write_text(json.dumps({"n_steps": 32, "batch_size": 32, "n_epochs": 1, "net_arch": [8],
                                "eval_every": 64, "eval_games": 1, "envs": 1,
                                "imitation_games": 0, "method": "ppo"}))
    out = tmp_path / "solo"
    common = ["--out", str(out), "--config", str(tiny), "--no-progress"]
    hint = f"play it: huerta tournament alpujarras-solo --agents learned:{out},random"
    for extra in (["--steps", "64"], ["--steps", "96", "--resume"]):
        code, printed, _ = run(["train", "alpujarras-solo", *extra, *common], capsys)
        assert code == 0 and printed.splitlines()[-1] == hint
