"""Scenario tests ZS-01, ZS-02, ZS-03, ZS-04, ZS-05, ZS-06, ZS-07, ZS-08, ZS-09, ZS-10, ZS-11,
ZS-12, ZS-13, ZS-14, ZS-15, ZS-16, ZS-17, ZS-18, ZS-19, ZS-20, ZS-21, ZS-22 of seeds/alpujarras.md:
the solo game against Zara (ZARA-01, ZARA-02, ZARA-03, ZARA-04, ZARA-05, ZARA-06, ZARA-07, ZARA-08,
ZARA-09, ZARA-10, ZARA-11, ZARA-12, ZARA-13, ZARA-14, ZARA-15, ZARA-16, ZARA-17, ZARA-18, ZARA-19,
ZARA-20, ZARA-21, ZARA-22, ZARA-23), with the rulebook's Zara examples (die and mule, market,
harvest) and zakat example."""

from __future__ import annotations

import pytest
from alp_helpers import HARVESTS, MARKETS, at, legal, play

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import new_game, turns, zara
from huerta.envs.alpujarras.actions import (
    CARD0,
    DELIVER0,
    DO_HARVEST,
    DO_PLACE,
    END_TURN,
    Phase,
    card,
    channel,
    deliver,
    farmland,
    fruit,
    move_to,
    spend,
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
from huerta.envs.alpujarras.scenario import scenario

CARDS = {card(i) for i in range(5)}
DELIVERS = set(range(DELIVER0, CARD0))


def test_zs01_solo_setup():
    """ZS-01 (ZARA-01 no goals, no awards, 20 tokens on the 1-3 player side; ZARA-02 five plain
    zakat cards; ZARA-03 the die on the front start spot, the player behind it and first to act;
    ZARA-04 Zara's mule in a farmland and 15 farmers in her supply; ZARA-05 double turns 3)."""
    farmlands = set()
    for seed in range(50):
        s = new_game(1, seed=seed)
        assert s.check_consistency() == []
        assert s.solo and s.goal_sides == [-1] * 5 and s.awards == [C.AWARD_GONE] * 5
        assert sum(len(t) for t in s.towns) == 20 and len(s.track) == 37
        assert s.zakat_star == [False] * 5 and s.zakat_paid == [False] * 5
        assert s.pos == [-1, -1] and s.spot == [0, 1]
        assert s.current_player == 0 and s.phase == Phase.MOVE
        assert s.double_turns == 3 and s.zara_supply == 15 and s.zara_farmers == [0] * 5
        farmlands.add(s.zara_farmland)
    assert farmlands == set(range(5))


def test_zs02_pass_the_die_and_stop_at_the_market():
    """ZS-02 (ZARA-07, ZARA-10, ZG-04): player on 0, die on 3, no double turns: 1 and 2 are behind
    the die, 4 and market 5 legal, nothing past the market."""
    s = scenario(1, positions={0: 0, 1: 3}, double_turns=0)
    assert legal(s) == {move_to(4), move_to(5)}


def test_zs03_a_double_turn_stops_before_the_die():
    """ZS-03 (ZARA-07): with 3 double turns, stopping on 2 (behind the die on 3) spends one and the
    player acts again, still behind the die."""
    s = scenario(1, positions={0: 0, 1: 3}, double_turns=3)
    assert {move_to(1), move_to(2), move_to(4), move_to(5)} == legal(s)
    play(s, move_to(2))
    assert s.double_turns == 2
    play(s, END_TURN)
    assert s.current_player == 0 and s.phase == Phase.MOVE and s.pos[1] == 3
    play(s, move_to(4))
    assert s.double_turns == 2


def test_zs04_stop_in_every_harvest_space():
    """ZS-04 (ZARA-08, ZG-04): player on 6, die on 7, harvest 9 ahead: legal 8 and 9 only."""
    s = scenario(1, positions={0: 6, 1: 7}, double_turns=0)
    assert legal(s) == {move_to(8), move_to(9)}


def test_zs05_zara_die_example():
    """ZS-05 (ZARA-11, ZARA-12, ZARA-14; the rulebook's die example): die on 11, roll 3: it moves
    2 spaces and halts on market 13; the mule goes 3 farmlands clockwise, green -> orange, and
    Zara takes the lowest orange token from the orange town."""
    s = scenario(1, positions={0: 14, 1: 11}, zara_farmland=GREEN, rolls=[3],
                 towns={ORANGE_LAND: [(ORANGE, 3), (ORANGE, 5), (LEMON, 4), (GRAPE, 4)]})
    assert zara.take_turn(s) == 3
    assert s.pos[1] == MARKETS[1] and s.zara_farmland == ORANGE_LAND
    assert s.zara_tokens == [C.token(ORANGE, 3)]
    assert s.check_consistency() == []


def test_zs06_the_die_does_not_count_the_players_space():
    """ZS-06 (ZARA-11): die on 1, player on 2, roll 2: 2 is not counted, the die lands on 4."""
    s = scenario(1, positions={0: 2, 1: 1}, rolls=[2])
    zara.take_turn(s)
    assert s.pos[1] == 4


def test_zs07_standard_space_places_one_zara_farmer():
    """ZS-07 (ZARA-13): the die lands on a standard space; the mule moves red -> yellow; one Zara
    farmer goes to yellow and nothing else happens."""
    s = scenario(1, positions={0: 9, 1: 1}, zara_farmland=RED, rolls=[1])
    towns = [list(t) for t in s.towns]
    zara.take_turn(s)
    assert s.pos[1] == 2 and s.zara_farmland == YELLOW
    assert s.zara_farmers == [0, 0, 1, 0, 0] and s.zara_supply == 14
    assert s.zara_dirhems == 0 and s.zara_tokens == [] and s.towns == towns


def test_zs08_zara_market_example():
    """ZS-08 (ZARA-14; the rulebook's market example): mule in green (apples), no apple token in
    the green town, the red town holds apple-3 and apple-5: Zara takes apple-3."""
    s = scenario(1, zara_farmland=GREEN,
                 towns={GREEN: [(CHERRY, 3), (LEMON, 3), (ORANGE, 3), (GRAPE, 3)],
                        RED: [(APPLE, 3), (APPLE, 5), (CHERRY, 4), (LEMON, 4)]})
    zara.market_action(s)
    assert s.zara_tokens == [C.token(APPLE, 3)] and C.token(APPLE, 5) in s.towns[RED]


def test_zs09_zara_fallback_when_the_fruit_is_gone():
    """ZS-09 (ZG-07): no apple token anywhere, the green town empty, the red town lemon-2 and
    cherry-2: the first non-empty town clockwise gives its lowest token, ties by fruit id, so
    cherry-2."""
    s = scenario(1, zara_farmland=GREEN,
                 towns={GREEN: [], RED: [(LEMON, 2), (CHERRY, 2)], YELLOW: [(ORANGE, 3)],
                        ORANGE_LAND: [], PURPLE: [(GRAPE, 4)]})
    zara.market_action(s)
    assert s.zara_tokens == [C.token(CHERRY, 2)]
    zara.harvest_action(s)  # discard: highest, ties by fruit id -> lemon-2 is the only one left
    assert C.token(LEMON, 2) in s.removed_tokens and s.towns[RED] == []
    assert s.check_consistency() == []


def test_zs10_zara_harvest_example():
    """ZS-10 (ZARA-15; the rulebook's harvest example): mule in red (cherries), the red town holds
    cherry-2 and cherry-5: cherry-5 is discarded; Zara leads 2 farmlands and ties 1: +2."""
    s = scenario(1, zara_farmland=RED, zara_farmers=[2, 1, 1, 0, 0],
                 farmers={0: {GREEN: 1, YELLOW: 1}},
                 towns={RED: [(CHERRY, 2), (CHERRY, 5), (APPLE, 4), (LEMON, 4)]})
    zara.harvest_action(s)
    assert C.token(CHERRY, 5) in s.removed_tokens and C.token(CHERRY, 2) in s.towns[RED]
    assert s.zara_dirhems == 2 and s.zara_tokens == []


def test_zs11_zakat_example():
    """ZS-11 (ZARA-09; the rulebook's zakat example): after harvesting, paying zakat card 0 returns
    an orange, a lemon and a farmer from a farmland to the supply."""
    s = at(1, HARVESTS[0], fruit={0: {ORANGE: 1, LEMON: 1}}, farmers={0: {YELLOW: 1}})
    play(s, DO_HARVEST)
    assert s.fruit[0][LEMON] == 2  # yellow: 1 against Zara's 0
    play(s, card(0))
    assert s.phase == Phase.ZAKAT_FARMER and legal(s) == {farmland(YELLOW)}
    play(s, farmland(YELLOW))
    assert s.fruit[0][ORANGE] == 0 and s.fruit[0][LEMON] == 1
    assert s.farmers[0][YELLOW] == 0 and s.supply[0] == 15 and s.zakat_paid[0]
    assert END_TURN in legal(s) and not legal(s) & CARDS


def test_zs12_harvest_first_then_the_zakat_is_due():
    """ZS-12 (ZG-16, ZG-13): before harvesting, zakat cards and END_TURN are masked while the
    harvest and noria spends are legal; after it, payable cards are legal and END_TURN stays
    masked while one is payable (card 1: an apple and a cherry)."""
    s = at(1, HARVESTS[0], fruit={0: {APPLE: 1, CHERRY: 1}}, norias={0: 3})
    mask = legal(s)
    assert not mask & CARDS and END_TURN not in mask
    assert DO_HARVEST in mask and spend(3) in mask
    play(s, DO_HARVEST)
    assert legal(s) & CARDS == {card(1)} and END_TURN not in legal(s)
    play(s, card(1))
    assert s.fruit[0][APPLE] == s.fruit[0][CHERRY] == 0 and s.zakat_paid[1]
    assert s.norias[0] == 3 and END_TURN in legal(s)


def test_zs13_no_zakat_payable_loses_at_once():
    """ZS-13 (ZARA-09, ZARA-19): after harvesting with no payable card, END_TURN ends the game with
    a loss."""
    s = at(1, HARVESTS[0])
    play(s, DO_HARVEST)
    assert legal(s) == {END_TURN}
    play(s, END_TURN)
    assert s.is_terminal and s.lost == "zakat" and s.rewards() == [-1.0]
    assert s.winners() == []


def test_zs14_each_delivery_a_new_fruit():
    """ZS-14 (ZARA-10): holding an apple-3 token, the deliverable apple-4 is masked, lemon-2 legal,
    and END_TURN is masked while it is."""
    s = at(1, MARKETS[1], tokens={0: [(APPLE, 3)]}, farmers={0: {RED: 2}},
           fruit={0: {APPLE: 5, LEMON: 2}},
           towns={RED: [(APPLE, 4), (LEMON, 2), (CHERRY, 5), (GRAPE, 3)]})
    assert deliver(RED, 0) not in legal(s)  # apple-4
    assert deliver(RED, 2) in legal(s)  # lemon-2 (sorted: A4 C5 L2 G3)
    assert END_TURN not in legal(s)
    play(s, deliver(RED, 2))
    assert END_TURN in legal(s)


def test_zs15_no_new_fruit_to_deliver_loses_at_once():
    """ZS-15 (ZARA-10, ZARA-19): only a same-kind delivery would be possible: END_TURN loses."""
    s = at(1, MARKETS[1], tokens={0: [(APPLE, 3)]}, farmers={0: {RED: 1}},
           fruit={0: {APPLE: 5}},
           towns={RED: [(APPLE, 4), (LEMON, 2), (CHERRY, 5), (GRAPE, 3)]})
    assert not legal(s) & DELIVERS and END_TURN in legal(s)
    play(s, END_TURN)
    assert s.is_terminal and s.lost == "delivery" and s.rewards() == [-1.0]


def test_zs16_zara_reaches_the_end_first():
    """ZS-16 (ZARA-16, ZG-06): the die in the last harvest space rolls 4: it enters the furthest
    end space (3:1), the mule moves 4, Zara makes a market action. The player may then only enter
    the end track, or stop short with a double turn."""
    s = scenario(1, positions={0: (33, 1), 1: (33, 0)}, zara_farmland=GREEN, rolls=[4],
                 resolve=True)
    assert s.pos[1] == 36 and s.zara_farmland == PURPLE and len(s.zara_tokens) == 1
    assert s.current_player == 0 and legal(s) == {move_to(34), move_to(35)}
    s = scenario(1, positions={0: 28, 1: 36}, double_turns=0)
    assert legal(s) == {move_to(34), move_to(35)}
    s = scenario(1, positions={0: 28, 1: 36}, double_turns=1)
    assert legal(s) == {move_to(29), move_to(34), move_to(35)}
    play(s, move_to(29))
    assert s.double_turns == 0


def test_zs17_player_reaches_the_end_first():
    """ZS-17 (ZARA-17, ZARA-18, ZARA-19, ZG-14, ZG-15): the player enters 3:1, delivers a new fruit,
    pays a zakat and sells; the die then goes to the furthest free end space (4:1) without a roll
    or mule move, Zara makes one market action, and the game ends."""
    s = scenario(1, positions={0: (33, 0), 1: (33, 1)}, zara_farmland=GREEN,
                 farmers={0: {YELLOW: 1}}, fruit={0: {LEMON: 3, APPLE: 2, CHERRY: 1}},
                 norias={0: 1}, tokens={0: [(APPLE, 3)]},
                 towns={YELLOW: [(LEMON, 2), (CHERRY, 3), (ORANGE, 4), (GRAPE, 5)],
                        GREEN: [(APPLE, 4), (CHERRY, 5), (LEMON, 3), (GRAPE, 4)]})
    rolls = list(s.rolls)
    play(s, move_to(36))
    mask = legal(s)
    assert deliver(YELLOW, 1) in mask and card(1) in mask and END_TURN not in mask  # lemon-2
    play(s, deliver(YELLOW, 1), card(1))
    assert END_TURN in legal(s)
    play(s, END_TURN)
    assert s.is_terminal and s.pos[1] == 35
    assert s.rolls == rolls and s.zara_farmland == GREEN
    assert s.zara_tokens == [C.token(APPLE, 4)]
    # the sale: 2 lemons left at 3:1 -> 0 dirhems; the loss is by conditions (2 tokens, 1 zakat)
    assert sum(s.fruit[0]) == 0 and s.lost == "conditions"


def _final(player_score_dirhems=10, zara_dirhems=19, paid=5):
    s = scenario(1, positions={0: 36, 1: 35}, dirhems={0: player_score_dirhems},
                 tokens={0: [(APPLE, 3), (CHERRY, 3), (LEMON, 3), (ORANGE, 3), (GRAPE, 3)]},
                 zara_dirhems=zara_dirhems, zakat_paid=[i < paid for i in range(5)])
    turns.finish(s, "")
    return s


def test_zs18_win_condition():
    """ZS-18 (ZARA-20, ZARA-21): 5 zakats, 5 different tokens and 20 against 19: a win; 20 against
    20 is a loss; with 4 zakats paid it is a loss whatever the score."""
    s = _final()
    assert s.scores() == [20] and s.zara_score() == 19
    assert s.won() and s.winners() == [0] and s.rewards() == [1.0]
    assert s.rewards("score_margin") == [1.0] and s.rewards("rank") == [1.0]
    s = _final(zara_dirhems=20)
    assert not s.won() and s.lost == "score" and s.rewards() == [-1.0]
    assert s.rewards("score_margin") == [0.0]
    s = _final(zara_dirhems=0, paid=4)
    assert s.lost == "conditions" and s.rewards() == [-1.0]
    assert s.rewards("score_margin") == [-float(C.SOLO_CONDITION_PENALTY)]


def test_zs19_variants():
    """ZS-19 (ZARA-22, ZG-12): double turns 0-5 and 0-5 zakat cards on their star side."""
    s = new_game(1, seed=3, double_turns=5, star_sides=5)
    assert s.double_turns == 5 and s.zakat_star == [True] * 5
    s = new_game(1, seed=3, double_turns=0, star_sides=2)
    assert s.double_turns == 0 and sum(s.zakat_star) == 2
    picks = {tuple(new_game(1, seed=k, star_sides=2).zakat_star) for k in range(40)}
    assert len(picks) > 3
    from huerta.envs.alpujarras.goals import zakat_side

    starred = new_game(1, seed=0, star_sides=5)
    for i in range(5):
        plain, star = C.ZAKAT_CARDS[i]
        assert zakat_side(starred, i) == star and len(star.fruits) >= len(plain.fruits)


def test_zs20_player_harvest_keeps_ties_against_zara():
    """ZS-20 (ZG-11, ZARA-23): player 2 / Zara 2 in green, 1 / 0 in red, 1 / 2 in yellow: a tie
    is the player's (an apple and a cherry), fewer farmers than Zara pay nothing (no lemon)."""
    s = at(1, HARVESTS[0], farmers={0: {GREEN: 2, RED: 1, YELLOW: 1}},
           zara_farmers=[2, 0, 2, 0, 0])
    play(s, DO_HARVEST)
    assert s.fruit[0] == [1, 1, 0, 0, 0]


def test_zs21_zara_harvest_ties_pay_nothing():
    """ZS-21 (ZARA-15): Zara tied in every farmland earns no dirhem."""
    s = scenario(1, zara_farmland=RED, zara_farmers=[1, 1, 0, 2, 0],
                 farmers={0: {GREEN: 1, RED: 1, ORANGE_LAND: 2}})
    zara.harvest_action(s)
    assert s.zara_dirhems == 0


def test_zs22_die_halts_in_the_players_harvest_space():
    """ZS-22 (ZG-05, ZG-03): the player in harvest 9; the die on 7 rolls 6 and halts in 9 (spot 1,
    right of the player) and Zara harvests; then the player acts and must leave 9."""
    s = scenario(1, positions={0: (9, 0), 1: 7}, rolls=[6], resolve=True)
    assert s.pos[1] == 9 and s.spot[1] == 1
    assert len(s.removed_tokens) == 6  # 5 value-2 tokens boxed at setup + Zara's discard
    assert s.current_player == 0 and move_to(9) not in legal(s)
    assert min(legal(s)) == move_to(10)


def test_zara06_the_die_acts_when_behind():
    """ZARA-06: after the player passes the die, the die is rearmost and Zara plays (roll 1: the
    player's space 4 is not counted, so the die halts on market 5) until it is ahead again."""
    s = scenario(1, positions={0: 0, 1: 3}, double_turns=0, rolls=[1])
    play(s, move_to(4), END_TURN)
    assert s.pos[1] == 5
    assert turns.key(s, 1) > turns.key(s, 0) and s.current_player == 0


def test_zara23_normal_rules_otherwise():
    """ZARA-23: irrigation, placements, noria spending and the caps work as in the multiplayer
    game."""
    s = at(1, 1, farmers={0: {GREEN: 1, RED: 2}}, norias={0: 4})  # the go track's I
    play(s, channel(0))
    assert s.norias[0] == 5 and s.dirhems[0] == 1
    s = at(1, 0, fruit={0: {GRAPE: 5}})
    play(s, DO_PLACE, farmland(PURPLE))
    assert {a - fruit(0) for a in legal(s)} == {ORANGE, APPLE}


@pytest.mark.parametrize("bad", [(-1, 0), (6, 0), (3, 6), ("3", 0), (True, 0)])
def test_zara22_bad_variant_values_name_the_valid_ones(bad):
    """ZARA-22: out-of-range variants are refused, naming the valid values."""
    from huerta.envs.core.errors import InvalidConfigError

    dt, stars = bad
    with pytest.raises(InvalidConfigError, match="valid values: 0, 1, 2, 3, 4, 5"):
        new_game(1, seed=0, double_turns=dt, star_sides=stars)


def test_solo_options_are_refused_for_multiplayer():
    """The solo variants only exist for num_players=1."""
    from huerta.envs.core.errors import InvalidConfigError

    with pytest.raises(InvalidConfigError, match="solo game only"):
        new_game(2, seed=0, double_turns=3)
