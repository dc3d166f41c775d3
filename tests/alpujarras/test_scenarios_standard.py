"""Scenario tests TS-08, TS-09, TS-10, TS-11, TS-12, TS-13, TS-14, TS-15, TS-16, TS-17, TS-18,
TS-19, TS-20, TS-21, TS-22 of seeds/alpujarras.md: the standard spaces — place (coloured, two
farmers, place turning into move), move, irrigate, take norias, fruit and dirhems (ALP-23, ALP-24,
ALP-25, ALP-26, ALP-27, ALP-28, ALP-29, ALP-30, ALP-31, ALP-32, ALP-33, ALP-34, ALP-35, ALP-36),
with the rulebook's place and irrigation examples."""

from __future__ import annotations

import pytest
from alp_helpers import D2, IRRIGATE, MOVE_ICON, NORIA, P2, P_ANY, P_GREEN, at, legal, play

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import (
    DO_MOVE,
    DO_PLACE,
    DO_TAKE_NORIAS,
    END_TURN,
    Phase,
    channel,
    farmland,
    fruit,
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
from huerta.envs.core.errors import IllegalActionError

FRUIT_IDS = {fruit(t) for t in range(C.NUM_FRUITS)}


def fruit_choices(s) -> set[int]:
    return {a - fruit(0) for a in legal(s) if a in FRUIT_IDS}


def test_ts08_place_example_fruit_from_the_farmland_under_the_cap():
    """TS-08 (ALP-24, ALP-25, ALP-26; the rulebook's place example): with 5 grapes, placing in the
    orange farmland offers only orange or lemon; taking the lemon."""
    s = at(2, P_ANY, fruit={0: {GRAPE: 5}})
    play(s, DO_PLACE)
    assert s.phase == Phase.PLACE_FARMLAND
    assert legal(s) == {farmland(f) for f in range(C.NUM_FARMLANDS)}
    play(s, farmland(ORANGE_LAND))
    assert s.phase == Phase.GAIN_FRUIT and fruit_choices(s) == {ORANGE, LEMON}
    play(s, fruit(LEMON))
    assert s.farmers[0][ORANGE_LAND] == 1 and s.supply[0] == 14
    assert s.fruit[0] == [0, 0, 1, 0, 5] and s.phase == Phase.ACTION
    assert DO_PLACE not in legal(s)  # ALP-23: each icon once


def test_ts09_no_fruit_when_every_grown_kind_is_capped():
    """TS-09 (ALP-26): with 5 oranges, lemons and grapes the placement in orange gives no fruit and
    the fruit step is skipped."""
    s = at(2, P_ANY, fruit={0: {ORANGE: 5, LEMON: 5, GRAPE: 5}})
    play(s, DO_PLACE, farmland(ORANGE_LAND))
    assert s.phase == Phase.ACTION and s.farmers[0][ORANGE_LAND] == 1
    assert s.fruit[0] == [0, 0, 5, 5, 5]


def test_ts10_coloured_place_space_names_the_farmland():
    """TS-10 (ALP-24): a green place space allows only the green farmland."""
    s = at(2, P_GREEN)
    play(s, DO_PLACE)
    assert legal(s) == {farmland(GREEN)}


def test_ts11_place_two_same_farmland_not_the_same_fruit_twice():
    """TS-11 (ALP-27): place 2 in orange (one grape field): after taking a grape the second
    placement there may take orange or lemon, not grape; a different farmland is unrestricted."""
    s = at(2, P2)
    play(s, DO_PLACE, farmland(ORANGE_LAND), fruit(GRAPE))
    assert s.pend_place == 1
    play(s, DO_PLACE, farmland(ORANGE_LAND))
    assert fruit_choices(s) == {ORANGE, LEMON}
    with pytest.raises(IllegalActionError, match="ALP-27"):
        s.apply(fruit(GRAPE))
    s2 = at(2, P2)
    play(s2, DO_PLACE, farmland(ORANGE_LAND), fruit(GRAPE), DO_PLACE, farmland(PURPLE))
    assert GRAPE in fruit_choices(s2)


def test_ts12_two_grape_fields_allow_two_grapes():
    """TS-12 (ALP-27, ALP-32): a grape crop token on an orange field makes two grape fields, so
    the second grape is allowed."""
    s = at(2, P2, fields={ORANGE_LAND: [GRAPE, -1]}, channels=[9, 10])
    play(s, DO_PLACE, farmland(ORANGE_LAND), fruit(GRAPE), DO_PLACE, farmland(ORANGE_LAND))
    assert GRAPE in fruit_choices(s)
    play(s, fruit(GRAPE))
    assert s.fruit[0][GRAPE] == 2


def test_ts13_place_two_with_one_farmer_the_second_is_a_move():
    """TS-13 (ALP-28, G-20): one farmer in supply, one in red: the first placement is normal, the
    second becomes a move (any own farmland farmer, to another farmland) with its fruit."""
    s = at(2, P2, farmers={0: {RED: 1}}, town_farmers={0: {0: 5, 1: 4, 2: 4}})
    assert s.supply[0] == 1
    play(s, DO_PLACE, farmland(YELLOW), fruit(LEMON))
    assert s.supply[0] == 0
    play(s, DO_PLACE)
    assert s.phase == Phase.MOVE_SOURCE
    assert legal(s) == {farmland(RED), farmland(YELLOW)}
    play(s, farmland(RED))
    assert legal(s) == {farmland(f) for f in range(5) if f != RED}
    play(s, farmland(GREEN))
    assert s.phase == Phase.GAIN_FRUIT and fruit_choices(s) == {APPLE, GRAPE, CHERRY}
    play(s, fruit(CHERRY))
    assert s.farmers[0] == [1, 0, 1, 0, 0] and s.fruit[0][CHERRY] == 1


def test_g20_coloured_place_with_empty_supply_moves_into_that_farmland():
    """G-20, ALP-28: on a green place space with an empty supply the move must end in green: the
    source may be any other farmland and the destination is not asked."""
    s = at(2, P_GREEN, farmers={0: {GREEN: 1, RED: 1}}, town_farmers={0: {0: 5, 1: 4, 2: 4}})
    play(s, DO_PLACE)
    assert legal(s) == {farmland(RED)}
    play(s, farmland(RED))
    assert s.farmers[0][GREEN] == 2 and s.phase == Phase.GAIN_FRUIT


def test_ts14_no_farmer_to_place_or_move():
    """TS-14 (ALP-29, G-19): supply empty, farmers only in towns: place and move are masked, ending
    the turn is legal."""
    towns = {0: {w: 3 for w in range(5)}}
    s = at(2, P_ANY, town_farmers=towns)
    assert DO_PLACE not in legal(s) and END_TURN in legal(s)
    s = at(2, MOVE_ICON, town_farmers=towns)
    assert DO_MOVE not in legal(s) and END_TURN in legal(s)


def test_alp29_move_a_farmer_to_another_farmland_for_a_fruit():
    """ALP-29: move one farmer from a farmland to another and take a fruit grown there."""
    s = at(2, MOVE_ICON, farmers={0: {RED: 2}})
    play(s, DO_MOVE)
    assert legal(s) == {farmland(RED)}
    play(s, farmland(RED))
    assert farmland(RED) not in legal(s)
    play(s, farmland(PURPLE), fruit(APPLE))
    assert s.farmers[0][RED] == 1 and s.farmers[0][PURPLE] == 1 and s.fruit[0][APPLE] == 1


def test_ts15_channels_grow_from_the_water():
    """TS-15 (ALP-30): on an empty network only the five spaces at the water are legal; c4 becomes
    legal after c3, c5 only after c4."""
    s = at(2, IRRIGATE)
    chans = {a - channel(0) for a in legal(s) if channel(0) <= a < channel(15)}
    assert chans == {0, 3, 6, 9, 12}
    s = at(2, IRRIGATE, channels=[3])
    chans = {a - channel(0) for a in legal(s) if channel(0) <= a < channel(15)}
    assert 4 in chans and 5 not in chans
    s = at(2, IRRIGATE, channels=[3, 4], fields={YELLOW: [-1, -1], RED: [CHERRY, -1]})
    chans = {a - channel(0) for a in legal(s) if channel(0) <= a < channel(15)}
    assert 5 in chans and 3 not in chans and 4 not in chans


def test_ts16_irrigation_example_norias_crop_and_fruit():
    """TS-16 (ALP-31, ALP-32; the rulebook's first irrigation example): 2 farmers in yellow, 3 in
    red; channel 5 leads to a yellow field; the draw is an orange: +2 norias (the fewer), the
    orange crop on the field, +1 orange (a farmer is in yellow)."""
    s = at(2, IRRIGATE, farmers={0: {YELLOW: 2, RED: 3}}, channels=[3, 4],
           fields={RED: [CHERRY, -1]}, draws=[ORANGE])
    bag_oranges = s.bag.count(ORANGE)
    play(s, channel(5))
    assert s.norias[0] == 2 and s.fields[YELLOW] == [-1, ORANGE]
    assert s.fruit[0][ORANGE] == 1 and s.bag.count(ORANGE) == bag_oranges - 1
    assert s.describe(farmland(0))  # describe works in ACTION
    counts = [0] * 5
    for t in (*C.PRINTED_FIELDS[YELLOW], ORANGE):
        counts[t] += 1
    from huerta.envs.alpujarras.effects import field_counts

    assert field_counts(s, YELLOW) == counts  # lemon, cherry, orange, orange


def test_ts17_irrigation_example_dirhem_space():
    """TS-17 (ALP-31, ALP-33; the rulebook's second example): no farmers in green or red; channel
    0 covers a dirhem: +0 norias, +1 dirhem, no crop draw, no fruit."""
    s = at(2, IRRIGATE)
    bag = list(s.bag)
    play(s, channel(0))
    assert s.norias[0] == 0 and s.dirhems[0] == 1 and s.bag == bag and sum(s.fruit[0]) == 0


def test_ts18_spend_norias_before_a_gain_to_stay_under_the_cap():
    """TS-18 (ALP-61, ALP-62, ALP-31): 4 norias, 2 farmers in green and red. (a) Irrigating c0 at
    once ends at 5 norias (one lost). (b) Spending 3 to place in green first: 4 -> 1, then +2
    (the fewer of 3 and 2) -> 3."""
    kw = dict(farmers={0: {GREEN: 2, RED: 2}}, norias={0: 4})
    s = at(2, IRRIGATE, **kw)
    play(s, channel(0))
    assert s.norias[0] == 5 and s.dirhems[0] == 1
    s = at(2, IRRIGATE, **kw)
    play(s, spend(3), farmland(GREEN), fruit(APPLE))
    assert s.norias[0] == 1 and s.farmers[0][GREEN] == 3
    play(s, channel(0))
    assert s.norias[0] == 3 and s.dirhems[0] == 1


def test_ts19_crop_without_a_farmer_there_grows_but_pays_no_fruit():
    """TS-19 (ALP-31, ALP-32, ALP-25): c0 filled; 2 farmers in red, none in green; channel 1 leads
    to a green field; the draw is a lemon: +0 norias, green's field holds the lemon, no fruit.
    Later a placement in green may take a lemon."""
    s = at(2, IRRIGATE, farmers={0: {RED: 2}}, channels=[0], draws=[LEMON])
    play(s, channel(1))
    assert s.norias[0] == 0 and s.fields[GREEN] == [LEMON, -1] and sum(s.fruit[0]) == 0
    s2 = at(2, P_ANY, channels=[0, 1], fields={GREEN: [LEMON, -1]})
    play(s2, DO_PLACE, farmland(GREEN))
    assert LEMON in fruit_choices(s2)


def test_ts20_take_norias_at_the_cap():
    """TS-20 (ALP-34, ALP-62): with 5 norias the noria icon leaves 5."""
    s = at(2, NORIA, norias={0: 5})
    play(s, DO_TAKE_NORIAS)
    assert s.norias[0] == 5 and DO_TAKE_NORIAS not in legal(s)
    s = at(2, NORIA, norias={0: 2})
    play(s, DO_TAKE_NORIAS)
    assert s.norias[0] == 3


def test_ts21_take_fruit_icons_under_the_cap():
    """TS-21 (ALP-35, ALP-26): 4 apples on a two-fruit space (4-player side, space 24): the first
    apple makes 5, then apple is masked for the second icon."""
    s = at(4, 24, fruit={0: {APPLE: 4}})
    assert s.pend_fruit == 2
    play(s, fruit(APPLE))
    assert s.fruit[0][APPLE] == 5 and fruit(APPLE) not in legal(s)
    assert fruit(CHERRY) in legal(s)
    play(s, fruit(CHERRY))
    assert s.pend_fruit == 0 and not (legal(s) & FRUIT_IDS)


def test_ts22_dirhem_icons_pay_on_arrival():
    """TS-22 (ALP-36, G-18): a P+D2 space pays its 2 dirhems at once, with no decision for them:
    only the place icon and ending the turn are left."""
    s = at(2, D2)
    assert s.dirhems[0] == 2 and legal(s) == {DO_PLACE, END_TURN}


def test_alp23_icons_in_any_order_and_end_turn_forfeits_the_rest():
    """ALP-23, G-18: on 'I+D' (space 11) the dirhem is paid, irrigate is optional; on 'P+D'
    ending the turn leaves the place icon unresolved."""
    s = at(2, 11)
    assert s.dirhems[0] == 1 and any(channel(0) <= a < channel(15) for a in legal(s))
    s = at(2, 28)
    assert DO_PLACE in legal(s)
    play(s, END_TURN)
    assert s.supply[0] == 15 and s.phase == Phase.MOVE


def test_alp24_place_puts_a_farmer_from_supply():
    """ALP-24, ALP-70: a placement moves a farmer from supply to the farmland."""
    s = at(3, P_ANY)
    play(s, DO_PLACE, farmland(PURPLE))
    assert s.supply[0] == 14 and s.farmers[0][PURPLE] == 1
