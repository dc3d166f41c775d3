"""`huerta demo`: the README's form (`--agents random,heuristic` at every player count) and its
table, which fits long agent names and explains its columns."""

from __future__ import annotations

from game_cases import middle_count

from huerta.training.cli import main
from huerta.training.evaluation.matches import play_batch, results_table


def _agent_names(out: str) -> list[str]:
    """The agent column of demo's table, read at the header's offset."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("game "))
    start = lines[at].index("agent")
    rows = [line for line in lines[at + 2:] if line.strip() and not line.startswith("win %")]
    return [row[start:].split()[0] for row in rows]


def test_two_agents_are_seated_in_turn_at_every_player_count(capsys):
    """random,heuristic with 3 players seats random, heuristic, random; with 4 the pair twice."""
    code = main(["demo", "--games", "2", "--agents", "random,heuristic", "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0
    assert _agent_names(out) == [
        "random", "heuristic",
        "random#1", "heuristic", "random#3",
        "random#1", "heuristic#2", "random#3", "heuristic#4",
    ]
    assert "win %: games won" in out.splitlines()[-1]


def test_more_agents_than_seats_is_refused_before_any_game(capsys):
    code = main(["demo", "--games", "2", "--players", "2", "--agents", "random,random,random"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "--agents lists 3 agents for 2 players; give at most 2" in captured.err


def test_the_table_fits_a_long_agent_name_and_names_the_solo_game():
    summary = play_batch("finca", 2, ["random", "random"], games=1, seed=0)
    summary.agents = ["ppo:runs/a-rather-long-folder-name/best_model.zip", "random"]  # as named
    solo = play_batch("alpujarras", 1, ["random"], games=1, seed=0)
    lines = results_table([summary, solo]).splitlines()
    header, rows = lines[0], lines[2:-1]
    agent_at = header.index("agent")
    games_at = header.index("games")
    assert rows[0][agent_at:].startswith(summary.agents[0])
    for row in rows:  # every games figure ends where the header's does
        assert row[games_at + len("games") - 1].isdigit()
    assert rows[-1].startswith("alpujarras-solo")


def test_the_gymnasium_view_keeps_the_game_record_and_it_replays(tmp_path):
    """env.unwrapped.record holds every seat's actions; saved, it replays to the final scores
    (random opponents, a random learner, every game)."""
    import gymnasium
    import numpy as np

    import huerta.envs  # noqa: F401  (registers the ids)
    from huerta.envs.core.records import GameRecord, replay
    from huerta.envs.core.registry import gym_ids

    for env_id, (_, fixed) in gym_ids().items():  # every game's id and each variant's
        # a variant's env fixes its player count; a game's gets the middle of its own counts
        kwargs = {} if "num_players" in fixed else {"num_players": middle_count(fixed["game"])}
        env = gymnasium.make(env_id, **kwargs)
        env.reset(seed=4)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        record = env.unwrapped.record
        game = env.unwrapped.game
        assert len(record.actions) == game.steps
        assert record.final_scores == game.scores()
        record.save(tmp_path / "game.json")
        assert replay(GameRecord.load(tmp_path / "game.json")).scores() == game.scores()
