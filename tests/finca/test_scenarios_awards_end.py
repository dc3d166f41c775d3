"""Scenario tests T-33, T-34, T-35, T-36, T-37, T-38, T-39, T-40, T-41, T-42, T-43, T-44, T-45,
T-46, T-47, T-48, T-49 of seeds/finca.md (Scenario tests): finca-tile awards, bonus tiles, the game
end, scoring, the tiebreak and the invariants checked along random games (FIN-35, FIN-36, FIN-37,
FIN-38, FIN-39, FIN-40, FIN-41, FIN-42, FIN-43, FIN-44, FIN-45, FIN-46, FIN-51, FIN-52)."""

from __future__ import annotations

import numpy as np
import pytest
from finca_helpers import BLADES, BLOCKER, bonus_flags, deliver, legal

from huerta.envs import finca_v0
from huerta.envs.core.errors import IllegalActionError
from huerta.envs.finca import components as C
from huerta.envs.finca import new_game
from huerta.envs.finca.actions import (
    CONFIRM,
    DELIVER,
    PLAY_DOUBLE,
    PLAY_GUST,
    Phase,
    blade,
    comm,
)
from huerta.envs.finca.components import ALMOND, FIG, GRAPE, LEMON, OLIVE
from huerta.envs.finca.observation import COMMUNITY_BLOCK, PLAYER_BLOCK, SLICES
from huerta.envs.finca.scenario import scenario

B4 = [BLOCKER] * 4
UNIVERSAL = 9
FIG_ALMOND = 6


def make(n=2, stacks=None, **kw):
    """Stacks are taken as given (a one-tile stack is a community's last tile); communities not
    named hold blocker stacks."""
    kw.setdefault("farmers", {p: {p: 1} for p in range(n)})
    named = stacks or {}
    full = {c: list(named.get(c, B4)) for c in range(C.NUM_COMMUNITIES)}
    s = scenario(n, seed=8, blades=BLADES, stacks=full, **kw)
    assert s.check_consistency() == []
    return s


def env_with(state):
    """An AEC env whose game is `state` (the builder's states are not reachable by reset)."""
    e = finca_v0.env(num_players=state.num_players)
    e.reset(seed=0)
    raw = e.unwrapped
    raw.game = state
    raw.agent_selection = raw.possible_agents[state.current_player]
    return e


# --- finca awards --------------------------------------------------------------------------------

OLIVE_CASES = {
    # id: (displays before, tile P1 delivers, P1 fruit, winner or None)
    "T-33": (
        {0: ["2F+2O", "2O+2G"], 1: ["1O+1R", "1O"], 2: ["1O", "1A+1O"]}, "3O", OLIVE, 1
    ),
    "T-34": (
        {0: ["2F+2O", "2O+2G", "1A+1O", "1O"], 1: ["1O+1R", "1O"], 2: ["1O", "1A+1O"]},
        "3O", OLIVE, 0,
    ),
    "T-35": ({0: ["1A+1O", "2O+2G"], 1: ["1F"], 2: ["1O"]}, "3O", OLIVE, None),
    "T-36": ({0: ["3F"], 1: [], 2: ["1L"]}, "1F", FIG, None),
}


@pytest.mark.parametrize("case", sorted(OLIVE_CASES))
def test_t33_to_t36_single_fruit_finca_award(case):
    """T-33 (FIN-35, FIN-37), T-34 (FIN-35), T-35 (FIN-36, G-09), T-36 (G-09): 3 players; P1 takes
    C5's last tile (finca tile: olive). Printed olives after the delivery: T-33 P0 4, P1 5, P2 2 ->
    P1 +1 finca tile (+5); T-34 P0 6, P1 5 -> P0 gets it although P1 emptied the stack; T-35
    P0 3, P1 3, P2 1 -> removed; T-36 nobody has an olive -> removed. In every case a wooden finca
    goes on C5 (reserve -1) and COMM(5) stays masked afterwards."""
    displays, tile, pay_fruit, winner = OLIVE_CASES[case]
    s = make(
        3,
        stacks={5: [tile], 6: [BLOCKER, BLOCKER, BLOCKER, "1G"]},
        displays=displays,
        finca_tiles={5: OLIVE},
        fruits={1: {pay_fruit: tile_size(tile)}, 2: {GRAPE: 1}},
        carts={1: 1, 2: 1},
        current_player=1,
    )
    assert s.wooden_reserve == 5
    scores_before = s.scores()
    deliver(s, 5)
    assert s.finca_tile[5] == -1 and s.wooden[5] and s.wooden_reserve == 4
    gained = [s.scores()[p] - scores_before[p] for p in range(3)]
    tile_value = tile_size(tile)
    for p in range(3):
        expected = (tile_value if p == 1 else 0) + (5 if p == winner else 0)
        assert gained[p] == expected
        assert s.fincas_won[p] == ([OLIVE] if p == winner else [])
    assert (OLIVE in s.fincas_removed) == (winner is None)
    row = s.observe(0)[SLICES["communities"]].reshape(10, COMMUNITY_BLOCK)[5]
    assert row[0] == 0.0 and row[22] == 1.0  # empty and resolved
    assert s.observe(0)[SLICES["game_meta"]][4] == pytest.approx(4 / 6)
    # P2's turn: a delivery is possible, but never to the emptied community
    assert s.current_player == 2 and not s.is_terminal
    s.apply(DELIVER)
    assert legal(s) == {comm(6)}
    with pytest.raises(IllegalActionError):
        s.apply(comm(5))
    assert s.check_consistency() == []


def tile_size(text: str) -> int:
    return sum(int(tok[:-1]) for tok in text.split("+"))


@pytest.mark.parametrize(
    ("p0_display", "p1_display", "winner"),
    [
        (["1F"], ["3A", "1A"], 1),  # T-37: P0 2 figs + 1 almond = 3 < P1 4 almonds
        (["1F"], ["3A"], None),  # 3 = 3: tie, removed
        (["1F", "1A"], ["3A"], 0),  # P0 2 figs + 2 almonds = 4 beats 3 almonds
    ],
)
def test_t37_two_fruit_finca_sums_both_types(p0_display, p1_display, winner):
    """T-37 (FIN-38, FIN-35, FIN-36): finca tile FIG+ALM; P0 takes C0's last tile 1F+1A; the
    majority is judged on printed figs + almonds together."""
    s = make(
        stacks={0: ["1F+1A"]},
        displays={0: p0_display, 1: p1_display},
        finca_tiles={0: FIG_ALMOND},
        fruits={0: {FIG: 1, ALMOND: 1}},
        carts={0: 1},
    )
    deliver(s, 0)
    assert s.finca_tile[0] == -1 and s.wooden[0]
    for p in range(2):
        assert s.fincas_won[p] == ([FIG_ALMOND] if p == winner else [])
    assert (FIG_ALMOND in s.fincas_removed) == (winner is None)
    assert s.check_consistency() == []


@pytest.mark.parametrize(("extra", "winner"), [([], None), ([("1R", 1)], 0)])
def test_t38_universal_finca_sums_face_values(extra, winner):
    """T-38 (FIN-39, G-08, FIN-36): universal finca tile; after P0 takes C0's last tile (value 1)
    the fruit-tile face-value totals are P0 14, P1 12, P2 14 -> tie, removed; with one more point
    (P0 15) P0 wins it."""
    p0 = [("1F", 6), ("1A", 4), ("1O", 3), *extra]
    s = make(
        3,
        stacks={0: ["1L"]},
        displays={0: p0, 1: [("1G", 6), ("1L", 6)], 2: [("1G", 6), ("1L", 5), ("1R", 3)]},
        finca_tiles={0: UNIVERSAL},
        fruits={0: {LEMON: 1}},
        carts={0: 1},
    )
    deliver(s, 0)
    assert s.tile_points == [14 + len(extra), 12, 14]
    for p in range(3):
        assert s.fincas_won[p] == ([UNIVERSAL] if p == winner else [])
    assert (UNIVERSAL in s.fincas_removed) == (winner is None)
    assert s.check_consistency() == []


def test_g13_universal_finca_ignores_bonus_and_finca_tiles():
    """G-13 (FIN-39, G-08): bonus tiles and won finca tiles are not fruit tiles: P1 with fruit tiles
    worth 12, a bonus 7 and a won finca tile loses the universal tile to P0's 13 face value."""
    s = make(
        stacks={0: ["1L"], 9: []},
        displays={0: [("1F", 6), ("1A", 6)], 1: [("1G", 6), ("1O", 6)]},
        finca_tiles={0: UNIVERSAL},
        fruits={0: {LEMON: 1}},
        carts={0: 1},
    )
    s.fincas_won[1] = list(s.fincas_removed)  # C9's finca tile, won earlier by P1
    s.fincas_removed = []
    s.bonuses[1] = [s.bonus_stack.pop()]
    s.invalidate()
    assert s.check_consistency() == []
    deliver(s, 0)
    assert s.tile_points == [13, 12]
    assert s.fincas_won[0] == [UNIVERSAL] and UNIVERSAL not in s.fincas_won[1]
    assert s.check_consistency() == []


def test_t39_wild_symbols_paid_with_olives_do_not_count():
    """T-39 (G-07, FIN-35, FIN-29): finca olive; P0 takes C5's last tile 3? paying 3 olives and has
    one printed olive; P1 has 2 printed olives -> P1 wins the finca tile."""
    s = make(
        stacks={5: ["3?"]},
        displays={0: ["1O"], 1: ["1A+1O", "1O"]},
        finca_tiles={5: OLIVE},
        fruits={0: {OLIVE: 3}},
        carts={0: 1},
    )
    deliver(s, 5, wild=OLIVE)
    assert s.fruits[0][OLIVE] == 0
    assert s.printed[0][OLIVE] == 1 and s.wild_symbols[0] == 3
    assert s.fincas_won == [[], [OLIVE]]
    assert s.check_consistency() == []


def test_t40_majority_counts_every_tile_of_the_same_delivery():
    """T-40 (G-10, G-39, FIN-35, FIN-25): one delivery takes C2's last tile (1F, finca olive, no
    olive printed) and C4's top 2O+2G (selected after C2). Before: P0 1 olive, P1 2; afterwards P0
    3 -> P0 wins C2's finca tile."""
    s = make(
        stacks={2: ["1F"], 4: [BLOCKER, BLOCKER, BLOCKER, "2O+2G"]},
        displays={0: ["1O"], 1: ["1A+1O", "1O"]},
        finca_tiles={2: OLIVE},
        fruits={0: {FIG: 1, OLIVE: 2, GRAPE: 2}},
        carts={0: 1},
    )
    deliver(s, 2, 4)
    assert s.printed[0][OLIVE] == 3
    assert s.fincas_won == [[OLIVE], []]
    assert s.wooden[2] and not s.wooden[4] and len(s.stacks[4]) == 3
    assert s.check_consistency() == []


# --- bonus tiles ---------------------------------------------------------------------------------


def test_t41_to_t43_bonus_tiles_7_6_5_4_then_none():
    """T-41 (FIN-40, FIN-10), T-42 (FIN-41, G-12), T-43 (G-12): 3 players. P0 (values 1-5 twice)
    delivers a 6 -> bonus 7 at once, stack top 6; P1 (1-5 twice) delivers a 6 -> 6; P2 (1-5 once)
    delivers a 1, holding {1,1,2,3,4,5} -> nothing; P0 delivers a second 6 (two full sets) -> 5;
    P1 likewise -> 4; P2 then completes a set but the stack is empty -> nothing, no error."""
    two_sets = [("1R", v) for v in (1, 2, 3, 4, 5)] * 2
    s = make(
        3,
        stacks={
            0: [*B4[:3], ("1F", 6)], 1: [*B4[:3], ("1A", 6)], 2: [*B4[:3], ("1O", 1)],
            3: [*B4[:3], ("1F", 6)], 4: [*B4[:3], ("1A", 6)], 5: [*B4[:3], ("1O", 6)],
        },
        displays={0: two_sets, 1: list(two_sets), 2: [("1R", v) for v in (1, 2, 3, 4, 5)]},
        fruits={0: {FIG: 2}, 1: {ALMOND: 2}, 2: {OLIVE: 2}},
        carts={0: 2, 1: 2, 2: 2},
    )
    assert s.bonuses == [[], [], []]  # five values are not a set
    before = s.scores()[0]
    deliver(s, 0)  # T-41
    assert s.bonuses[0] == [7] and s.scores()[0] == before + 6 + 7
    assert s.bonus_stack[-1] == 6
    assert bonus_flags(s.observe(1)) == [0.0, 1.0, 1.0, 1.0]
    deliver(s, 1)  # T-42: P1's first set
    assert s.bonuses[1] == [6]
    deliver(s, 2)  # P2: {1,1,2,3,4,5} is no set
    assert s.bonuses[2] == [] and s.bonus_stack == [4, 5]
    deliver(s, 3)  # P0: two tiles of every value -> second bonus
    assert s.bonuses[0] == [7, 5]
    deliver(s, 4)
    assert s.bonuses[1] == [6, 4] and s.bonus_stack == []
    score2 = s.scores()[2]
    deliver(s, 5)  # T-43: P2 completes a set with the stack empty
    assert s.bonuses[2] == [] and s.scores()[2] == score2 + 6
    assert sorted(b for bs in s.bonuses for b in bs) == [4, 5, 6, 7]
    assert s.check_consistency() == []


def test_t43_no_bonus_left_completing_a_set_is_harmless():
    """T-43 (G-12, FIN-40): with the bonus stack empty, completing a 1-6 set gives nothing and
    raises nothing; the game continues with the next player."""
    s = make(
        stacks={0: [*B4[:3], ("1F", 6)]},
        displays={0: [("1R", v) for v in (1, 2, 3, 4, 5)]},
        fruits={0: {FIG: 1}},
        carts={0: 1},
        bonus_stack=[],
    )
    deliver(s, 0)
    assert s.bonuses == [[], []] and s.tile_points[0] == 21 and s.scores()[0] == 21 + 8
    assert s.current_player == 1 and not s.is_terminal


# --- game end, scoring, tiebreak ----------------------------------------------------------------


def end_state(**kw):
    """2 players, C2-C4 emptied (reserve 1); C1 and C7 each hold their last tile."""
    stacks = {1: ["1F"], 7: ["1A"], 2: [], 3: [], 4: []}
    stacks.update(kw.pop("stacks", {}))
    return make(stacks=stacks, **kw)


def test_t44_last_wooden_finca_ends_the_game_after_the_turn():
    """T-44 (FIN-42, G-31, G-10, FIN-44): 2 players, 1 wooden finca left; P0's delivery takes the
    last tiles of C1 (finca fig) and C7 (finca almond): C1 gets the last wooden finca, both finca
    tiles are resolved (fig to P0, almond tied and removed), the episode ends after this CONFIRM,
    P1 never acts again and every agent is terminated."""
    s = end_state(
        finca_tiles={1: FIG, 7: ALMOND},
        displays={1: ["1A"]},
        fruits={0: {FIG: 1, ALMOND: 1}},
        carts={0: 1},
    )
    assert s.wooden_reserve == 1 and sum(s.wooden) == 3
    e = env_with(s)
    for a in (DELIVER, comm(1), comm(7)):
        e.step(a)
        assert e.agent_selection == "player_0" and not any(e.terminations.values())
    e.step(CONFIRM)
    assert s.is_terminal and s.phase == Phase.GAME_OVER
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert s.wooden_reserve == 0 and s.wooden[1] and not s.wooden[7]
    assert s.finca_tile[1] == -1 and s.finca_tile[7] == -1
    assert s.fincas_won == [[FIG], []] and ALMOND in s.fincas_removed
    assert s.scores() == [2 + 5 + 8, 1 + 8]
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert e.infos["player_0"]["winners"] == ["player_0"]
    assert not s.legal_mask().any()
    assert not e.observe("player_1")["action_mask"].any()
    with pytest.raises(IllegalActionError):
        s.apply(blade(1))
    assert s.check_consistency() == []


def test_g31_finca_still_awarded_when_no_wooden_finca_is_left():
    """G-31 (FIN-42, FIN-35, FIN-37): the last wooden finca goes to C1 (lower index); C7, emptied by
    the same delivery, gets no wooden finca but its finca tile is still awarded (almond to P0)."""
    s = end_state(
        finca_tiles={1: FIG, 7: ALMOND}, fruits={0: {FIG: 1, ALMOND: 1}}, carts={0: 1}
    )
    deliver(s, 7, 1)
    assert s.is_terminal and s.wooden_reserve == 0
    assert s.wooden[1] and not s.wooden[7]
    assert sorted(s.fincas_won[0]) == [FIG, ALMOND] and s.fincas_won[1] == []
    assert s.scores() == [2 + 10 + 8, 8]
    assert s.check_consistency() == []


def test_t45_moves_never_place_wooden_fincas_or_end_the_game():
    """T-45 (G-11, FIN-42): with 1 wooden finca left, a plain move, a Double move and a Gust of
    wind leave the reserve unchanged and never end the game."""
    s = end_state(farmers={0: {5: 1, 11: 1}, 1: {2: 1, 9: 1}})
    s.apply(blade(5))  # P0 plain move (crosses a line)
    s.apply(PLAY_DOUBLE)  # P1
    s.apply(blade(2))
    s.apply(blade(9))
    s.apply(PLAY_GUST)  # P0
    s.apply(blade(11))
    s.apply(blade(4))
    assert s.wooden_reserve == 1 and sum(s.wooden) == 3
    assert not s.is_terminal and s.phase == Phase.MAIN and s.current_player == 1
    assert s.check_consistency() == []


def test_t46_final_score_formula():
    """T-46 (FIN-43): P0's display: fruit tiles 1+2+3+3+6, 2 finca tiles, 2 unused action tiles,
    bonus 7; 9 fruits and 2 carts held -> score 15 + 10 + 4 + 7 = 36; fruit and carts count 0."""
    s = make(
        stacks={8: [], 9: []},
        displays={0: ["1F", "1F+1A", "3F", "3A", "3F+2A+1O"]},
        used_action_tiles={0: [C.DOUBLE_MOVE, C.GUST_OF_WIND]},
        fruits={0: {FIG: 4, LEMON: 5}},
        carts={0: 2},
    )
    # The builder cannot hand out won finca tiles or bonus tiles: give P0 the finca tiles of the
    # two emptied communities and the top bonus tile by hand, keeping every piece accounted for.
    won = list(s.fincas_removed)
    s.fincas_removed = []
    s.fincas_won[0] = won
    s.bonuses[0] = [s.bonus_stack.pop()]
    s.invalidate()
    assert s.check_consistency() == []
    assert s.tile_points[0] == 15 and len(s.fincas_won[0]) == 2 and s.bonuses[0] == [7]
    assert s.scores()[0] == 36
    obs = s.observe(0)[SLICES["players"]]
    assert obs[PLAYER_BLOCK - 2] == pytest.approx(0.36)
    richer = s.clone()
    richer.fruits[0] = [0] * 6
    richer.supply = [18] * 6
    richer.carts[0], richer.centre_carts = 0, richer.centre_carts + 2
    richer.invalidate()
    assert richer.check_consistency() == []
    assert richer.scores()[0] == 36


def tie_state(p1_fruit: int, p1_extra_value: int = 0):
    """P0 takes C0's last tile (1L, finca lemon, tied 1-1 and removed) and ends the game at 36; P1
    has 36 (+ p1_extra_value) and holds `p1_fruit` almonds; P0 ends holding 5 figs."""
    return make(
        stacks={0: ["1L"], 1: [], 2: [], 3: []},
        finca_tiles={0: LEMON},
        displays={
            0: [("1F", 6)] * 4 + [("1F", 3)],
            1: [("1A", 6)] * 4 + [("1L", 4 + p1_extra_value)],
        },
        fruits={0: {LEMON: 1, FIG: 5}, 1: {ALMOND: p1_fruit}},
        carts={0: 1},
    )


def test_t47_tied_score_broken_by_fruit_held():
    """T-47 (FIN-45, G-28, G-29, FIN-44): both end at 36; P0 holds 5 fruits, P1 3 -> P0 is the sole
    winner (+1 / -1)."""
    s = tie_state(p1_fruit=3)
    e = env_with(s)
    for a in (DELIVER, comm(0), CONFIRM):
        e.step(a)
    assert s.is_terminal and LEMON in s.fincas_removed
    assert s.scores() == [36, 36]
    assert [sum(f) for f in s.fruits] == [5, 3]
    assert s.winners() == [0] and s.rewards() == [1.0, -1.0]
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert e.infos["player_0"]["is_winner"] and not e.infos["player_0"]["shared_victory"]


def test_t47_still_tied_is_a_shared_victory():
    """T-47 (FIN-46, G-29): both at 36, both holding 5 fruits -> shared victory, rewards 0 / 0."""
    s = tie_state(p1_fruit=5)
    e = env_with(s)
    for a in (DELIVER, comm(0), CONFIRM):
        e.step(a)
    assert s.scores() == [36, 36] and [sum(f) for f in s.fruits] == [5, 5]
    assert s.winners() == [0, 1] and s.rewards() == [0.0, 0.0]
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert e.infos["player_1"]["shared_victory"] and e.infos["player_1"]["is_winner"]


def test_fin44_highest_score_wins_before_any_tiebreak():
    """FIN-44 (FIN-43): P1 scores 37 against P0's 36 and wins although P0 holds more fruit."""
    s = tie_state(p1_fruit=0, p1_extra_value=1)
    for a in (DELIVER, comm(0), CONFIRM):
        s.apply(a)
    assert s.is_terminal and s.scores() == [36, 37]
    assert s.winners() == [1] and s.rewards() == [-1.0, 1.0]


# --- invariants along random games --------------------------------------------------------------


def independent_invariants(s, farmers_each: list[int]) -> None:
    n = s.num_players
    carts_in_play = {2: 4, 3: 6, 4: 8}[n]
    wooden_total = {2: 4, 3: 5, 4: 6}[n]
    for f in range(6):
        assert s.supply[f] + sum(s.fruits[p][f] for p in range(n)) == 18
        assert s.supply[f] >= 0 and min(s.fruits[p][f] for p in range(n)) >= 0
    assert s.centre_carts + sum(s.carts) == carts_in_play and min(s.carts) >= 0
    assert s.centre_carts >= 0
    if s.phase != Phase.INTRO:
        assert [sum(s.farmers[p]) for p in range(n)] == farmers_each
    tiles = [t for st in s.stacks for t in st] + s.boxed + [t for d in s.displays for t in d]
    assert sorted(tiles) == list(range(42))
    fincas = [f for f in s.finca_tile if f >= 0] + s.fincas_removed
    fincas += [f for won in s.fincas_won for f in won]
    assert sorted(fincas) == list(range(10))
    assert s.wooden_reserve + sum(s.wooden) == wooden_total


@pytest.mark.parametrize("n", [2, 3, 4])
def test_t48_conservation_along_random_games(n):
    """T-48 (FIN-51): random playouts; after every step fruit supply + holdings = 18 per type,
    centre + player carts = carts in play, farmers per player fixed after the intro, 42 fruit
    tiles and 10 finca tiles accounted for, wooden reserve + placed constant; the reserve only
    changes on a CONFIRM and only a CONFIRM ends the game (G-11)."""
    farmers_each = [{2: 5, 3: 4, 4: 3}[n]] * n
    for seed in range(3):
        s = new_game(n, seed=seed)
        rng = np.random.default_rng(1000 + seed)
        for _ in range(1500):
            if s.is_terminal:
                break
            a = int(rng.choice(np.flatnonzero(s.legal_mask())))
            reserve = s.wooden_reserve
            s.apply(a)
            independent_invariants(s, farmers_each)
            assert s.check_consistency() == []
            if a != CONFIRM:
                assert s.wooden_reserve == reserve and not s.is_terminal


@pytest.mark.parametrize("n", [2, 3, 4])
def test_t49_masks_are_never_empty_and_exact(n):
    """T-49 (FIN-52, G-25, G-37, Actions): random playouts; the acting player's mask is never empty;
    every unmasked id is accepted; a masked id raises and leaves the state unchanged."""
    for seed in range(2):
        s = new_game(n, seed=50 + seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            if s.is_terminal:
                assert not s.legal_mask().any()
                break
            mask = s.legal_mask().copy()
            assert mask.any()
            for a in np.flatnonzero(mask):
                s.clone().apply(int(a))
            masked = np.flatnonzero(~mask)
            if len(masked):
                bad = int(rng.choice(masked))
                before = s.to_dict()
                with pytest.raises(IllegalActionError):
                    s.apply(bad)
                assert s.to_dict() == before
            s.apply(int(rng.choice(np.flatnonzero(mask))))
