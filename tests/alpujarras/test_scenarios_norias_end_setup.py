"""Scenario tests TS-42, TS-43, TS-44, TS-45, TS-46, TS-47, TS-48 and TS-52 of seeds/alpujarras.md:
spending norias, the end track and its sale, scoring and the tiebreak, and the setup (ALP-01,
ALP-02, ALP-03, ALP-04, ALP-05, ALP-06, ALP-07, ALP-08, ALP-09, ALP-10, ALP-11, ALP-12, ALP-13,
ALP-61, ALP-62, ALP-63, ALP-64, ALP-65, ALP-66, ALP-67, ALP-70, ALP-71), with the rulebook's
end-track sale example."""

from __future__ import annotations

from collections import Counter

import pytest
from alp_helpers import END_SPACES, HARVESTS, MARKETS, P_ANY, at, legal, play

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import new_game
from huerta.envs.alpujarras.actions import (
    DO_HARVEST,
    END_TURN,
    Phase,
    card,
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
    RED,
    YELLOW,
)
from huerta.envs.alpujarras.scenario import scenario

SPENDS = {spend(k) for k in range(1, 6)}


@pytest.mark.parametrize(("k", "dirhems"), [(5, 2), (4, 1), (3, 0)])
def test_ts42_spend_norias_to_place(k, dirhems):
    """TS-42 (ALP-61): 5 norias, 3 in supply: spending 5 / 4 / 3 places a farmer with its fruit and
    pays 2 / 1 / 0 dirhems."""
    s = at(3, P_ANY, norias={0: 5}, town_farmers={0: {0: 5, 1: 5, 2: 2}})
    assert s.supply[0] == 3
    play(s, spend(k), farmland(YELLOW), fruit(LEMON))
    assert s.norias[0] == 5 - k and s.farmers[0][YELLOW] == 1 and s.supply[0] == 2
    assert s.fruit[0][LEMON] == 1 and s.dirhems[0] == dirhems and s.phase == Phase.ACTION


def test_ts43_spend_two_norias_to_move():
    """TS-43 (ALP-61): 2 norias, one farmer in red: move it to yellow and take a yellow fruit."""
    s = at(3, P_ANY, norias={0: 2}, farmers={0: {RED: 1}})
    play(s, spend(2))
    assert legal(s) == {farmland(RED)}
    play(s, farmland(RED), farmland(YELLOW))
    assert {a - fruit(0) for a in legal(s)} == {CHERRY, LEMON, ORANGE}
    play(s, fruit(ORANGE))
    assert s.farmers[0] == [0, 0, 1, 0, 0] and s.norias[0] == 0 and s.fruit[0][ORANGE] == 1


def test_ts44_spend_one_noria_to_swap_a_fruit():
    """TS-44 (ALP-61, ALP-26): 1 noria, 5 cherries and 1 apple: return the apple; the same kind
    and the capped cherry are masked, lemon, orange and grape legal."""
    s = at(3, P_ANY, norias={0: 1}, fruit={0: {CHERRY: 5, APPLE: 1}})
    play(s, spend(1))
    assert {a - fruit(0) for a in legal(s)} == {APPLE, CHERRY}
    play(s, fruit(APPLE))
    assert {a - fruit(0) for a in legal(s)} == {LEMON, ORANGE, GRAPE}
    play(s, fruit(GRAPE))
    assert s.fruit[0] == [0, 5, 0, 0, 1] and s.norias[0] == 0


def test_ts45_noria_placements_need_a_farmer_in_supply():
    """TS-45 (G-20): empty supply, 5 norias: 3-5 are masked; 2 is legal with a farmland farmer."""
    s = at(3, P_ANY, norias={0: 5}, farmers={0: {GREEN: 1}},
           town_farmers={0: {0: 4, 1: 5, 2: 5}})
    assert legal(s) & SPENDS == {spend(2)}


def test_alp61_norias_can_be_spent_on_any_space_and_repeatedly():
    """ALP-61, G-25: norias are spent on market, harvest and end visits too, several times."""
    s = at(3, MARKETS[0], norias={0: 5}, fruit={0: {APPLE: 2}})
    play(s, spend(1), fruit(APPLE), fruit(CHERRY), spend(1), fruit(APPLE), fruit(LEMON))
    assert s.norias[0] == 3 and s.fruit[0] == [0, 1, 1, 0, 0]
    s = at(3, HARVESTS[0], norias={0: 3})
    assert spend(3) in legal(s)


def test_alp62_noria_cap_holds_for_every_gain():
    """ALP-62: irrigation, harvest and noria icons never push norias above 5."""
    s = at(3, 20, norias={0: 4})  # N
    from huerta.envs.alpujarras.actions import DO_TAKE_NORIAS

    play(s, DO_TAKE_NORIAS)
    assert s.norias[0] == 5


def test_ts46_end_track_sale_example():
    """TS-46 (ALP-64; the rulebook's sale example): blue finishes on the 4:1 space with 4 grapes,
    3 apples and 2 lemons: 9 fruit sell for 2 dirhems and all fruit goes back."""
    s = scenario(3, positions={0: 33, 1: 36, 2: 34}, fruit={0: {GRAPE: 4, APPLE: 3, LEMON: 2}})
    play(s, move_to(35))
    assert s.track[35].ratio == 4
    play(s, END_TURN)
    assert s.fruit[0] == [0] * 5 and s.dirhems[0] == 2 and s.fruit_supply == [25] * 5


def test_ts47_end_arrival_delivery_goal_then_sale_of_what_is_left():
    """TS-47 (ALP-63, G-23): on the end track a delivery and a goal are both allowed (one each),
    then END_TURN sells only the fruit left."""
    s = scenario(3, positions={0: 33, 1: 36, 2: 35}, farmers={0: {RED: 3}},
                 fruit={0: {CHERRY: 5, APPLE: 3}}, goal_sides=[0, 0, 0, 0, 0],
                 towns={RED: [(CHERRY, 4), (APPLE, 2), (LEMON, 3), (GRAPE, 5)]})
    play(s, move_to(34))
    slot = s.towns[RED].index(C.token(CHERRY, 4))
    assert deliver(RED, slot) in legal(s) and card(0) in legal(s)
    play(s, card(0), deliver(RED, slot))
    assert not legal(s) - SPENDS - {END_TURN}
    before = s.dirhems[0]
    play(s, END_TURN)
    # 1 cherry + 3 apples left = 4 fruit at 5:1 -> 0 dirhems
    assert s.dirhems[0] == before and sum(s.fruit[0]) == 0
    assert s.is_terminal


def test_ts48_scores_and_end_track_tiebreak():
    """TS-48 (ALP-65, ALP-66, ALP-67): A 10 dirhems + cherry-4 + apple-3 = 15 on the 3:1 space, B
    15 dirhems on 4:1: tied scores, A wins the tiebreak; rewards +1 / -1."""
    s = scenario(2, positions={0: 33, 1: 35, 2: 20}, dirhems={0: 10, 1: 15},
                 tokens={0: [(CHERRY, 4), (APPLE, 3)]})
    play(s, move_to(36), END_TURN)
    assert s.is_terminal
    assert s.scores() == [15, 15]
    assert s.winners() == [0] and s.rewards() == [1.0, -1.0]
    assert s.rewards("score_margin") == [0.0, 0.0]


@pytest.mark.parametrize("n", (2, 3, 4))
def test_ts52_setup(n):
    """TS-52: setup over many seeds. ALP-03 track sides (26 standard + 3 end or 34 + 4), ALP-04
    layout (go first, end last, alternating, market first), ALP-05 one 2 per fruit removed with
    2-3 players, ALP-06 4/4/5 tokens per town with 3+ kinds each, ALP-07 awards green, ALP-08
    one side of each goal card, ALP-09 the full bag, ALP-10 nothing held, ALP-11 15 farmers in
    supply, ALP-12 mules on the start spots, ALP-13 the die only with 2 players."""
    four = n == 4
    layouts, starts = set(), set()
    for seed in range(200):
        s = new_game(n, seed=seed)
        assert s.check_consistency() == []
        kinds = Counter(sp.kind for sp in s.track)
        assert kinds[C.STANDARD] == (34 if four else 26)
        assert kinds[C.END] == (4 if four else 3)
        assert kinds[C.MARKET] == kinds[C.HARVEST] == 4
        assert s.layout[0] == C.GO_SEGMENT and s.layout[-1] == C.END_SEGMENT
        middle = [C.SEGMENTS[x].kind for x in s.layout[1:-1]]
        assert middle == [C.MARKET, C.HARVEST] * 4
        layouts.add(tuple(s.layout))
        tokens = [t for town in s.towns for t in town]
        assert len(tokens) == (25 if four else 20)
        twos = Counter(t // 10 for t in tokens if t % 10 == 2)
        assert all(twos[f] == (2 if four else 1) for f in range(5))
        assert all(len(town) == (5 if four else 4) for town in s.towns)
        assert all(len({t // 10 for t in town}) >= 3 for town in s.towns)
        assert s.awards == [C.AWARD_GREEN] * 5
        assert len(s.goal_sides) == 5 and set(s.goal_sides) <= {0, 1}
        assert Counter(s.bag) == Counter({k: 3 for k in range(5)})
        for p in range(n):
            assert s.fruit[p] == [0] * 5 and s.norias[p] == 0 and s.dirhems[p] == 0
            assert s.supply[p] == 15 and s.tokens[p] == []
        assert all(s.pos[i] == -1 for i in range(s.num_pieces))
        starts.add(tuple(s.spot[:n]))
        assert s.has_die == (n == 2) and s.num_pieces == n + (n == 2)
        assert new_game(n, seed=seed) == s
    assert len(layouts) > 50 and len(starts) == (2 if n == 2 else 6 if n == 3 else 24)


def test_alp01_player_counts():
    """ALP-01: 2, 3, 4 players (and 1 for the solo game) start; others are refused."""
    from huerta.envs.core.errors import InvalidConfigError

    for n in (1, 2, 3, 4):
        assert new_game(n, seed=0).num_players == n
    for bad in (0, 5, "2", 2.5, True):
        with pytest.raises(InvalidConfigError, match="valid values: 1, 2, 3, 4"):
            new_game(bad, seed=0)


def test_alp02_components_are_the_printed_counts():
    """ALP-02: 15 farmers per player, 25 fruit per kind, 15 crop tokens, 15 channel spaces,
    25 delivery tokens (5 per fruit), 5 award tokens, 5 goal cards."""
    assert C.FARMERS_PER_PLAYER == 15 and C.FRUIT_PER_KIND == 25
    assert C.CROPS_PER_KIND * C.NUM_FRUITS == 15 and C.NUM_CHANNELS == 15
    assert len(C.ALL_TOKENS) == 25 and Counter(t // 10 for t in C.ALL_TOKENS) == {
        f: 5 for f in range(5)
    }
    assert len(C.AWARDS) == 5 and C.NUM_GOAL_CARDS == 5 and C.NUM_GOALS == 10


def test_alp70_alp71_supplies_never_run_out():
    """ALP-70, ALP-71: supply farmers never go negative (place needs one, else it is a move); the
    fruit supply always covers 4 players holding 5 of a kind."""
    assert C.FRUIT_PER_KIND >= C.MAX_SEATS * C.FRUIT_CAP
    s = at(3, P_ANY, town_farmers={0: {0: 5, 1: 5, 2: 5}}, farmers={0: {}})
    from huerta.envs.alpujarras.actions import DO_PLACE

    assert s.supply[0] == 0 and DO_PLACE not in legal(s)


def test_alp66_score_counts_token_dirhem_sides():
    """ALP-66: score = dirhems + sum(fruit value - 1)."""
    s = scenario(3, dirhems={1: 7}, tokens={1: [(GRAPE, 5), (LEMON, 2)]})
    assert s.scores()[1] == 7 + 4 + 1


def test_alp64_sale_rounds_down_and_returns_everything():
    """ALP-64: 7 fruit on the 3:1 space -> 2 dirhems, no fruit left."""
    s = scenario(3, positions={0: 33, 1: 34, 2: 35}, fruit={0: {ORANGE: 4, APPLE: 3}})
    play(s, move_to(36), END_TURN)
    assert s.dirhems[0] == 2 and sum(s.fruit[0]) == 0


def test_alp63_end_arrival_allows_one_goal_not_a_harvest():
    """ALP-63: on the end track there is no harvest; one goal may be completed."""
    s = scenario(3, positions={0: 33, 1: 36, 2: 35}, fruit={0: {GRAPE: 5}},
                 goal_sides=[0, 0, 0, 0, 0])
    play(s, move_to(END_SPACES[0]))
    assert DO_HARVEST not in legal(s) and card(0) in legal(s)
