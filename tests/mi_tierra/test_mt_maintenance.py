"""Scenario tests T-06, T-07, T-08, T-09, T-10, T-11, T-12, T-13: worker upkeep and market
maintenance (MIT-14, MIT-15, MIT-16, MIT-17, MIT-18, MIT-19)."""

from __future__ import annotations

from mt_helpers import decision, legal, pass_until

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    CHOICE0,
    CLOSE_SLOT0,
    PASS,
    Decision,
    Stage,
    place,
)
from huerta.envs.mi_tierra.scenario import CardPicker, scenario


def card_id(code: str) -> int:
    return CardPicker()(code)


def test_t06_upkeep_paid():
    """T-06 (MIT-14): 5 workers and $10: pay ($4, keep all) or release; paying leaves $6."""
    s = scenario(2, money=[10, 6], owned={0: 5}, start=Stage.UPKEEP)
    assert decision(s) == Decision.UPKEEP and s.current_player == 0
    assert legal(s) == {PASS, CHOICE0}
    s.apply(PASS)
    assert s.money[0] == 6 and s.owned[0] == 5


def test_mit14_upkeep_scale():
    """MIT-14: $2 per worker beyond 3: 4 workers cost $2, 3 workers nothing."""
    s = scenario(3, money=[10, 10, 10], owned={0: 4, 1: 3, 2: 5}, start=Stage.UPKEEP)
    s.apply(PASS)  # seat 0
    assert s.money[0] == 8
    assert s.current_player == 2  # seat 1 owes nothing and is not asked
    s.apply(PASS)
    assert s.money == [8, 10, 6]


def test_t07_cannot_pay_forced_release():
    """T-07 (MIT-15, G-28): 5 workers and $3: the first release is forced (done at once);
    with 4 workers $2 is affordable, so paying becomes legal; paying leaves $1."""
    s = scenario(2, money=[3, 6], owned={0: 5}, start=Stage.UPKEEP)
    assert s.owned[0] == 4 and s.hut[0] == 4  # one worker back in the supply
    assert legal(s) == {PASS, CHOICE0}
    s.apply(PASS)
    assert s.money[0] == 1 and s.owned[0] == 4


def test_t08_nothing_affordable():
    """T-08 (MIT-15, G-71): 5 workers and $1: both releases are forced; money stays $1."""
    s = scenario(2, money=[1, 6], owned={0: 5}, start=Stage.UPKEEP)
    assert s.owned[0] == 3 and s.money[0] == 1
    assert decision(s) == Decision.PLACE  # nothing left to decide in Phase 2


def test_t09_voluntary_release():
    """T-09 (MIT-16): 4 workers and $9: releasing one avoids the upkeep; money unchanged."""
    s = scenario(2, money=[9, 6], owned={0: 4}, start=Stage.UPKEEP)
    s.apply(CHOICE0)
    assert s.owned[0] == 3 and s.money[0] == 9
    assert decision(s) == Decision.PLACE


def test_t10_closing_row_discarded():
    """T-10 (MIT-17): a card in the Closing row at Phase 2 goes to the discard pile; the
    Established cards (all outgoing, G-48) take its place."""
    s = scenario(2, est=["A01", "A03"], closing=["A08"], pile=["A05", "A07"],
                 start=Stage.MARKET_MAINTENANCE)
    assert card_id("A08") in s.discard
    assert s.closing == [card_id("A01"), card_id("A03"), -1, -1]
    assert s.est == [card_id("A05"), card_id("A07")]


def test_t11_outgoing_moves_and_closing_is_still_sellable():
    """T-11 (MIT-18, MIT-19, G-48, G-49): the outgoing flour market moves to the Closing row and
    the Established area is refilled; a worker sells a flour to it for $15; the sold Closing
    card is not replaced, and the next Phase 2 discards what is left of the Closing row."""
    a14 = card_id("A14")
    s = scenario(2, est=["A14", "A01"], pile=["A03", "A05", "A07", "A09"],
                 goods={0: {"flour": 1}}, money=[5, 6], start=Stage.MARKET_MAINTENANCE)
    assert s.closing[:2] == [a14, card_id("A01")]
    assert s.est == [card_id("A03"), card_id("A05")]
    s.apply(place(C.Z_EST_MARKET))
    pass_until(s, Stage.EST_MARKET, Decision.MARKET_TURN)
    assert CLOSE_SLOT0 in legal(s)
    s.apply(CLOSE_SLOT0)  # one flour is the only possible sale: it completes by itself (G-71)
    assert s.money[0] == 20 and s.goods[0][C.FLOUR] == 0
    assert s.closing[0] == -1 and a14 in s.discard
    pass_until(s, Stage.PLACEMENT, Decision.PLACE)
    assert card_id("A01") in s.discard
    assert s.closing[:2] == [card_id("A03"), card_id("A05")]


def test_t12_refill_reveals_an_instant_event():
    """T-12 (MIT-19, MIT-85, G-54, G-62): refilling draws Frost: P1 loses half of each crop
    (5 apples -> 3, 1 wheat -> 1, 3 grapes -> 2); Frost is discarded and the slot gets A01."""
    s = scenario(2, est=[None, "A03"], pile=["EA2", "A01", "A05"],
                 goods={0: {"apple": 5, "wheat": 1, "grape": 3}},
                 start=Stage.MARKET_MAINTENANCE)
    assert (s.goods[0][C.APPLE], s.goods[0][C.WHEAT], s.goods[0][C.GRAPE]) == (3, 1, 2)
    assert card_id("EA2") in s.discard and s.event_card == -1
    assert s.est[0] == card_id("A01")


def test_t13_development_display_refilled_in_slot_order():
    """T-13 (G-39): empty display slots TL and BR are refilled at the end of Phase 2 from the
    top of the development deck, TL first."""
    s = scenario(2, display=[-1, 3, 4, -1], dev_deck=[7, 9, *[d for d in range(15)
                                                            if d not in (3, 4, 7, 9)]],
                 start=Stage.MARKET_MAINTENANCE)
    assert s.display == [7, 3, 4, 9]
    assert len(s.dev_deck) == 11


def test_mit19_refill_to_one_market_per_player():
    """MIT-19: the Established area is refilled until it holds one market per player."""
    s = scenario(4, est=[None, "A01", None, None], pile=["A03", "A05", "A07", "A09", "A10"],
                 start=Stage.MARKET_MAINTENANCE)
    assert all(c >= 0 for c in s.est) and len(s.est) == 4
    assert s.pile == [card_id("A10")]
