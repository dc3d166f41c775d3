"""Scenario tests T-55, T-56, T-57, T-58, T-59, T-60, T-61, T-62, T-63, T-64, T-65, T-66, T-67:
Established markets, events and the Black Market (MIT-78, MIT-79, MIT-80, MIT-81, MIT-82, MIT-83,
MIT-84, MIT-85, MIT-86, MIT-87, MIT-88, MIT-89, MIT-90, MIT-91, MIT-100, MIT-101, MIT-102,
MIT-103, MIT-104, MIT-105, MIT-106)."""

from __future__ import annotations

import pytest
from mt_helpers import decision, legal, pass_until

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    BUY0,
    CLOSE_SLOT0,
    EST_SLOT0,
    MOVE_TO_BLACK_MARKET,
    N_ACTIONS,
    PASS,
    SELL0,
    Decision,
    Stage,
    buy,
    cell,
    sell,
)
from huerta.envs.mi_tierra.scenario import CardPicker, scenario, space

EM = [space("est_market", k) for k in range(4)]


def ids(*codes):
    pick = CardPicker()
    return [pick(code) for code in codes]


def market(board, est, pile=("A05", "A07", "A09", "A10"), n=2, **kw):
    return scenario(n, board=board, est=list(est), pile=list(pile), start=Stage.EST_MARKET,
                    **kw)


def test_t55_market_loop_and_exit():
    """T-55 (MIT-78, MIT-79, MIT-80, MIT-81, MIT-82): space 1 (P1) acts before space 2 (P2);
    P1 sells 3 apples to A01 for $12 and the slot is refilled; P2 does not sell and goes home;
    the next pass has only P1, who stops: the step ends."""
    s = market({EM[0]: 0, EM[1]: 1}, ["A01", "A03"], goods={0: {"apple": 3}},
               money=[5, 6])
    a01, a03, a05 = ids("A01", "A03", "A05")
    assert decision(s) == Decision.MARKET_TURN and s.current_player == 0
    assert legal(s) == {PASS, EST_SLOT0, MOVE_TO_BLACK_MARKET}
    s.apply(EST_SLOT0)
    s.apply(sell(C.APPLE))
    s.apply(sell(C.APPLE))  # the third apple fills the limit: the sale completes
    assert s.money[0] == 17 and s.goods[0][C.APPLE] == 0
    assert a01 in s.discard and s.est == [a05, a03]
    assert s.current_player == 1
    s.apply(PASS)
    assert s.space_owner[EM[1]] == -1 and s.hut[1] == 3
    assert s.current_player == 0 and decision(s) == Decision.MARKET_TURN
    s.apply(PASS)
    assert s.stage != Stage.EST_MARKET


def test_t56_partial_sale_consumes_the_card():
    """T-56 (MIT-80): one apple to A01 pays $4 and A01 leaves all the same."""
    s = market({EM[0]: 0}, ["A01", "A03"], goods={0: {"apple": 3}}, money=[5, 6])
    a01, a05 = ids("A01", "A05")[0], ids("A05")[0]
    s.apply(EST_SLOT0)
    assert s.sale_units[C.APPLE] == 1  # the first unit is forced
    s.apply(PASS)
    assert s.money[0] == 9 and s.goods[0][C.APPLE] == 2
    assert a01 in s.discard and s.est[0] == a05


def test_t57_sale_mask_simple_market():
    """T-57 (MIT-100, G-53): A08 buys at most 2 cows at $6: with 3 cows the second SELL_COW
    fills the card; confirming needs a unit; 2 cows leave, $12 arrives."""
    s = market({EM[0]: 0}, ["A08", "A03"], barns={0: {0: (3, "cow", 3)}}, money=[5, 6])
    s.apply(EST_SLOT0)
    assert decision(s) == Decision.MARKET_SALE and legal(s) == {PASS, sell(C.COW)}
    s.apply(sell(C.COW))
    assert s.money[0] == 17 and s.goods[0][C.COW] == 1 and s.barn_count[0][0] == 1


def test_market_sale_confirm_needs_a_unit():
    """G-53: a generic sale cannot be confirmed before a unit is chosen."""
    s = market({EM[0]: 0}, ["A21", "A03"], goods={0: {"apple": 1, "wheat": 1}})
    s.apply(EST_SLOT0)
    assert legal(s) == {sell(C.APPLE), sell(C.WHEAT)}
    with pytest.raises(IllegalActionError, match="at least one unit"):
        s.apply(PASS)


def test_t58_pack():
    """T-58 (MIT-101, G-51): A16 buys 3 apples + 1 wheat for $15: with 2 apples it is masked;
    with 4 apples and 1 wheat one bundle sells at once, 1 apple stays."""
    s = market({EM[0]: 0}, ["A16", "A03"], goods={0: {"apple": 2, "wheat": 1}})
    assert EST_SLOT0 not in legal(s)
    with pytest.raises(IllegalActionError, match="cannot sell a single unit"):
        s.apply(EST_SLOT0)
    s = market({EM[0]: 0}, ["A16", "A03"], goods={0: {"apple": 4, "wheat": 1}}, money=[5, 6])
    s.apply(EST_SLOT0)
    assert s.money[0] == 20 and s.goods[0][C.APPLE] == 1 and s.goods[0][C.WHEAT] == 0


def test_t59_generic_market():
    """T-59 (MIT-102): 2 wheat ($3 each) and 1 cow ($4) to the generic market: $10."""
    s = market({EM[0]: 0}, ["A21", "A03"], goods={0: {"wheat": 2}},
               barns={0: {0: (2, "cow", 1)}}, money=[5, 6])
    s.apply(EST_SLOT0)
    s.apply(sell(C.WHEAT))
    s.apply(sell(C.WHEAT))
    s.apply(sell(C.COW))
    s.apply(PASS)
    assert s.money[0] == 15 and s.goods[0][C.WHEAT] == 0 and s.goods[0][C.COW] == 0


def test_t60_replacement_reveals_animal_thieves():
    """T-60 (MIT-85, MIT-103, MIT-71, G-63): the refill after a sale draws Animal Thieves: 3
    sheep -> 2, 5 hens -> 3, 1 cow -> 1; the Police owner loses nothing; the permanent event in
    force is discarded; the slot then shows A03."""
    s = market({EM[0]: 0}, ["A01", "A05"], pile=["EA1", "A03", "A07"], event="inflation",
               goods={0: {"apple": 1, "hen": 5}, 1: {"hen": 4}}, devs={1: [C.POLICE]},
               barns={0: {0: (3, "sheep", 3), 1: (2, "cow", 1)}})
    ea1, a03, infl = ids("EA1", "A03", "EB1")
    s.apply(EST_SLOT0)
    g = s.goods[0]
    assert (g[C.SHEEP], g[C.HEN], g[C.COW]) == (2, 3, 1)
    assert s.goods[1][C.HEN] == 4
    assert s.event_card == -1 and infl in s.discard and ea1 in s.discard
    assert s.est[0] == a03


def test_t61_permanent_event_stays_until_the_next_event():
    """T-61 (MIT-86): Inflation is drawn and stays in force; the next event (Animal Thieves)
    ends it."""
    s = market({EM[0]: 0}, ["A01", "A03"], pile=["EB1", "A05", "EA1", "A07"],
               goods={0: {"apple": 1, "grape": 1}})
    infl = ids("EB1")[0]
    s.apply(EST_SLOT0)  # the apple (a forced single unit): the refill draws Inflation, then A05
    assert s.event_card == infl and s.perms_seen == 1
    s.apply(EST_SLOT0)  # the grape to A05: the refill draws Animal Thieves, then A07
    assert s.event_card == -1 and s.perms_seen == 1 and infl in s.discard


def test_t62_inflation_arithmetic():
    """T-62 (MIT-104, G-59): milk at $7 pays $8; the flour+wine pack $36; generic flour $4; the
    Black Market sells milk at $5 and buys it at $11."""
    cards = C.MARKET_CARDS
    a12, b16, a21 = ids("A12", "B16", "A21")
    assert C.card_unit_price(cards[a12], C.MILK, True) == 8
    assert C.card_unit_price(cards[a12], C.MILK, False) == 7
    assert C.pack_payout(cards[b16], True) == 36
    assert C.card_unit_price(cards[a21], C.FLOUR, True) == 4
    assert C.card_unit_price(cards[a21], C.APPLE, True) == 3
    assert C.bm_price(C.MILK, False, True) == 5 and C.bm_price(C.MILK, True, True) == 11
    s = market({EM[0]: 0}, ["A12", "B16"], event="inflation",
               goods={0: {"milk": 2, "flour": 1, "wine": 1}}, money=[0, 0])
    s.apply(EST_SLOT0 + 1)
    assert s.money[0] == 36
    s.apply(EST_SLOT0)
    s.apply(sell(C.MILK))
    assert s.money[0] == 36 + 16


def test_t63_third_permanent_during_the_markets():
    """T-63 (MIT-87, MIT-94, G-64): two permanents seen; a refill reveals Strike: it is not
    placed, the event in force is discarded, the end is triggered; the remaining market turns,
    the Black Market and the lower road still happen; then the game is scored, no new round."""
    s = market({EM[0]: 0, EM[1]: 1}, ["A01", "A03"], pile=["EB2", "A05", "A07"],
               event="inflation", perms_seen=2, goods={0: {"apple": 1}, 1: {"wheat": 1}},
               money=[5, 5])
    s.apply(EST_SLOT0)
    assert s.end_triggered and s.event_card == -1 and not s.is_terminal
    assert s.perms_seen == 3
    assert s.current_player == 1 and decision(s) == Decision.MARKET_TURN
    s.apply(MOVE_TO_BLACK_MARKET)
    s.apply(PASS)  # P1's second turn: no sale
    assert decision(s) == Decision.BLACK_MARKET and s.current_player == 1
    s.apply(sell(C.WHEAT))
    s.apply(PASS)
    assert s.is_terminal and s.round == 1
    assert s.money == [9, 7]


def test_t64_third_permanent_in_phase_two_plays_the_whole_round():
    """T-64 (MIT-87, MIT-94): the refill of Phase 2 reveals the third permanent: placement and
    every activation are still played before the game ends."""
    s = scenario(2, est=[None, "A03"], pile=["EB3", "A01", "A05"], perms_seen=2,
                 event="strike", start=Stage.MARKET_MAINTENANCE, money=[5, 6])
    assert s.end_triggered and not s.is_terminal and decision(s) == Decision.PLACE
    s.apply(cell(C.PRINTED_APPLE_CELL))
    pass_until(s)
    assert s.is_terminal and s.round == 1 and s.goods[0][C.APPLE] == 1


def test_t65_move_to_the_black_market():
    """T-65 (MIT-88, MIT-89, G-58): P1's worker moves to the Black Market on its first turn and
    takes no more Established turns; Black Market trades come after every Established worker has
    left."""
    s = market({EM[0]: 0, EM[1]: 1}, ["A01", "A03"], goods={0: {"apple": 2}, 1: {"wheat": 3}},
               money=[5, 5])
    s.apply(MOVE_TO_BLACK_MARKET)
    assert s.bm_workers == [0] and s.current_player == 1
    s.apply(EST_SLOT0 + 1)
    s.apply(sell(C.WHEAT))
    s.apply(sell(C.WHEAT))
    assert s.current_player == 1 and decision(s) == Decision.MARKET_TURN  # P1 is out
    s.apply(PASS)
    assert decision(s) == Decision.BLACK_MARKET and s.current_player == 0
    assert s.stage == Stage.BLACK_MARKET


def test_t66_black_market_buy_cap():
    """T-66 (MIT-91): a Black Market worker with $40 buys 3 wool; the 4th is masked; a second
    worker of the same player may buy 3 more."""
    s = scenario(2, bm_workers=[0, 0], money=[60, 5], start=Stage.BLACK_MARKET)
    for _ in range(3):
        s.apply(buy(C.WOOL))
    assert s.goods[0][C.WOOL] == 3 and s.money[0] == 30
    assert buy(C.WOOL) not in legal(s)
    with pytest.raises(IllegalActionError, match="at most 3 units"):
        s.apply(buy(C.WOOL))
    s.apply(PASS)
    assert s.current_player == 0 and decision(s) == Decision.BLACK_MARKET
    s.apply(buy(C.WOOL))
    s.apply(buy(C.WOOL))
    assert s.goods[0][C.WOOL] == 5 and s.money[0] == 10
    assert buy(C.WOOL) in legal(s)  # $10 left: a third buy is still possible


def test_t67_black_market_sales_and_buyable_goods():
    """T-67 (MIT-90, MIT-91, G-34, G-57): 5 apples sell for $10; only apple, wheat, grape, wool,
    milk and egg have buy actions; cake and cloth are never sellable."""
    s = scenario(2, bm_workers=[0], goods={0: {"apple": 5}}, cake={0: 1}, cloth={0: 1},
                 money=[0, 5], start=Stage.BLACK_MARKET)
    assert legal(s) == {PASS, sell(C.APPLE)}
    for _ in range(5):
        s.apply(sell(C.APPLE))
    assert s.money[0] == 10
    buyable = {C.GOODS[g] for g in C.BUYABLE}
    assert buyable == {"apple", "wheat", "grape", "wool", "milk", "egg"}
    assert N_ACTIONS - BUY0 == 6 and BUY0 - SELL0 == C.NUM_GOODS
    assert legal(s) == {PASS} | {buy(g) for g in C.BUYABLE if C.BM_BUY[g] <= 10}
    assert s.cake[0] == 1 and s.cloth[0] == 1


def test_mit90_black_market_sells_animals():
    """MIT-90: animals sell at the Black Market too (a cow for $4)."""
    s = scenario(2, bm_workers=[0], barns={0: {0: (2, "cow", 2)}}, money=[0, 5],
                 start=Stage.BLACK_MARKET)
    s.apply(sell(C.COW))
    assert s.money[0] == 4 and s.goods[0][C.COW] == 1


def test_mit83_several_workers_in_the_market():
    """MIT-83: each worker of the same player takes its own market turns."""
    s = market({EM[0]: 0, EM[1]: 0}, ["A01", "A03"], goods={0: {"apple": 1, "wheat": 1}})
    s.apply(EST_SLOT0)  # the apple: forced single unit, sale done
    assert s.current_player == 0 and s.qpos == 1
    s.apply(EST_SLOT0 + 1)
    assert s.goods[0][C.WHEAT] == 0


def test_mit82_a_worker_that_passes_takes_no_more_turns():
    """MIT-82: after not selling, the worker is home and skipped in later passes."""
    s = market({EM[0]: 0, EM[1]: 1}, ["A01", "A03"], goods={0: {"apple": 2}, 1: {"wheat": 2}})
    s.apply(PASS)
    assert s.current_player == 1
    s.apply(EST_SLOT0 + 1)
    s.apply(PASS)  # confirm one wheat
    assert s.current_player == 1  # seat 0's worker is gone; seat 1's next pass
    assert s.space_owner[EM[0]] == -1


def test_mit84_every_card_is_a_market_or_an_event():
    """MIT-84: each card id is typed market (simple, pack, generic) or event."""
    kinds = {c.kind for c in C.MARKET_CARDS}
    assert kinds == {"simple", "pack", "generic", "event"}
    assert sum(C.IS_EVENT) == 8
    for c in C.MARKET_CARDS:
        assert (c.event >= 0) == (c.kind == "event")


def test_mit85_instant_event_never_occupies_a_slot():
    """MIT-85: an instant event is carried out and discarded; it never sits in a slot."""
    s = market({EM[0]: 0}, ["A01", "A03"], pile=["EA2", "EA1", "A05"],
               goods={0: {"apple": 1}})
    ea2, ea1 = ids("EA2", "EA1")
    s.apply(EST_SLOT0)
    assert {ea2, ea1} <= set(s.discard) and s.event_card == -1
    assert s.est[0] == ids("A05")[0]


def test_closing_sale_slot_is_not_refilled():
    """G-49: a sold Closing-row card is removed and its position stays empty."""
    s = scenario(2, board={EM[0]: 0}, est=["A01", "A03"], closing=["A10"],
                 pile=["A05"], goods={0: {"meat": 3}}, start=Stage.EST_MARKET, money=[0, 0])
    s.apply(CLOSE_SLOT0)
    s.apply(sell(C.MEAT))
    s.apply(sell(C.MEAT))
    assert s.money[0] == 12 and s.closing[0] == -1 and len(s.pile) == 1
