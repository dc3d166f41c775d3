"""The choices of one Mi Tierra decision, judged as the heuristic judges them: what each
placement adds to the projected round, and what each unit of a sale or a Black Market visit
gains over the good's worth to keep."""

from __future__ import annotations

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    BUY0,
    BUY_ACTION_GOOD,
    PASS,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    SELL0,
    Decision,
)
from huerta.envs.mi_tierra.market import sale_card
from huerta.envs.mi_tierra.state import MiTierraState

from .holdings import (
    PAIR_MARGIN,
    Holdings,
    Worths,
    buy_worth,
    holdings_value,
    rounds_left,
    sell_worth,
)
from .projection import my_workers, project


def placement_gains(state: MiTierraState, me: int, legal: list[int]) -> dict[int, float]:
    """What each legal PLACE action adds to the projected round (PASS adds nothing)."""
    w = Worths(rounds_left(state))
    workers = my_workers(state, me)
    base = holdings_value(*project(state, me, w=w, workers=workers))
    gains = {}
    for action in legal:
        if action == PASS:
            gains[action] = 0.0
        else:
            gains[action] = holdings_value(*project(state, me, action, w, workers)) - base
    singles = [g for a, g in gains.items() if a not in (PLACE_PAIR_FOREST, PLACE_PAIR_CROPS)]
    best_single = max(max(singles), 0.0)
    for pair in (PLACE_PAIR_FOREST, PLACE_PAIR_CROPS):
        if pair in gains:  # the second worker could have earned the best single gain
            gains[pair] -= best_single + PAIR_MARGIN
    return gains


CONTINUED = (Decision.MARKET_SALE, Decision.TILE)  # own decisions a line is followed through
MIN_PLACEMENT_GAIN = 0.25
def unit_margins(state: MiTierraState, me: int, w: Worths) -> dict[int, float]:
    """MARKET_SALE and BLACK_MARKET: what each legal unit sale or purchase gains over the good's
    marginal worth (the same quantity `position_value` would compare, computed directly)."""
    h = Holdings(state, me)
    inflation = state.event_in_force() == C.INFLATION
    margins = {}
    if state.decision == Decision.MARKET_SALE:
        card = C.MARKET_CARDS[sale_card(state)]
        for g, n in enumerate(state.sale_units):
            h.goods[g] -= n
        for action in state.legal_list():
            if action != PASS:
                g = action - SELL0
                margins[action] = C.card_unit_price(card, g, inflation) - sell_worth(h, g, w)
        return margins
    for action in state.legal_list():
        if action == PASS:
            continue
        if action < BUY0:
            g = action - SELL0
            margins[action] = C.bm_price(g, False, inflation) - sell_worth(h, g, w)
        else:
            g = BUY_ACTION_GOOD[action]
            margins[action] = buy_worth(h, g, w) - C.bm_price(g, True, inflation)
    return margins


def best_unit(state: MiTierraState, me: int, w: Worths) -> int:
    """The unit with the best positive margin, else PASS (or, in a sale that has no unit yet,
    the least bad unit: the market turn already judged the sale worth making)."""
    margins = unit_margins(state, me, w)
    legal = state.legal_list()
    if not margins:
        return PASS
    action = max(margins, key=lambda a: margins[a])
    if margins[action] > 1e-9 or PASS not in legal:
        return action
    return PASS
