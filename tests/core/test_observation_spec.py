"""The declarative observation (envs/core/observation_spec.py): layout, reference build, decode and
the documentation rows, on a small made-up game and on Finca's declared observation."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from huerta.envs.core.observation_spec import Block, Field, ObservationSpec
from huerta.envs.core.registry import get_game


def _toy() -> ObservationSpec:
    """Two seats with coins (scale 10) and a one-hot colour, then a multi-hot of flags."""
    seats = Block("seats", "per seat slot", (
        Field("coins", 1, "coins held", lambda s, q: s.coins[q], 10.0),
        Field("colour", 3, "colour one-hot", lambda s, q: s.colour[q], encoding="one_hot"),
    ), count=3, subjects=lambda s, o: [o, 1 - o, None], copy_label="seat slot")
    flags = Block("flags", "raised flags", (
        Field("raised", 4, "flags raised", lambda s, o: s.flags, encoding="multi_hot"),
        Field("dice", 2, "two dice", lambda s, o: s.dice, (6.0, 12.0)),
    ))
    return ObservationSpec("toy", (seats, flags))


STATE = SimpleNamespace(coins=[4, 25], colour=[2, 0], flags=[0, 3], dice=[3, 6])


def test_layout_offsets_and_slices_follow_the_declaration():
    spec = _toy()
    assert spec.size == 3 * 4 + 6
    assert spec.layout == (("seats", 0, 12), ("flags", 12, 6))
    assert spec.offset("seats", "colour", copy=1) == 5
    assert spec.offset("flags", "dice") == 16
    assert spec.slices["flags"] == slice(12, 18)


def test_reference_encodes_scales_clips_one_hots_and_absent_copies():
    obs = _toy().reference(STATE, observer=1)
    expected = np.zeros(18, dtype=np.float32)
    expected[0] = 1.0  # observer 1 holds 25 coins: 2.5 clipped at 1
    expected[1 + 0] = 1.0  # colour 0
    expected[4] = np.float32(4) * np.float32(1 / 10)  # slot 1 is seat 0
    expected[5 + 2] = 1.0
    # slot 2 is absent: zeros
    expected[12 + 0] = expected[12 + 3] = 1.0
    expected[16] = np.float32(3) * np.float32(1 / 6)
    expected[17] = np.float32(6) * np.float32(1 / 12)
    np.testing.assert_array_equal(obs, expected)


def test_decode_returns_the_raw_values_by_name():
    decoded = _toy().decode(_toy().reference(STATE, observer=0))
    assert decoded["seats"][0] == {"coins": 4.0, "colour": 2}
    assert decoded["seats"][1] == {"coins": 10.0, "colour": 0}  # 25 was clipped at the scale
    assert decoded["seats"][2] == {"coins": 0.0, "colour": None}
    assert decoded["flags"] == {"raised": [0, 3], "dice": [3.0, 6.0]}


def test_mistakes_in_a_declaration_or_a_vector_are_named():
    spec = _toy()
    with pytest.raises(KeyError, match=r"no block 'hand'"):
        spec.offset("hand")
    with pytest.raises(KeyError, match=r"no field 'gems'.*coins, colour"):
        spec.offset("seats", "gems")
    with pytest.raises(IndexError, match=r"3 copies"):
        spec.offset("seats", copy=3)
    with pytest.raises(ValueError, match=r"shape \(18,\)"):
        spec.decode(np.zeros(17, dtype=np.float32))
    with pytest.raises(ValueError, match="encoding 'ternary'"):
        Field("x", 1, "x", lambda s, o: 0, encoding="ternary")
    with pytest.raises(ValueError, match="one scale or one per value"):
        Field("x", 2, "x", lambda s, o: 0, (1.0, 2.0, 3.0))
    wrong = ObservationSpec("toy", (Block("b", "b", (
        Field("x", 2, "two values", lambda s, o: [1, 2, 3]),
    )),))
    with pytest.raises(ValueError, match="field 'x' read 3 values, not 2"):
        wrong.reference(STATE, 0)
    with pytest.raises(ValueError, match="declared twice"):
        ObservationSpec("toy", (Block("b", "b", ()), Block("b", "b", ())))


def test_documentation_rows_name_encoding_and_meaning():
    spec = _toy()
    assert spec.layout_rows() == [("seats", 0, 12, "per seat slot"), ("flags", 12, 6,
                                                                      "raised flags")]
    assert spec.field_rows("flags") == [("raised", 0, 4, "multi-hot", "1", "flags raised"),
                                        ("dice", 4, 2, "value", "6, 12", "two dice")]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finca_decode_reads_back_the_state(players):
    """Finca's declared observation decodes to the state's own numbers, observer first."""
    game = get_game("finca")
    state = game.new_game(players, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    observer = state.current_player
    decoded = game.decode_observation(state.observe(observer))
    assert game.observation_spec.layout == tuple(game.observation_layout)
    for k, slot in enumerate(decoded["players"]):
        seat = (observer + k) % players
        if k >= players:
            assert slot["present"] == 0
            continue
        assert slot["present"] == 1
        assert slot["fruits"] == [float(n) for n in state.fruits[seat]]
        assert slot["carts"] == state.carts[seat]
        assert slot["is_acting"] == (1.0 if k == 0 else 0.0)
    assert decoded["supply"]["fruits"] == [float(n) for n in state.supply]
    assert decoded["phase"]["phase"] == int(state.phase)
    assert decoded["game_meta"]["players"] == players - 2
    assert [b["fruit"] for b in decoded["blade_fruit"]] == list(state.blades)


def test_a_declared_observation_pickles_by_its_game():
    """Envs and specs are pickled (process pools, saved games): a declared observation, whose
    readers are functions, travels as its game's name and comes back as the same object."""
    import pickle

    spec = get_game("finca").observation_spec
    assert pickle.loads(pickle.dumps(spec)) is spec


def test_scalar_factor_is_the_float32_reciprocal_of_one_scale():
    spec = _toy()
    assert spec.scalar_factor("seats", "coins") == float(np.float32(1 / 10))
    with pytest.raises(ValueError, match=r"flags\.dice has one scale per value"):
        spec.scalar_factor("flags", "dice")
    with pytest.raises(KeyError, match=r"no field 'gems'"):
        spec.scalar_factor("seats", "gems")
