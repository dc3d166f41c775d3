"""Mi Tierra's rules as the engine uses them: apply an action, explain a refusal, score.

`apply` checks the action against the exact legal list first and raises `IllegalActionError`
before touching anything, so a refused action loses nothing; then it carries the decision out and
lets the round run on (`advance`: flow.py's stages and decisions.py's forced decisions) to the
next real decision, whose legal actions it keeps in `state.options`. On the way the rules record
in `state.touched` every part of the game they change (groups.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import IllegalActionError
from ..core.validation import check_action
from . import components as C
from .actions import (
    BUY_ACTION_GOOD,
    CELL0,
    CHOICE0,
    EST_SLOT0,
    MOVE_TO_BLACK_MARKET,
    N_ACTIONS,
    PASS,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    SELL0,
    Decision,
    action_name,
    describe,
)
from .decisions import LEGAL_BY_DECISION, RESOLVER_BY_DECISION, legal_actions
from .farm import farm_items
from .flow import RUNNERS, after_roll

if TYPE_CHECKING:
    from .state import MiTierraState

__all__ = ["apply", "apply_chance", "leftover", "legal_actions", "score", "why_illegal"]


def advance(state: MiTierraState) -> list[int]:
    """Run automatic play until a decision with two or more legal actions (or the end, or a
    pending roll in explicit-chance mode); return that decision's legal actions (G-71 lists
    them to see whether there is a choice; none at the end or while a roll is pending)."""
    resolver_of = RESOLVER_BY_DECISION
    legal_of = LEGAL_BY_DECISION
    runners = RUNNERS
    while not state.terminal and not state.chance_pending:
        decision = state.decision
        if decision:  # Decision.NONE is 0
            legal = legal_of[decision](state, state.current_player)
            if len(legal) >= 2:
                return legal
            if not legal:  # never happens: every decision keeps a legal action (tests check)
                raise AssertionError(f"no legal action in decision {Decision(state.decision)}")
            state.decision = 0  # (decisions.resolve, inlined)
            resolver_of[decision](state, state.current_player, legal[0])
            continue
        runners[state.stage](state)
    return []


def apply(state: MiTierraState, action: int) -> None:
    """Carry out `action` for the current player, or raise `IllegalActionError` (no change).
    Afterwards `state.options` lists the legal actions of the decision it led to."""
    if type(action) is not int:  # numpy integers pass; bools, floats, strings... are refused
        action = check_action(action, N_ACTIONS)
    if action not in state.options:
        raise IllegalActionError(action, why_illegal(state, action), _safe_name(state, action))
    state.steps += 1
    decision = state.decision  # (decisions.resolve, inlined)
    state.decision = 0
    RESOLVER_BY_DECISION[decision](state, state.current_player, action)
    state.options = advance(state)


def apply_chance(state: MiTierraState, face: int) -> None:
    """Resolve a pending die roll with `face` (1-6) in explicit-chance mode."""
    if not state.chance_pending:
        raise IllegalActionError(face, "no die roll is pending")
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= C.DIE_FACES:
        raise IllegalActionError(face, "a die face is an int from 1 to 6")
    state.chance_pending = False
    after_roll(state, face)
    state.options = advance(state)


def score(state: MiTierraState, p: int) -> int:
    """MIT-95, MIT-96: money, plus $49 per cake and $47 per cloth, plus the goods 3 for $1; before
    the end it is the score the player would have if the game ended now."""
    return (
        state.money[p] + C.CAKE_VALUE * state.cake[p] + C.CLOTH_VALUE * state.cloth[p]
        + farm_items(state, p) // C.EXCHANGE_RATE
    )


def leftover(state: MiTierraState, p: int) -> int:
    """MIT-98, G-67: the goods left over after the 3-for-$1 exchange (the first tiebreak)."""
    return farm_items(state, p) % C.EXCHANGE_RATE


def _safe_name(state: MiTierraState, action: int) -> str:
    if 0 <= action < N_ACTIONS and not state.terminal:
        return f"{action_name(action)}: {describe(state, action)}"
    return action_name(action)


_EXPECTED = {
    Decision.UPKEEP: "PASS (pay upkeep, if affordable) or CHOICE_0 (release a worker)",
    Decision.PLACE: "a PLACE_*, PLACE_DEV_*, PLACE_PAIR_* or CELL_i id, or PASS",
    Decision.FOREST_PAIR: "CHOICE_0 or CHOICE_1 (barnyard capacity 2 or 3)",
    Decision.CROPS_PAIR: "CHOICE_0, CHOICE_1 or CHOICE_2 (apple, wheat or grape field)",
    Decision.REROLL: "PASS (keep the roll) or CHOICE_0 (roll again)",
    Decision.TILE: "a CELL_i id for the new tile (or PASS to discard it when no cell is empty)",
    Decision.ANIMAL_PRODUCTS: "PASS or CHOICE_0",
    Decision.CLOCK_ORDER: "PASS or CHOICE_k (the next card from the top)",
    Decision.BAKERY: "PASS or CHOICE_0",
    Decision.DEVELOPMENT: "PASS or CHOICE_k (a display slot the spot touches)",
    Decision.FLOUR_WINE: "PASS or CHOICE_0/1/2 (flour, wine, both)",
    Decision.CLOTH: "PASS or CHOICE_0",
    Decision.MILL: "PASS or CHOICE_0/1 (2 or 5 wheat)",
    Decision.WINE_CELLAR: "PASS or CHOICE_0",
    Decision.MARKET_TURN: "EST_SLOT_m, CLOSE_SLOT_m, MOVE_TO_BLACK_MARKET or PASS",
    Decision.MARKET_SALE: "SELL_<good> or PASS (confirm)",
    Decision.BLACK_MARKET: "SELL_<good>, BUY_<good> or PASS",
}


def why_illegal(state: MiTierraState, action: int) -> str:
    """The reason a refused `action` is illegal, for error messages (not on the hot path)."""
    if state.terminal:
        return "the game is over"
    if state.chance_pending:
        return "a die roll is pending (explicit-chance mode: call apply_chance)"
    if not 0 <= action < N_ACTIONS:
        return f"valid action ids are 0-{N_ACTIONS - 1}"
    d = Decision(state.decision)
    p = state.current_player
    specific = _specific_reason(state, d, p, action)
    if specific:
        return specific
    return f"in decision {d.name} the move must be {_EXPECTED[d]}"


def _specific_reason(state: MiTierraState, d: Decision, p: int, action: int) -> str:
    from .decisions import free_space, zone_open

    if d == Decision.PLACE:
        hut = state.hut[p]
        if action in PLACE_ACTION_ZONE:
            zone = PLACE_ACTION_ZONE[action]
            name = C.ZONES[zone].name
            if free_space(state, zone) < 0:
                return f"the {name} has no free space"
            if C.ZONES[zone].factory and state.event_in_force() == C.STRIKE:
                return f"Strike is in force: the {name} is closed (MIT-105)"
            if zone == C.Z_SQUARE and not zone_open(state, zone, p):
                return "you may own at most 5 workers (MIT-37)"
            if zone == C.Z_LOWER_ROAD and not zone_open(state, zone, p):
                return "you already have a worker on the lower road (G-07)"
        if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
            space = C.ZONE_FIRST_SPACE[C.Z_DEV] + action - PLACE_DEV0
            if state.num_players == 2 and space in C.BLOCKED_2P:
                return "with 2 players the centre development spot is blocked (G-03)"
            return "that development spot is taken"
        if action in (PLACE_PAIR_FOREST, PLACE_PAIR_CROPS):
            if hut < 2:
                return "two workers together need two workers in your hut (MIT-24)"
            return "that zone has no free space"
        if CELL0 <= action < CHOICE0:
            c = action - CELL0
            tile = state.tiles[p][c]
            if not C.T_APPLE <= tile <= C.T_GRAPE:
                return f"farm cell {c} holds no crop field ({C.TILE_NAMES[tile]})"
            return f"farm cell {c} already has a worker"
        return ""
    if d == Decision.UPKEEP and action == PASS:
        from .flow import upkeep_due

        return (
            f"you cannot pay the upkeep of ${upkeep_due(state, p)} with ${state.money[p]}; "
            "release a worker (MIT-15)"
        )
    if d == Decision.TILE and action == PASS:
        return "the new tile must go on a farm cell while one is empty (MIT-32, G-20)"
    if d == Decision.TILE and CELL0 <= action < CHOICE0:
        c = action - CELL0
        if c == C.PRINTED_APPLE_CELL:
            return "the printed apple field is never replaced (G-17)"
        return f"farm cell {c} has a worker on it this round (G-20)"
    if d == Decision.MARKET_TURN and EST_SLOT0 <= action < MOVE_TO_BLACK_MARKET:
        return "you cannot sell a single unit to that market (G-53)"
    if d == Decision.MARKET_SALE and action == PASS:
        return "a sale needs at least one unit (G-53)"
    if d == Decision.MARKET_SALE and SELL0 <= action < SELL0 + C.NUM_GOODS:
        return "that market does not buy more of that good from you"
    if d == Decision.BLACK_MARKET and action in BUY_ACTION_GOOD:
        if state.bm_buys >= C.BM_BUYS_PER_WORKER:
            return "a Black Market worker buys at most 3 units per round (MIT-91)"
        return "you cannot afford that purchase"
    if d == Decision.BLACK_MARKET and SELL0 <= action < SELL0 + C.NUM_GOODS:
        return f"you hold no {C.GOODS[action - SELL0]}"
    if d == Decision.BLACK_MARKET and action > SELL0 + C.NUM_GOODS - 1:
        return "that good cannot be bought at the Black Market (MIT-91)"
    if CHOICE0 <= action < EST_SLOT0 and d in (
        Decision.BAKERY, Decision.CLOTH, Decision.FLOUR_WINE, Decision.ANIMAL_PRODUCTS,
        Decision.MILL, Decision.WINE_CELLAR, Decision.DEVELOPMENT,
    ):
        return "you lack the money, the goods or the card for that option"
    return ""
