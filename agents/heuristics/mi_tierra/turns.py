"""The choices of one Mi Tierra decision, judged as the heuristic judges them: what each
placement adds to the projected round, what each unit of a sale or a Black Market visit gains
over the good's worth to keep, a re-roll and upkeep, and the line a decision starts (a market
turn followed through its sale). `afterstate_turn` is the same choice with the positions the
lines leave rated by a learned value (the afterstate agent's)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    BUY0,
    BUY_ACTION_GOOD,
    CHOICE0,
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
    WORKER_NET,
    WORKER_USE,
    Holdings,
    Worths,
    buy_worth,
    holdings_value,
    rounds_left,
    sell_worth,
)
from .projection import my_workers, project
from .value import position_value


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
# the decisions of a single unit or a yes/no, judged directly (`unit_choice`), not by a line
UNIT_DECISIONS = (Decision.MARKET_SALE, Decision.BLACK_MARKET, Decision.REROLL, Decision.UPKEEP)
LINE_LIMIT = 40  # actions a line is followed for at most (a sale has a few units a good)


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


def unit_choice(state: MiTierraState, me: int, legal: list[int], w: Worths) -> int:
    """The heuristic's choice at a decision of `UNIT_DECISIONS`: the best unit of a sale or a
    Black Market visit (`best_unit`); a Studies re-roll when the average of the six faces is
    worth more than the face rolled (the projection reads the pending face); upkeep paid while
    a worker beyond three still earns more than its $2."""
    if state.decision == Decision.REROLL:
        kept = state.die_face
        keep_value = position_value(state, me, w)
        total = 0.0
        for face in range(1, C.DIE_FACES + 1):
            state.die_face = face
            total += position_value(state, me, w)
        state.die_face = kept
        return CHOICE0 if total / C.DIE_FACES > keep_value + 1e-9 else PASS
    if state.decision == Decision.UPKEEP:  # keep a worker that earns more than its upkeep
        keep = WORKER_USE + WORKER_NET * w.capital - C.UPKEEP_PER_EXTRA
        return PASS if PASS in legal and keep >= 0 else CHOICE0
    return best_unit(state, me, w)


def greedy_step(state: MiTierraState, me: int, w: Worths) -> int:
    """The best single action by `position_value` (no further lookahead)."""
    best_value, best = -np.inf, PASS
    for action in state.legal_list():
        child = state.clone()
        child.apply(action)
        value = position_value(child, me, w)
        if value > best_value:
            best_value, best = value, action
    return best


def follow_line(state: MiTierraState, me: int, action: int,
                w: Worths) -> tuple[list[int], MiTierraState]:
    """`action` and the player's own decisions it leads to (`CONTINUED`: a sale's units, a
    tile), each the heuristic's, on a copy of `state`: the line and the position it leaves."""
    child = state.clone()
    child.apply(action)
    line = [action]
    while (not child.terminal and child.current_player == me
           and child.decision in CONTINUED and len(line) < LINE_LIMIT):
        follow = (best_unit(child, me, w) if child.decision == Decision.MARKET_SALE
                  else greedy_step(child, me, w))
        child.apply(follow)
        line.append(follow)
    return line, child


def afterstate_turn(state: MiTierraState, me: int,
                    judge: Callable[[list[MiTierraState]], np.ndarray],
                    rng: np.random.Generator) -> list[int]:
    """The line of this decision whose resulting position `judge` (positions -> a value each)
    rates best: the afterstate agent's choice (`huerta.agents.afterstate`). A placement is
    judged by the position it leaves (the next seat's turn), any other decision by the end of
    the line it starts (`follow_line`); a unit decision stays the heuristic's (`unit_choice`:
    one unit more in a sale is priced directly, and a network would judge the difference of one
    unit less well). `rng` is the protocol's; the judge breaks ties with its own."""
    legal = state.legal_list()
    if not legal:
        return []
    w = Worths(rounds_left(state))
    if state.decision in UNIT_DECISIONS:
        return [unit_choice(state, me, legal, w)]
    lines, positions = [], []
    for action in legal:
        if state.decision == Decision.PLACE:
            child = state.clone()
            child.apply(action)
            line = [action]
        else:
            line, child = follow_line(state, me, action, w)
        lines.append(line)
        positions.append(child)
    return lines[int(np.argmax(judge(positions)))]
