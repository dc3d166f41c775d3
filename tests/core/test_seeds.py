"""Reset seeds and the games they deal (issue 34, item 5).

`reset(seed=s)` of the AEC env, the Gymnasium view and the RLlib table draws the game seed from a
generator seeded with `s` (`draw_seed`); the game seed is what the record stores and
`new_game(seed)` replays. Different reset seeds must deal different games: the game seeds were
drawn below 2**31, so reset seeds repeated a game (in the AEC env, 43408 and 44001 among 8 pairs
below 200,000). Here: the AEC derivation over 0..200,000, a few thousand actual deals per game in
both APIs (the old repeats included), the same seed dealing the same game, and records whose seed
is of the old 31-bit form still replaying.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from contract_games import CASES, cases

from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.seeding import draw_seed

# the 2-player game of each game and the solo game
SEED_CASES = [c for c in CASES if c.n in (1, 2)]
# reset seeds below 200,000 that dealt the same game when game seeds were drawn below 2**31: in
# the AEC env (and the solo Gymnasium view, whose only draw before the game seed is an empty seat
# draw), and in the 2-player Gymnasium view (a seat and an opponent's seed drawn first)
OLD_AEC_REPEATS = [(43408, 44001), (12109, 89503), (15175, 109700), (33700, 137958),
                   (55175, 139008), (92085, 161923), (111153, 191707), (34252, 198723)]
OLD_GYM_REPEATS = [(46412, 69044), (342, 108715), (117671, 119034), (123956, 131591),
                   (57397, 151233), (119492, 161439)]
DEALS = 2000  # actual deals per game and API


def _deal(state) -> str:
    """A state as canonical JSON, without a generator's inner state (Mi Tierra keeps its `rng` in
    `to_dict`), so that equal deals compare equal however the generator got there."""
    data = {k: v for k, v in state.to_dict().items() if k != "rng"}
    return json.dumps(data, sort_keys=True)


def _seeds(repeats) -> list[int]:
    return sorted({*range(DEALS), *(s for pair in repeats for s in pair)})


def _distinct(deals: dict[int, str]) -> None:
    """Fail naming two reset seeds that dealt the same game, if any."""
    first: dict[str, int] = {}
    for seed, deal in deals.items():
        assert deal not in first, f"reset seeds {first[deal]} and {seed} deal the same game"
        first[deal] = seed


def test_game_seeds_of_reset_seeds_0_to_200000_all_differ():
    """The AEC env's game seed is `draw_seed` of a generator seeded with the reset seed; over
    reset seeds 0..200,000 no two game seeds are equal, and each is below 2**53 (exact as a JSON
    number in any reader, JavaScript's included)."""
    env = SEED_CASES[0].env()
    for seed in (0, 1, 43408, 44001, 199_999):
        env.reset(seed=seed)
        assert env.record.seed == draw_seed(np.random.default_rng(seed))
    game_seeds = [draw_seed(np.random.default_rng(s)) for s in range(200_001)]
    assert len(set(game_seeds)) == len(game_seeds)
    assert min(game_seeds) >= 0 and max(game_seeds) < 2**53


@pytest.mark.parametrize("case", cases(SEED_CASES))
def test_aec_reset_seeds_deal_different_games(case):
    """Thousands of reset seeds of the AEC env (the old repeats among them) deal as many
    different games, and a seed deals the same game again after others."""
    env = case.env()
    deals = {}
    for seed in _seeds(OLD_AEC_REPEATS):
        env.reset(seed=seed)
        deals[seed] = _deal(env.game)
    _distinct(deals)
    for seed in (0, 43408, 44001):
        env.reset(seed=seed)
        assert _deal(env.game) == deals[seed]


@pytest.mark.parametrize("case", cases(SEED_CASES))
def test_gymnasium_reset_seeds_deal_different_games(case):
    """Likewise for the Gymnasium view, comparing the game each reset dealt (its record's initial
    state: opponents may have moved already); the same seed deals the same game, seat and moves."""
    env = case.gym_make().unwrapped
    repeats = OLD_AEC_REPEATS if case.n == 1 else OLD_GYM_REPEATS
    deals, records = {}, {}
    for seed in _seeds(repeats):
        env.reset(seed=seed)
        record = env.record
        deals[seed] = _deal(case.new_game(record.seed, **record.options))
        records[seed] = (record.seed, env.learner_seat, list(record.actions))
    _distinct(deals)
    for seed in (0, *repeats[0]):
        env.reset(seed=seed)
        record = env.record
        assert (record.seed, env.learner_seat, list(record.actions)) == records[seed]
        assert _deal(case.new_game(record.seed, **record.options)) == deals[seed]


def test_rllib_reset_seeds_deal_different_games():
    """The RLlib table (league seats drawn per episode) deals its games through the AEC env's
    reset: different reset seeds, different games."""
    pytest.importorskip("ray.rllib")
    from huerta.training.rllib.env import make_env

    env = make_env("finca", 2, league={"weights": {"random": 1.0, "heuristic": 1.0}})
    deals = {}
    for seed in sorted({*range(300), *(s for pair in OLD_AEC_REPEATS for s in pair)}):
        env.reset(seed=seed)
        record = env.env.unwrapped.record
        deals[seed] = _deal(SEED_CASES[0].new_game(record.seed))
    _distinct(deals)


@pytest.mark.parametrize("case", cases(SEED_CASES))
def test_records_with_old_31_bit_seeds_still_replay(case):
    """A record made before the change (its seed the 31-bit draw of reset seed 43408) replays,
    saved and read back, to the same game as one played now from that seed."""
    old_seed = int(np.random.default_rng(43408).integers(0, 2**31 - 1))
    options = case.game.record_options.get(case.n, {})
    state = case.new_game(old_seed, **options)
    record = GameRecord(game=case.spec.name, num_players=case.n, seed=old_seed, options=options)
    rng = np.random.default_rng(1)
    for _ in range(30):
        if state.is_terminal:
            break
        action = case.policy(state, rng)
        state.apply(action)
        record.actions.append(action)
    for version in (1, 2):
        data = {**record.to_dict(), "version": version}
        if version == 1:
            del data["checksum"]
        replayed = replay(GameRecord.from_json(json.dumps(data)))
        assert replayed.to_dict() == state.to_dict()


def test_an_env_record_replays_with_its_new_game_seed(tmp_path):
    """A record of the AEC env (its seed drawn up to 2**53) saves, loads and replays exactly."""
    case = SEED_CASES[0]
    env = case.env()
    env.reset(seed=43408)
    rng = np.random.default_rng(2)
    for _ in range(25):
        env.step(case.policy(env.game, rng))
    path = tmp_path / "game.json"
    env.record.save(path)
    loaded = GameRecord.load(path)
    assert loaded.seed == env.record.seed >= 2**31  # this seed's draw is beyond the old range
    assert replay(loaded).to_dict() == env.game.to_dict()
