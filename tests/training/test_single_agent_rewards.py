"""The single-agent wrapper's rewards in crafted end games, seat randomisation, the pool."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import huerta.envs  # noqa: F401
from huerta.envs.finca import components as C
from huerta.envs.finca.actions import CONFIRM, DELIVER, comm
from huerta.envs.finca.components import ALMOND, FIG
from huerta.envs.finca.scenario import scenario
from huerta.training.selfplay import OpponentPool, PoolWeights, SelfPlayEnv

BLOCKER = [("6F+6A", 6)] * 4  # never payable


def end_state(current, finca_overrides=None, **kw):
    """2 players, one wooden finca left; C1 (finca fig) and C7 (finca almond) hold their last
    tile, 1F and 1A; every other community is blocked or emptied."""
    stacks = {c: list(BLOCKER) for c in range(C.NUM_COMMUNITIES)}
    stacks.update({1: ["1F"], 7: ["1A"], 2: [], 3: [], 4: []})
    state = scenario(2, seed=8, farmers={0: {0: 1}, 1: {1: 1}}, stacks=stacks,
                     finca_tiles={1: FIG, 7: ALMOND, **(finca_overrides or {})},
                     current_player=current, **kw)
    assert state.check_consistency() == []
    return state


class Script:
    """An opponent that plays a fixed list of actions."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, observation, view=None):
        return self.actions.pop(0)


def env_at(state, opponent, **kwargs):
    env = gymnasium.make("huerta/Finca-v0", num_players=2, learner_seat=0,
                         opponents=opponent, **kwargs).unwrapped
    env.reset(seed=0)
    env.game = state
    env._potential = env._margin_potential()
    return env


def test_opponent_ending_the_game_gives_the_learner_its_final_reward():
    """The learner moves; the opponent's delivery then ends the game in the opponent's favour:
    the learner's step returns terminated with reward -1."""
    state = end_state(0, fruits={1: {FIG: 1, ALMOND: 1}}, carts={1: 1})
    env = env_at(state, Script([DELIVER, comm(1), comm(7), CONFIRM]))
    obs, reward, terminated, truncated, info = env.step(0)  # move the farmer on blade 0
    assert terminated and not truncated
    assert state.is_terminal and state.winners() == [1]
    assert reward == -1.0 and info["is_winner"] is False and info["scores"] == state.scores()


def test_learner_ending_the_game_itself():
    state = end_state(0, fruits={0: {FIG: 1, ALMOND: 1}}, carts={0: 1})
    env = env_at(state, Script([]))
    for action in (DELIVER, comm(1), comm(7)):
        _, reward, terminated, _, _ = env.step(action)
        assert reward == 0.0 and not terminated
    _, reward, terminated, _, info = env.step(CONFIRM)
    assert terminated and reward == 1.0 and info["is_winner"] and info["winners"] == [0]


def test_shared_victory_rewards_zero():
    """Equal scores and equal fruit: a shared victory, worth 0 to the learner. The learner owns a
    1A tile; its move harvests 2 fruits (its farmer joins the opponent's); the opponent, holding
    2 lemons besides its fig, delivers C1's last tile (1F), whose universal finca tile is tied
    1-1 and leaves the game: both end on 1 + 8 points with 2 fruits each."""
    state = end_state(0, fruits={1: {FIG: 1, C.LEMON: 2}}, carts={1: 1}, displays={0: ["1A"]},
                      finca_overrides={1: 9})
    env = env_at(state, Script([DELIVER, comm(1), CONFIRM]))
    _, reward, terminated, _, info = env.step(0)
    assert terminated and state.scores() == [9, 9]
    assert sum(state.fruits[0]) == sum(state.fruits[1]) == 2
    assert info["shared_victory"] and reward == 0.0


def test_shaping_pays_the_change_of_the_score_margin():
    state = end_state(0, fruits={0: {FIG: 1, ALMOND: 1}}, carts={0: 1})
    env = env_at(state, Script([]), shaping=0.1)
    total = 0.0
    for action in (DELIVER, comm(1), comm(7), CONFIRM):
        total += env.step(action)[1]
    scores = state.scores()
    assert total == pytest.approx(1.0 + 0.1 * (scores[0] - scores[1]) - 0.1 * (8 - 8))


def test_solo_shaping_pays_each_duty_met():
    """The Alpujarras solo game (ZARA-20): points count only once all ten duties are met, so its
    shaping potential adds SOLO_DUTY_POTENTIAL per duty to the margin over Zara. Harvesting
    (nothing to harvest: no farmers) pays nothing; paying zakat card 1 (an apple and a cherry,
    no points) pays exactly shaping x SOLO_DUTY_POTENTIAL."""
    from huerta.envs.alpujarras import components as AC
    from huerta.envs.alpujarras.actions import DO_HARVEST, card
    from huerta.envs.alpujarras.scenario import arrive
    from huerta.envs.alpujarras.scenario import scenario as alp_scenario

    state = arrive(alp_scenario(1, fruit={0: {AC.APPLE: 1, AC.CHERRY: 1}}), 9)  # HARVEST 9
    env = gymnasium.make("huerta/AlpujarrasSolo-v0", shaping=0.5).unwrapped
    env.reset(seed=0)
    env.game = state
    env._potential = env._margin_potential()
    before = state.shaping_potential(0)
    assert env.step(DO_HARVEST)[1] == 0.0
    _, reward, terminated, _, _ = env.step(card(1))
    assert not terminated and state.zakat_paid[1]
    assert state.shaping_potential(0) == before + AC.SOLO_DUTY_POTENTIAL
    assert reward == pytest.approx(0.5 * AC.SOLO_DUTY_POTENTIAL)


def test_learner_seat_is_random_per_episode_unless_fixed():
    env = gymnasium.make("huerta/Finca-v0", num_players=3).unwrapped
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(30)}
    assert seats == {0, 1, 2}
    fixed = gymnasium.make("huerta/Finca-v0", num_players=3, learner_seat=2).unwrapped
    assert {fixed.reset(seed=s)[1]["learner_seat"] for s in range(10)} == {2}
    for s in range(5):
        obs, info = env.reset(seed=s)
        assert env.game.current_player == info["learner_seat"]
        assert env.action_masks().any()


def test_snapshot_pool_draws_by_weight(tmp_path):
    pool = OpponentPool("finca", tmp_path, PoolWeights(snapshot=0.5, heuristic=0.3, random=0.2))
    rng = np.random.default_rng(0)
    kinds = [pool.draw(rng)[0] for _ in range(400)]
    # no snapshot yet: its weight is shared by the heuristic and random (0.6 / 0.4)
    assert set(kinds) == {"heuristic", "random"}
    assert 0.5 < kinds.count("heuristic") / 400 < 0.7
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv("finca", 2, pool_dir=tmp_path)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32)
    model.save(tmp_path / "snapshot_000000001.zip")
    kinds = [pool.draw(rng)[0] for _ in range(400)]
    assert 0.4 < sum(k.startswith("snapshot:") for k in kinds) / 400 < 0.6
    obs, info = env.reset(seed=3)
    assert len(info["opponents"]) == 1
    done = False
    while not done:  # a whole episode against whatever was drawn
        mask = env.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        done = terminated or truncated
