"""Scenario tests T-16, T-17, T-18, T-19, T-20, T-21, T-22, T-23 and T-51 of seeds/finca.md
(Scenario tests): deliveries, exact payment, wild symbols, the cap and the exactness of the sub-step
masks (FIN-24, FIN-25, FIN-26, FIN-27, FIN-28, FIN-29)."""

from __future__ import annotations

import numpy as np
import pytest
from finca_helpers import BLOCKER, legal
from finca_helpers import make as _make

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.finca import components as C
from huerta.envs.finca.actions import (
    CONFIRM,
    DELIVER,
    PLAY_DOUBLE,
    PLAY_GUST,
    PLAY_LARGE,
    PLAY_ONELESS,
    Phase,
    comm,
    fruit,
)
from huerta.envs.finca.components import ALMOND, FIG, GRAPE, LEMON, ORANGE
from huerta.envs.finca.observation import COMMUNITY_BLOCK, SLICES
from huerta.envs.finca.scenario import parse_tile


def make(n=2, stacks=None, pad=True, **kw):
    return _make(n, seed=2, stacks=stacks, pad=pad, blades=None, **kw)



def comm_row(state, c, player=0) -> np.ndarray:
    obs = state.observe(player)
    return obs[SLICES["communities"]].reshape(10, COMMUNITY_BLOCK)[c]


def test_t16_normal_delivery_pays_cart_and_fruit():
    """T-16 (FIN-24, FIN-28, FIN-27): P0 with 1 cart, 3 figs, 1 almond delivers C3's 1F+1A [2]
    -> fruit back to supply, cart to the centre, tile to the display (+2), next tile face-up."""
    s = make(
        stacks={3: ["3O", "2F+2O", "1L", "1F+1A"]},
        fruits={0: {FIG: 3, ALMOND: 1}},
        carts={0: 1},
    )
    assert s.centre_carts == 3 and s.scores()[0] == 8
    s.apply(DELIVER)
    assert s.phase == Phase.DELIVER_SELECT and s.current_player == 0
    assert legal(s) == {comm(3)}
    s.apply(comm(3))
    assert s.phase == Phase.DELIVER_SELECT
    s.apply(CONFIRM)
    assert s.fruits[0][FIG] == 2 and s.fruits[0][ALMOND] == 0
    assert s.carts[0] == 0 and s.centre_carts == 4
    assert s.supply[FIG] == 16 and s.supply[ALMOND] == 18
    assert [s.catalogue[t].label() for t in s.displays[0]] == ["1F+1A [2]"]
    assert s.scores()[0] == 10
    # the next tile (1L) is now the visible top with 2 hidden beneath it
    assert len(s.stacks[3]) == 3 and s.catalogue[s.stacks[3][-1]].fixed[LEMON] == 1
    row = comm_row(s, 3)
    assert row[0] == 1.0 and row[1 + LEMON] == pytest.approx(1 / 6)
    assert row[14] == pytest.approx(2 / 3)
    assert s.current_player == 1 and s.phase == Phase.MAIN
    assert s.check_consistency() == []


def test_t17_no_cart_no_normal_delivery_but_large_cart():
    """T-17 (FIN-24, G-19): P0 with 0 carts but payable tops -> DELIVER and PLAY_ONELESS masked,
    PLAY_LARGE legal; DELIVER raises and changes nothing."""
    s = make(stacks={0: ["3L"]}, fruits={0: {LEMON: 3}}, carts={0: 0})
    mask = legal(s)
    assert DELIVER not in mask and PLAY_ONELESS not in mask
    assert PLAY_LARGE in mask
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(DELIVER)
    assert s.to_dict() == before
    # with one cart the normal delivery becomes legal
    s2 = make(stacks={0: ["3L"]}, fruits={0: {LEMON: 3}}, carts={0: 1})
    assert {DELIVER, PLAY_ONELESS, PLAY_LARGE} <= legal(s2)


def test_t18_cap_of_six_and_large_cart_alternative():
    """T-18 (FIN-26, FIN-25, FIN-33): 4F [4] and 4L [4] with 4 figs and 4 lemons: after selecting
    one, the other is masked (8 > 6) and CONFIRM is legal; with PLAY_LARGE both are delivered in
    one turn, 8 fruits paid and no cart spent."""
    kw = dict(
        stacks={1: ["4F"], 2: ["4L"]}, fruits={0: {FIG: 4, LEMON: 4}}, carts={0: 1}
    )
    s = make(**kw)
    s.apply(DELIVER)
    assert legal(s) == {comm(1), comm(2)}
    s.apply(comm(1))
    assert comm(2) not in legal(s) and legal(s) == {CONFIRM}
    with pytest.raises(IllegalActionError):
        s.apply(comm(2))

    s = make(**kw)
    s.apply(PLAY_LARGE)
    s.apply(comm(1))
    assert comm(2) in legal(s)
    s.apply(comm(2))
    s.apply(CONFIRM)
    assert s.fruits[0][FIG] == 0 and s.fruits[0][LEMON] == 0
    assert s.supply[FIG] == 18 and s.supply[LEMON] == 18
    assert s.carts[0] == 1 and s.centre_carts == 3
    assert len(s.displays[0]) == 2 and s.tile_points[0] == 8
    assert s.check_consistency() == []


def test_t19_one_tile_per_community_and_reveal_after_confirm():
    """T-19 (G-15, FIN-28): after DELIVER, COMM(2) the same community is masked for the rest of the
    delivery although the tile beneath (1G) is payable; it is only revealed after CONFIRM."""
    s = make(
        stacks={2: ["3O", "1G", "1L"]}, fruits={0: {LEMON: 1, GRAPE: 1}}, carts={0: 1}
    )
    s.apply(DELIVER)
    s.apply(comm(2))
    assert comm(2) not in legal(s) and legal(s) == {CONFIRM}
    row = comm_row(s, 2)
    assert row[1 + LEMON] == pytest.approx(1 / 6) and row[1 + GRAPE] == 0.0
    beneath = s.stacks[2][-2]
    kind = C.TILE_KIND[beneath]  # the unseen block counts copies per kind of printed tile
    before = s.observe(0)[SLICES["unseen_tiles"]][kind]
    assert beneath < 42 and before > 0.0
    s.apply(CONFIRM)
    after = s.observe(0)[SLICES["unseen_tiles"]][kind]
    assert after == pytest.approx(before - 1 / C.KIND_COPIES[kind])
    row = comm_row(s, 2, player=1)
    assert row[1 + GRAPE] == pytest.approx(1 / 6) and row[1 + LEMON] == 0.0
    assert s.fruits[0][GRAPE] == 1 and s.fruits[0][LEMON] == 0


def test_t20_exact_match_oranges_cannot_replace_lemons():
    """T-20 (FIN-27, FIN-34): C4 = 3L [3]; P0 with 2 lemons, 5 oranges, 1 cart -> DELIVER and
    PLAY_LARGE are masked; PLAY_ONELESS is legal (2 lemons pay 3L with the reduction)."""
    s = make(stacks={4: ["3L"]}, fruits={0: {LEMON: 2, ORANGE: 5}}, carts={0: 1})
    mask = legal(s)
    assert DELIVER not in mask and PLAY_LARGE not in mask
    assert PLAY_ONELESS in mask
    for a in (DELIVER, PLAY_LARGE):
        with pytest.raises(IllegalActionError):
            s.apply(a)


def test_t21_wild_tile_paid_with_one_type():
    """T-21 (FIN-29, G-05): C5 = 3? [3]; P0 with 3 grapes, 2 lemons, 4 figs -> in DELIVER_WILD grape
    and fig are legal, lemon masked; paying with grapes takes exactly 3 grapes."""
    s = make(
        stacks={5: ["3?"]}, fruits={0: {GRAPE: 3, LEMON: 2, FIG: 4}}, carts={0: 1}
    )
    s.apply(DELIVER)
    s.apply(comm(5))
    assert s.phase == Phase.DELIVER_WILD
    assert legal(s) == {fruit(GRAPE), fruit(FIG)}
    with pytest.raises(IllegalActionError):
        s.apply(fruit(LEMON))
    s.apply(fruit(GRAPE))
    assert s.phase == Phase.DELIVER_SELECT
    s.apply(CONFIRM)
    assert s.fruits[0][GRAPE] == 0 and s.fruits[0][FIG] == 4 and s.fruits[0][LEMON] == 2
    assert s.supply[GRAPE] == 18 and s.tile_points[0] == 3
    assert s.check_consistency() == []


def test_fin29_wild_symbols_cannot_be_paid_with_mixed_types():
    """FIN-29 (G-05): 3? with 2 grapes + 1 lemon (3 fruits, no single type covers the tile) is
    unpayable: no delivery at all is legal."""
    s = make(stacks={5: ["3?"]}, fruits={0: {GRAPE: 2, LEMON: 1}}, carts={0: 1})
    assert DELIVER not in legal(s) and PLAY_LARGE not in legal(s)


def test_g05_wild_type_may_equal_a_printed_type():
    """G-05 (FIN-29): on a mixed tile 1G+2? the wild symbols may be paid with grapes too: 3 grapes
    pay it; the WILD step offers grape only (no other type has 2)."""
    s = make(stacks={0: ["1G+2?"]}, fruits={0: {GRAPE: 3, LEMON: 1}}, carts={0: 1})
    s.apply(DELIVER)
    s.apply(comm(0))
    assert s.phase == Phase.DELIVER_WILD and legal(s) == {fruit(GRAPE)}
    s.apply(fruit(GRAPE))
    s.apply(CONFIRM)
    assert s.fruits[0][GRAPE] == 0 and s.fruits[0][LEMON] == 1


def test_t22_wild_mask_sees_fruit_committed_by_earlier_tiles():
    """T-22 (G-05, FIN-25, FIN-29, the masks of Actions): P0 with 3 grapes, 2 lemons; C0 = 2G, C6 =
    2?. After COMM(0) only 1 grape is uncommitted, so the wild step of C6 offers only lemon. Without
    the lemons COMM(6) would be masked after COMM(0)."""
    s = make(
        stacks={0: ["2G"], 6: ["2?"]}, fruits={0: {GRAPE: 3, LEMON: 2}}, carts={0: 1}
    )
    s.apply(DELIVER)
    s.apply(comm(0))
    assert comm(6) in legal(s)
    s.apply(comm(6))
    assert s.phase == Phase.DELIVER_WILD and legal(s) == {fruit(LEMON)}
    s.apply(fruit(LEMON))
    s.apply(CONFIRM)
    assert s.fruits[0][GRAPE] == 1 and s.fruits[0][LEMON] == 0
    assert len(s.displays[0]) == 2 and s.tile_points[0] == 4
    assert s.supply[GRAPE] == 17 and s.supply[LEMON] == 18
    assert s.check_consistency() == []

    s = make(stacks={0: ["2G"], 6: ["2?"]}, fruits={0: {GRAPE: 3}}, carts={0: 1})
    s.apply(DELIVER)
    assert legal(s) == {comm(0), comm(6)}  # either alone is payable
    s.apply(comm(0))
    assert legal(s) == {CONFIRM}


def test_t23_empty_delivery_cannot_be_confirmed():
    """T-23 (G-14, FIN-24): in DELIVER_SELECT with nothing selected CONFIRM is masked (and raises);
    after one tile it is legal. No PLAY or move id is legal inside a delivery."""
    s = make(stacks={0: ["1F"]}, fruits={0: {FIG: 1}}, carts={0: 1})
    s.apply(DELIVER)
    assert CONFIRM not in legal(s)
    with pytest.raises(IllegalActionError):
        s.apply(CONFIRM)
    assert legal(s) == {comm(0)}
    assert not ({PLAY_DOUBLE, PLAY_GUST, PLAY_LARGE, PLAY_ONELESS, DELIVER} & legal(s))
    s.apply(comm(0))
    assert CONFIRM in legal(s)


# --- T-51: the delivery masks are exact -----------------------------------------------------------

Selection = tuple[int, int, int]  # (community, wild type or -1, omitted fruit or -1)


def tile_spec(rng: np.random.Generator) -> str:
    size = int(rng.integers(1, 5))
    wild = int(rng.integers(0, size + 1)) if rng.random() < 0.45 else 0
    fixed = [0] * 6
    for _ in range(size - wild):
        fixed[int(rng.integers(0, 4))] += 1
    parts = [f"{n}{C.FRUIT_LETTERS[f]}" for f, n in enumerate(fixed) if n]
    if wild:
        parts.append(f"{wild}?")
    return "+".join(parts)


def brute_force(tops: dict[int, str], fruits: list[int], cap: int, reduce: bool) -> set:
    """Every legal delivery: tile subset × wild types × (for One fruit less) the reduced tile and
    the omitted symbol, paid exactly from `fruits` within `cap`."""
    parsed = {c: parse_tile(text) for c, text in tops.items()}
    comms = sorted(parsed)
    out: set[frozenset[Selection]] = set()

    def rec(i: int, chosen: list, total: list[int], reduced: bool) -> None:
        if i == len(comms):
            if chosen and (reduced or not reduce):
                out.add(frozenset(chosen))
            return
        rec(i + 1, chosen, total, reduced)
        c = comms[i]
        fixed, wild, _ = parsed[c]
        size = sum(fixed) + wild
        for w in range(6) if wild else [-1]:
            base = list(fixed)
            if w >= 0:
                base[w] += wild
            omits = [-1]
            if reduce and not reduced and size >= 2:
                omits += [o for o in range(6) if base[o] >= 1]
            for o in omits:
                req = list(base)
                if o >= 0:
                    req[o] -= 1
                new = [total[f] + req[f] for f in range(6)]
                if sum(new) <= cap and all(new[f] <= fruits[f] for f in range(6)):
                    rec(i + 1, [*chosen, (c, w, o)], new, reduced or o >= 0)

    rec(0, [], [0] * 6, False)
    return out


def expected_payment(tops: dict[int, str], delivery) -> list[int]:
    pay = [0] * 6
    for c, w, o in delivery:
        fixed, wild, _ = parse_tile(tops[c])
        for f in range(6):
            pay[f] += fixed[f]
        if w >= 0:
            pay[w] += wild
        if o >= 0:
            pay[o] -= 1
    return pay


def reachable(start, tops, check_confirm: bool) -> set:
    """Every complete delivery reachable through the masked sub-steps from DELIVER_SELECT; checks
    that no unmasked id leads to a dead end and that CONFIRM pays what the selection says."""
    found: set[frozenset[Selection]] = set()
    seen: set[frozenset[Selection]] = set()
    p = start.current_player
    mode_cart = start.mode != 1  # DeliveryMode.LARGE == 1

    def at_select(st, chosen: tuple) -> None:
        key = frozenset(chosen)
        if key in seen:
            return
        seen.add(key)
        mask = legal(st)
        assert mask <= {comm(c) for c in range(10)} | {CONFIRM}
        assert (CONFIRM in mask) == bool(chosen)
        if chosen:
            found.add(key)
            if check_confirm:
                done = st.clone()
                before, carts = list(done.fruits[p]), done.carts[p]
                done.apply(CONFIRM)
                pay = expected_payment(tops, chosen)
                assert done.fruits[p] == [before[f] - pay[f] for f in range(6)]
                assert done.carts[p] == carts - (1 if mode_cart else 0)
                assert len(done.displays[p]) == len(chosen)
        for a in sorted(mask - {CONFIRM}):
            nxt = st.clone()
            nxt.apply(a)
            pending(nxt, a - comm(0), -1, chosen)

    def pending(st, c: int, w: int, chosen: tuple) -> None:
        if st.phase == Phase.DELIVER_SELECT:
            at_select(st, (*chosen, (c, w, -1)))
            return
        mask = legal(st)
        assert mask and mask <= {fruit(f) for f in range(6)}  # never a dead end
        for a in sorted(mask):
            f = a - fruit(0)
            nxt = st.clone()
            nxt.apply(a)
            if st.phase == Phase.DELIVER_WILD:
                pending(nxt, c, f, chosen)
            else:  # DELIVER_OMIT
                assert nxt.phase == Phase.DELIVER_SELECT
                at_select(nxt, (*chosen, (c, w, f)))

    at_select(start, ())
    return found


@pytest.mark.parametrize("seed", range(30))
def test_t51_masks_reach_exactly_the_legal_deliveries(seed):
    """T-51 (the masks' exactness, Actions; FIN-25, FIN-26, FIN-27, FIN-29, FIN-33, FIN-34): for
    random tops and holdings, the complete deliveries reachable through masked sub-steps equal a
    brute-force enumeration (tile subsets × wild types × reduction choice), for all three delivery
    modes; the MAIN mask offers each mode iff it has at least one delivery."""
    rng = np.random.default_rng(seed)
    n_tops = int(rng.integers(3, 6))
    comms = sorted(rng.choice(10, size=n_tops, replace=False).tolist())
    tops = {c: tile_spec(rng) for c in comms}
    fruits = [int(x) for x in rng.integers(0, 4, size=6)]
    fruits[4] = fruits[5] = 0
    fruits[int(rng.integers(0, 6))] += int(rng.integers(0, 3))
    state = make(
        stacks={c: [BLOCKER, BLOCKER, BLOCKER, t] for c, t in tops.items()},
        fruits={0: fruits},
        carts={0: 1},
    )
    modes = (
        (DELIVER, C.NORMAL_DELIVERY_CAP, False),
        (PLAY_LARGE, C.LARGE_DELIVERY_CAP, False),
        (PLAY_ONELESS, C.NORMAL_DELIVERY_CAP, True),
    )
    main_mask = legal(state)
    for action, cap, reduce in modes:
        expected = brute_force(tops, fruits, cap, reduce)
        assert (action in main_mask) == bool(expected), (action, tops, fruits)
        if not expected:
            continue
        s = state.clone()
        s.apply(action)
        got = reachable(s, tops, check_confirm=True)
        assert got == expected, (action, tops, fruits)
