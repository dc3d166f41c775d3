"""Scenario tests TS-23, TS-24, TS-25, TS-26, TS-27, TS-28, TS-29, TS-30, TS-31, TS-32, TS-33,
TS-34, TS-35, TS-36, TS-37, TS-38, TS-39, TS-40, TS-41 of seeds/alpujarras.md: deliveries, award
tokens, harvests with majorities and goals (ALP-37, ALP-38, ALP-39, ALP-40, ALP-41, ALP-42, ALP-43,
ALP-44, ALP-45, ALP-46, ALP-47, ALP-48, ALP-49, ALP-50, ALP-51, ALP-52, ALP-53, ALP-54, ALP-55,
ALP-56, ALP-57, ALP-58, ALP-59, ALP-60), with the rulebook's delivery, award, harvest and goal
examples."""

from __future__ import annotations

import pytest
from alp_helpers import HARVESTS, MARKETS, at, legal, play

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import goals
from huerta.envs.alpujarras.actions import (
    DELIVER0,
    DO_HARVEST,
    END_TURN,
    Phase,
    card,
    deliver,
    farmland,
)
from huerta.envs.alpujarras.components import (
    APPLE,
    CHERRY,
    GRAPE,
    GREEN,
    LEMON,
    ORANGE,
    ORANGE_LAND,
    PURPLE,
    RED,
    YELLOW,
)
from huerta.envs.alpujarras.scenario import arrive, scenario
from huerta.envs.core.errors import IllegalActionError

MKT = MARKETS[1]
HRV = HARVESTS[0]
DELIVERS = set(range(DELIVER0, DELIVER0 + 25))
RED_TOWN = [(CHERRY, 2), (CHERRY, 4), (APPLE, 3), (LEMON, 5)]  # sorted: A3 C2 C4 L5


def slot_of(s, town, fruit_kind, value):
    return s.towns[town].index(C.token(fruit_kind, value))


def test_ts23_delivery_example():
    """TS-23 (ALP-37, ALP-38, ALP-39, ALP-42; the rulebook's delivery and award examples): one
    farmer in red and 4 cherries; the red town's cherry-4: cherries 0, the farmer moves into the
    town, A owns cherry-4 and earns the green award (2), which flips to red."""
    s = at(3, MKT, farmers={0: {RED: 1}}, fruit={0: {CHERRY: 4}}, towns={RED: RED_TOWN})
    slot = slot_of(s, RED, CHERRY, 4)
    play(s, deliver(RED, slot))
    assert s.fruit[0][CHERRY] == 0 and s.farmers[0][RED] == 0 and s.town_farmers[0][RED] == 1
    assert s.tokens[0] == [C.token(CHERRY, 4)] and C.token(CHERRY, 4) not in s.towns[RED]
    assert s.dirhems[0] == 2 and s.awards[RED] == C.AWARD_RED
    assert s.markets_used[0] == 1 and s.fruit_supply[CHERRY] == 25
    assert not legal(s) & DELIVERS  # TS-26: one delivery per visit


def test_ts24_delivery_needs_a_farmer_in_the_towns_farmland():
    """TS-24 (ALP-38): with the only farmer in yellow, the red town cannot be delivered to."""
    s = at(3, MKT, farmers={0: {YELLOW: 1}}, fruit={0: {CHERRY: 4}}, towns={RED: RED_TOWN})
    assert not any(deliver(RED, k) in legal(s) for k in range(5))
    with pytest.raises(IllegalActionError, match="farmer in the red farmland"):
        s.apply(deliver(RED, slot_of(s, RED, CHERRY, 4)))


def test_ts25_delivery_needs_the_tokens_fruit_count():
    """TS-25 (ALP-38): 3 cherries: red's cherry-4 is masked, yellow's cherry-3 is legal; the town's
    lower cherry-2 is legal too (more fruit than asked is fine, G-27)."""
    s = at(3, MKT, farmers={0: {RED: 1, YELLOW: 1}}, fruit={0: {CHERRY: 3}},
           towns={RED: RED_TOWN, YELLOW: [(CHERRY, 3), (LEMON, 2), (ORANGE, 4), (GRAPE, 5)]})
    assert deliver(RED, slot_of(s, RED, CHERRY, 4)) not in legal(s)
    assert deliver(YELLOW, slot_of(s, YELLOW, CHERRY, 3)) in legal(s)
    assert deliver(RED, slot_of(s, RED, CHERRY, 2)) in legal(s)
    play(s, deliver(RED, slot_of(s, RED, CHERRY, 2)))
    assert s.fruit[0][CHERRY] == 1


def test_ts26_one_delivery_per_market_visit():
    """TS-26 (ALP-37): after a delivery every DELIVER id is masked for the rest of the visit."""
    s = at(3, MKT, farmers={0: {RED: 2}}, fruit={0: {CHERRY: 5, APPLE: 5}}, towns={RED: RED_TOWN})
    play(s, deliver(RED, slot_of(s, RED, CHERRY, 2)))
    assert not legal(s) & DELIVERS and END_TURN in legal(s)


def test_ts27_award_green_then_red_then_nothing():
    """TS-27 (ALP-42, ALP-43): B delivers first in yellow (+2, flips), A next (+1, gone), C third
    (+0)."""
    town = [(LEMON, 2), (LEMON, 3), (LEMON, 4), (ORANGE, 4), (GRAPE, 5)]
    s = scenario(4, farmers={p: {YELLOW: 1} for p in range(3)},
                 fruit={p: {LEMON: 5} for p in range(3)}, towns={YELLOW: town})
    gains = []
    for p, value, market in ((1, 2, 6), (0, 3, 16), (2, 4, 26)):  # 4-player markets
        arrive(s, market, p)
        before = s.dirhems[p]
        play(s, deliver(YELLOW, slot_of(s, YELLOW, LEMON, value)))
        gains.append(s.dirhems[p] - before)
    assert gains == [2, 1, 0]
    assert s.awards[YELLOW] == C.AWARD_GONE


def test_ts28_the_same_player_can_take_both_awards():
    """TS-28 (ALP-43): A delivers in yellow at two markets: +2, then +1."""
    town = [(LEMON, 2), (LEMON, 3), (ORANGE, 4), (GRAPE, 5)]
    s = scenario(3, farmers={0: {YELLOW: 2}}, fruit={0: {LEMON: 5}}, towns={YELLOW: town})
    arrive(s, MARKETS[0], 0)
    play(s, deliver(YELLOW, 0))
    assert s.dirhems[0] == 2
    arrive(s, MARKETS[1], 0)
    play(s, deliver(YELLOW, 0))
    assert s.dirhems[0] == 3 and s.awards[YELLOW] == C.AWARD_GONE


@pytest.mark.parametrize(("n", "gains"), [(3, 1), (2, 0)])
def test_ts29_town_farmers_do_not_count_and_ties_count_with_three(n, gains):
    """TS-29 (ALP-40, ALP-46): A has 2 in the red farmland (+1 in the red town), B 2 in the red
    farmland: a tie -> A harvests a cherry with 3 players, nothing with 2."""
    s = at(n, HRV, farmers={0: {RED: 2}, 1: {RED: 2}}, town_farmers={0: {RED: 1}})
    play(s, DO_HARVEST)
    assert s.fruit[0][CHERRY] == gains and sum(s.fruit[0]) == gains


def test_ts31_harvest_example():
    """TS-31 (ALP-45, ALP-46, ALP-47; the rulebook's harvest example): 3 players, blue leads purple
    and ties orange; 5 oranges, 2 grapes, 3 norias: grapes 3, oranges stay 5, norias 4."""
    s = at(3, HRV, player=1, farmers={1: {PURPLE: 2, ORANGE_LAND: 1}, 0: {ORANGE_LAND: 1}},
           fruit={1: {ORANGE: 5, GRAPE: 2}}, norias={1: 3})
    play(s, DO_HARVEST)
    assert s.fruit[1][GRAPE] == 3 and s.fruit[1][ORANGE] == 5 and s.norias[1] == 4
    assert DO_HARVEST not in legal(s)


def test_ts32_two_players_need_strictly_more():
    """TS-32 (ALP-46): 2 players; green 2-2, red 1-0: A gains a cherry only."""
    s = at(2, HRV, farmers={0: {GREEN: 2, RED: 1}, 1: {GREEN: 2}})
    play(s, DO_HARVEST)
    assert s.fruit[0] == [0, 1, 0, 0, 0]


def test_ts33_empty_farmlands_pay_nobody():
    """TS-33 (G-21): 3 players; nobody in yellow; A only in green: an apple only."""
    s = at(3, HRV, farmers={0: {GREEN: 1}})
    play(s, DO_HARVEST)
    assert s.fruit[0] == [1, 0, 0, 0, 0]


def test_ts34_harvest_noria_at_the_cap_is_lost():
    """TS-34 (ALP-47, ALP-62): 5 norias and 5 apples, leading green: nothing changes."""
    s = at(3, HRV, farmers={0: {GREEN: 1}}, fruit={0: {APPLE: 5}}, norias={0: 5})
    play(s, DO_HARVEST)
    assert s.fruit[0][APPLE] == 5 and s.norias[0] == 5


def test_g18_skipped_multiplayer_harvest_is_applied_at_end_turn():
    """G-18, ALP-44: ending the turn on a harvest space without harvesting harvests anyway."""
    s = at(3, HRV, farmers={0: {GREEN: 1}})
    play(s, END_TURN)
    assert s.fruit[0][APPLE] == 1


def test_ts35_goal_example():
    """TS-35 (ALP-48, ALP-55, D8; the rulebook's goal example): 2 farmers in green and in red,
    card 2 showing '2 farmers in 2 farmlands': a farmer from supply onto the card, +3 dirhems."""
    s = at(3, HRV, farmers={0: {GREEN: 2, RED: 2}}, town_farmers={0: {0: 3, 1: 3}},
           goal_sides=[0, 0, 0, 0, 0])
    assert s.supply[0] == 5
    play(s, card(2))
    assert s.supply[0] == 4 and s.dirhems[0] == 3 and s.goals_done[0][2]
    assert s.card_farmers[0] == 1  # ALP-50: it stays on the card


def test_ts36_one_goal_per_visit_and_each_goal_once():
    """TS-36 (ALP-49): meeting cards 0 and 2, completing 0 masks 2 for the visit; at the next
    harvest 0 is masked and 2 legal."""
    s = at(3, HRV, farmers={0: {GREEN: 2, RED: 2}}, fruit={0: {LEMON: 5}},
           goal_sides=[0, 0, 0, 0, 0])
    assert {card(0), card(2)} <= legal(s)
    play(s, card(0))
    assert not {card(i) for i in range(5)} & legal(s)
    arrive(s, HARVESTS[1])
    assert card(0) not in legal(s) and card(2) in legal(s)


def test_ts37_several_players_complete_the_same_goal():
    """TS-37 (ALP-49): A completed card 2 earlier; B meeting it now may complete it too."""
    s = at(3, HRV, player=1, farmers={0: {GREEN: 2, RED: 1}, 1: {GREEN: 2, RED: 2}},
           goals_done={0: [2]}, goal_sides=[0, 0, 0, 0, 0])
    play(s, card(2))
    assert s.goals_done[1][2] and s.dirhems[1] == 3


def test_ts38_goal_farmer_from_a_farmland_checked_before_removal():
    """TS-38 (ALP-48, G-22): empty supply, 2 farmers in green and red: the goal is met before the
    farmer leaves green for the card; green drops to 1, +3 dirhems."""
    s = at(3, HRV, farmers={0: {GREEN: 2, RED: 2}}, town_farmers={0: {w: 2 for w in range(5)}},
           card_farmers={0: 1}, goals_done={0: [4]}, goal_sides=[0, 0, 0, 0, 0])
    assert s.supply[0] == 0
    play(s, card(2))
    assert s.phase == Phase.GOAL_FARMER
    assert legal(s) == {farmland(GREEN), farmland(RED)}
    play(s, farmland(GREEN))
    assert s.farmers[0][GREEN] == 1 and s.card_farmers[0] == 2 and s.dirhems[0] == 3


def test_ts39_no_farmer_no_goal():
    """TS-39 (ALP-48): empty supply, no farmland farmer, a token goal met: the card is masked."""
    s = at(3, HRV, town_farmers={0: {0: 5, 1: 5, 2: 5}},
           tokens={0: [(APPLE, 3), (CHERRY, 3), (LEMON, 3)]}, goal_sides=[0, 1, 0, 0, 0])
    assert goals.goal_met(s, 0, C.card_goal(1, 1))
    assert card(1) not in legal(s)


def test_ts40_goal_after_harvest_in_the_same_visit():
    """TS-40 (ALP-44, G-22): 4 apples, leading green, card 0 '5 identical fruit': masked before the
    harvest, legal after it."""
    s = at(3, HRV, farmers={0: {GREEN: 1}}, fruit={0: {APPLE: 4}}, goal_sides=[0, 0, 0, 0, 0])
    assert card(0) not in legal(s)
    play(s, DO_HARVEST)
    assert card(0) in legal(s)
    play(s, card(0))
    assert s.dirhems[0] == C.GOAL_REWARDS[0]


def _goal_state(**kw):
    return scenario(4, **kw)


@pytest.mark.parametrize(
    ("goal", "yes", "no"),
    [
        (0, dict(fruit={0: {GRAPE: 5}}), dict(fruit={0: {GRAPE: 4, APPLE: 4}})),  # ALP-51
        (1, dict(fruit={0: [1, 1, 1, 1, 2]}), dict(fruit={0: [1, 1, 1, 0, 2]})),  # ALP-52
        (2, dict(tokens={0: [(APPLE, 2), (APPLE, 3), (APPLE, 4)]}),
         dict(tokens={0: [(APPLE, 2), (APPLE, 3), (CHERRY, 4)]})),  # ALP-53
        (3, dict(tokens={0: [(APPLE, 2), (CHERRY, 3), (LEMON, 4)]}),
         dict(tokens={0: [(APPLE, 2), (APPLE, 3), (CHERRY, 4)]})),  # ALP-54
        (4, dict(farmers={0: {GREEN: 2, RED: 2}}), dict(farmers={0: {GREEN: 3, RED: 1}})),  # ALP-55
        (5, dict(farmers={0: {PURPLE: 3}}), dict(farmers={0: {PURPLE: 2, RED: 2}})),  # ALP-56
        (6, dict(tokens={0: [(APPLE, 2), (CHERRY, 3), (LEMON, 4), (GRAPE, 5)]}),
         dict(tokens={0: [(APPLE, 2), (CHERRY, 3), (LEMON, 4), (GRAPE, 4)]})),  # ALP-57
        (7, dict(tokens={0: [(APPLE, 2), (CHERRY, 2), (LEMON, 2)]}),
         dict(tokens={0: [(APPLE, 2), (CHERRY, 2), (LEMON, 3)]})),  # ALP-58
        (8, dict(town_farmers={0: [1, 1, 1, 1, 0]}), dict(town_farmers={0: [3, 1, 1, 0, 0]})),
        (9, dict(town_farmers={0: [2, 2, 0, 0, 0]}), dict(town_farmers={0: [2, 1, 0, 0, 0]})),
    ],
)
def test_ts41_goal_predicates(goal, yes, no):
    """TS-41: the ten goals (ALP-51 five identical fruit, ALP-52 five different fruit, ALP-53
    three identical tokens, ALP-54 three different tokens, ALP-55 2 farmers in 2 farmlands,
    ALP-56 3 farmers in 1 farmland, ALP-57 the 2-5 sequence, ALP-58 three 2s or three 3s,
    ALP-59 a farmer in 4 towns, ALP-60 2 farmers in 2 towns) on hand-made states."""
    assert goals.goal_met(_goal_state(**yes), 0, goal)
    assert not goals.goal_met(_goal_state(**no), 0, goal)


def test_alp58_three_threes_also_count():
    """ALP-58: three tokens of value 3 satisfy the goal too."""
    s = _goal_state(tokens={0: [(APPLE, 3), (CHERRY, 3), (LEMON, 3)]})
    assert goals.all_twos_or_threes(s, 0)


def test_alp59_farmer_in_four_towns_on_a_card():
    """ALP-59, ALP-48: the towns goal completed at a harvest (card 4, side A)."""
    s = at(4, 11, town_farmers={0: [1, 1, 1, 1, 0]}, goal_sides=[0, 0, 0, 0, 0])
    play(s, card(4))
    assert s.dirhems[0] == C.GOAL_REWARDS[8]


def test_alp41_market_actions_are_capped_at_five():
    """ALP-41, G-17: a player who has made 5 market actions gets no further delivery."""
    toks = [(APPLE, 2), (CHERRY, 3), (LEMON, 4), (ORANGE, 5), (GRAPE, 3)]
    s = at(3, MKT, farmers={0: {RED: 1}}, fruit={0: {CHERRY: 5}}, tokens={0: toks})
    assert s.markets_used[0] == 5 and not s.market_left and not legal(s) & DELIVERS


def test_goal_flags_agree_with_the_ten_predicates():
    """ALP-51, ALP-52, ALP-53, ALP-54, ALP-55, ALP-56, ALP-57, ALP-58, ALP-59, ALP-60: the
    observation's one-pass goal check equals the ten predicates on the states of random games."""
    import numpy as np
    from alp_helpers import short_move_policy

    from huerta.envs.alpujarras import new_game

    for seed in range(15):
        s = new_game(2 + seed % 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            for p in range(s.num_players):
                assert goals.goal_flags(s, p) == [
                    goals.goal_met(s, p, g) for g in range(C.NUM_GOALS)
                ]
            s.apply(short_move_policy(s, rng))
