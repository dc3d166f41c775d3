"""Finca's rules: the exact legal-action mask and every transition (each names its clauses).

All functions work on a `FincaState` in place. `apply` checks the mask first and raises
`IllegalActionError` before touching anything, so a refused action loses nothing. It returns
the action's `Changes`, what it changed in the game's terms (whose holdings, whether anything on
the table, whether tiles left the communities). The rules keep no cache: whatever derives views
of the state reads the report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..core.errors import IllegalActionError
from ..core.validation import check_action
from . import components as C
from .actions import (
    COMM0,
    CONFIRM,
    DELIVER,
    FRUIT0,
    N_ACTIONS,
    PLAY_ACTIONS,
    PLAY_DOUBLE,
    PLAY_GUST,
    PLAY_LARGE,
    PLAY_ONELESS,
    DeliveryMode,
    Phase,
    action_name,
    describe,
)

if TYPE_CHECKING:
    from .state import FincaState

NUM_BLADES = C.NUM_BLADES
NUM_FRUITS = C.NUM_FRUITS
_FRUIT_RANGE = range(NUM_FRUITS)

_INTRO = Phase.INTRO
_MAIN = Phase.MAIN
_DM1 = Phase.DM_MOVE_1
_DM2 = Phase.DM_MOVE_2
_GUST_SRC = Phase.GUST_SOURCE
_GUST_DST = Phase.GUST_TARGET
_SELECT = Phase.DELIVER_SELECT
_WILD = Phase.DELIVER_WILD
_OMIT = Phase.DELIVER_OMIT
_OVER = Phase.GAME_OVER
# Decisions that move no piece (only the turn context changes until CONFIRM)
_SUBSTEP_PHASES = frozenset((Phase.GUST_SOURCE, Phase.DELIVER_SELECT, Phase.DELIVER_WILD,
                             Phase.DELIVER_OMIT))


# --- delivery feasibility -------------------------------------------------------------------

def requirement(tile: C.FruitTile, wild_fruit: int, omit_fruit: int) -> list[int]:
    """Fruits a tile costs when its wild symbols are paid with `wild_fruit` (or -1 if none) and
    one `omit_fruit` is left out (-1 for no reduction)."""
    req = list(tile.fixed)
    if tile.wild:
        req[wild_fruit] += tile.wild
    if omit_fruit >= 0:
        req[omit_fruit] -= 1
    return req


def tile_payable(tile: C.FruitTile, rem: list[int], cap_left: int, reduce: bool) -> bool:
    """Whether some choice of wild type (and omitted fruit, if `reduce`) pays `tile` exactly from
    the uncommitted fruit `rem` within the remaining cap (FIN-26, FIN-27, FIN-29, FIN-34)."""
    size = tile.size
    fixed = tile.fixed
    if not reduce:
        if size > cap_left:
            return False
        for f in _FRUIT_RANGE:
            if fixed[f] > rem[f]:
                return False
        wild = tile.wild
        if not wild:
            return True
        return any(rem[f] - fixed[f] >= wild for f in _FRUIT_RANGE)
    # One fruit less: the tile must ask for 2+ fruits (FIN-50); paying size-1 within the cap, with
    # at most one fruit missing from what the (wild-completed) requirement needs.
    if size < 2 or size - 1 > cap_left:
        return False
    base_missing = 0
    for f in _FRUIT_RANGE:
        if fixed[f] > rem[f]:
            base_missing += fixed[f] - rem[f]
    if base_missing > 1:
        return False
    wild = tile.wild
    if not wild:
        return True
    for w in _FRUIT_RANGE:
        short = fixed[w] + wild - rem[w]
        had = fixed[w] - rem[w]
        missing = base_missing - (had if had > 0 else 0) + (short if short > 0 else 0)
        if missing <= 1:
            return True
    return False


def tile_options(
    tile: C.FruitTile, rem: list[int], cap_left: int, reduce: bool
) -> list[tuple[int, int]]:
    """Every (wild fruit, omitted fruit) pair that pays `tile`; -1 marks 'none'. Used for the
    sub-step masks and by the brute-force check in the tests."""
    wild_choices = _FRUIT_RANGE if tile.wild else (-1,)
    options = []
    for w in wild_choices:
        omit_choices = _FRUIT_RANGE if reduce else (-1,)
        if reduce and tile.size < 2:
            continue
        for o in omit_choices:
            req = requirement(tile, w, -1)
            if o >= 0:
                if req[o] < 1:
                    continue
                req[o] -= 1
            if sum(req) > cap_left:
                continue
            if all(req[f] <= rem[f] for f in _FRUIT_RANGE):
                options.append((w, o))
    return options


def _any_payable(state: FincaState, player: int, cap: int, reduce: bool) -> bool:
    fruits = state.fruits[player]
    catalogue = state.catalogue
    for stack in state.stacks:
        if stack and tile_payable(catalogue[stack[-1]], fruits, cap, reduce):
            return True
    return False


def _uncommitted(state: FincaState) -> list[int]:
    fruits = state.fruits[state.current_player]
    committed = state.committed
    return [fruits[f] - committed[f] for f in _FRUIT_RANGE]


# --- the mask ---------------------------------------------------------------------------------

class Changes(NamedTuple):
    """What one action changed, in the game's terms."""

    holdings: tuple[int, ...]  # the seats whose holdings (fruit, carts, tiles...) changed
    table: bool  # anything but the delivery's choices changed (they are settled on CONFIRM)
    communities: bool  # tiles left the communities: a delivery was handed over


NOTHING_ON_THE_TABLE = Changes((), False, False)
# by seat: the acting seat's holdings changed; by player count: every seat's did
_OWN_HOLDINGS = tuple(Changes((p,), True, False) for p in range(4))
_ALL_HOLDINGS = {n: Changes(tuple(range(n)), True, False) for n in (2, 3, 4)}
_DELIVERED = {n: Changes(tuple(range(n)), True, True) for n in (2, 3, 4)}


def write_legal_mask(state: FincaState, mask: np.ndarray) -> None:
    """Write the exact legal-action mask of the current player into `mask` (bool, 34)."""
    mask[:] = False
    phase = state.phase
    if state.terminal:
        return
    p = state.current_player
    if phase == _INTRO:
        mask[:NUM_BLADES] = True
    elif phase == _MAIN:
        mask[:NUM_BLADES] = state.farmers[p]
        unused = state.unused[p]
        carts = state.carts[p]
        if carts and _any_payable(state, p, C.NORMAL_DELIVERY_CAP, False):
            mask[DELIVER] = True
        if unused[C.DOUBLE_MOVE]:
            mask[PLAY_DOUBLE] = True
        if unused[C.GUST_OF_WIND]:
            mask[PLAY_GUST] = True
        if unused[C.LARGE_CART] and _any_payable(state, p, C.LARGE_DELIVERY_CAP, False):
            mask[PLAY_LARGE] = True
        if unused[C.ONE_FRUIT_LESS] and carts and _any_payable(
            state, p, C.NORMAL_DELIVERY_CAP, True
        ):
            mask[PLAY_ONELESS] = True
    elif phase in (_DM1, _DM2, _GUST_SRC):
        mask[:NUM_BLADES] = state.farmers[p]
    elif phase == _GUST_DST:
        mask[:NUM_BLADES] = True
        mask[state.gust_source] = False
    elif phase == _SELECT:
        rem = _uncommitted(state)
        cap_left = state.cap_left
        reduce = state.reduce_pending
        chosen = {c for c, _, _ in state.selected}
        catalogue = state.catalogue
        for c, stack in enumerate(state.stacks):
            if stack and c not in chosen and tile_payable(
                catalogue[stack[-1]], rem, cap_left, reduce
            ):
                mask[COMM0 + c] = True
        if state.selected:
            mask[CONFIRM] = True
    elif phase == _WILD:
        for w, _ in _pending_options(state):
            mask[FRUIT0 + w] = True
    elif phase == _OMIT:
        wild = state.pending_wild
        for w, o in _pending_options(state):
            if w == wild:
                mask[FRUIT0 + o] = True


def _pending_options(state: FincaState) -> list[tuple[int, int]]:
    tile = state.catalogue[state.stacks[state.pending][-1]]
    return tile_options(tile, _uncommitted(state), state.cap_left, state.reduce_pending)


# --- transitions -----------------------------------------------------------------------------

def apply(state: FincaState, action: int) -> Changes:
    """Carry out `action` for the current player and say what it changed, or raise
    `IllegalActionError` (no change)."""
    if type(action) is not int:  # numpy integers pass; bools, floats, strings... are refused
        action = check_action(action, N_ACTIONS)
    mask = state.legal_mask()
    if not 0 <= action < len(mask) or not mask[action]:
        raise IllegalActionError(action, why_illegal(state, action), _safe_name(state, action))
    phase = state.phase
    p = state.current_player
    state.steps += 1
    everyone = False  # a shortage made every player return fruit or carts
    if phase == _INTRO:
        everyone = _place_intro_farmer(state, p, action)
    elif phase == _MAIN:
        if action < NUM_BLADES:
            everyone = move_farmer(state, p, action)
            _end_turn(state)
        elif action == DELIVER:
            _start_delivery(state, DeliveryMode.NORMAL, C.NORMAL_DELIVERY_CAP)
        else:
            _play_action_tile(state, p, action)
    elif phase == _DM1:
        everyone = move_farmer(state, p, action)
        state.phase = _DM2
    elif phase == _DM2:
        everyone = move_farmer(state, p, action)
        _end_turn(state)
    elif phase == _GUST_SRC:
        state.gust_source = action
        state.phase = _GUST_DST
    elif phase == _GUST_DST:
        everyone = gust_farmer(state, p, state.gust_source, action)
        state.gust_source = -1
        _end_turn(state)
    elif phase == _SELECT:
        if action == CONFIRM:
            resolve_delivery(state)
            return _DELIVERED[state.num_players]
        else:
            c = action - COMM0
            tile = state.catalogue[state.stacks[c][-1]]
            state.pending = c
            if tile.wild:
                state.phase = _WILD
            elif state.reduce_pending:
                state.phase = _OMIT
            else:
                _commit_pending(state, -1, -1)
    elif phase == _WILD:
        state.pending_wild = action - FRUIT0
        if state.reduce_pending:
            state.phase = _OMIT
        else:
            _commit_pending(state, state.pending_wild, -1)
    elif phase == _OMIT:
        _commit_pending(state, state.pending_wild, action - FRUIT0)
        state.reduce_pending = False
    if phase in _SUBSTEP_PHASES or action == DELIVER:
        return NOTHING_ON_THE_TABLE
    return _ALL_HOLDINGS[state.num_players] if everyone else _OWN_HOLDINGS[p]


def _play_action_tile(state: FincaState, p: int, action: int) -> None:
    """FIN-30: the tile is spent as it is played; its effect is the rest of the turn."""
    state.unused[p][PLAY_ACTIONS[action]] = False
    if action == PLAY_DOUBLE:
        state.phase = _DM1
    elif action == PLAY_GUST:
        state.phase = _GUST_SRC
    elif action == PLAY_LARGE:
        _start_delivery(state, DeliveryMode.LARGE, C.LARGE_DELIVERY_CAP)
    else:  # PLAY_ONELESS
        _start_delivery(state, DeliveryMode.ONE_LESS, C.NORMAL_DELIVERY_CAP)
        state.reduce_pending = True


def _safe_name(state: FincaState, action: int) -> str:
    if 0 <= action < CONFIRM + 1 and not state.terminal:
        return f"{action_name(action)}: {describe(state, action)}"
    return action_name(action)


def why_illegal(state: FincaState, action: int) -> str:
    """The reason a masked `action` is refused, for error messages (not used on the hot path)."""
    if state.terminal:
        return "the game is over"
    if not 0 <= action <= CONFIRM:
        return "valid action ids are 0-33"
    phase = Phase(state.phase)
    p = state.current_player
    expected = {
        _INTRO: "a BLADE id (place a farmer)",
        _DM1: "a BLADE id holding one of your farmers (Double move, first move)",
        _DM2: "a BLADE id holding one of your farmers (Double move, second move)",
        _GUST_SRC: "a BLADE id holding one of your farmers (Gust of wind)",
        _GUST_DST: "a BLADE id other than the farmer's own blade (Gust of wind)",
        _SELECT: "a COMM id whose tile you can still pay, or CONFIRM",
        _WILD: "a FRUIT id to pay the wild symbols with",
        _OMIT: "a FRUIT id of the tile to leave out",
    }
    if phase in expected:
        if phase == _SELECT and action == CONFIRM:
            return "a delivery must hand over at least one tile (G-14)"
        if phase == _SELECT and COMM0 <= action < FRUIT0:
            c = action - COMM0
            if not state.stacks[c]:
                return f"community {c} has no tiles left"
            if any(sel[0] == c for sel in state.selected):
                return f"community {c} is already part of this delivery (G-15)"
            return (
                f"you cannot pay community {c}'s tile exactly with your uncommitted fruit "
                f"within the remaining cap of {state.cap_left}"
            )
        if phase in (_DM1, _DM2, _GUST_SRC) and action < NUM_BLADES:
            return f"you have no farmer on blade {action}"
        if phase == _GUST_DST and action == state.gust_source:
            return "Gust of wind must move the farmer to a different blade (G-22)"
        if phase in (_WILD, _OMIT) and FRUIT0 <= action < DELIVER:
            return "that fruit leaves the tile unpayable"
        return f"in phase {phase.name} the move must be {expected[phase]}"
    # MAIN
    if action < NUM_BLADES:
        return f"you have no farmer on blade {action}"
    if COMM0 <= action < DELIVER or action == CONFIRM:
        return "no delivery is in progress (start one with DELIVER or a delivery action tile)"
    if action in (PLAY_DOUBLE, PLAY_GUST, PLAY_LARGE, PLAY_ONELESS):
        tile = PLAY_ACTIONS[action]
        if not state.unused[p][tile]:
            return f"your {C.ACTION_TILES[tile]} tile is already used (FIN-30)"
        if action == PLAY_ONELESS and not state.carts[p]:
            return "One fruit less needs a donkey cart (G-17)"
        return "no face-up tile can be paid with this delivery"
    if action == DELIVER:
        if not state.carts[p]:
            return "a delivery needs a donkey cart (FIN-24)"
        return "no face-up tile can be paid exactly with your fruit within 6 fruits (FIN-27)"
    return "not allowed now"


def _next_player(state: FincaState) -> None:
    state.current_player = (state.current_player + 1) % state.num_players


def _end_turn(state: FincaState) -> None:
    state.turns += 1
    state.phase = _MAIN
    _next_player(state)


def _place_intro_farmer(state: FincaState, p: int, b: int) -> bool:
    """FIN-13, FIN-14: any blade; exactly one fruit of the blade, no cart. True when a shortage
    made everybody return fruit."""
    state.farmers[p][b] += 1
    state.blade_total[b] += 1
    everyone = take_fruit(state, p, state.blades[b], 1)
    state.intro_left -= 1
    state.turns += 1  # each placement is that player's turn of the introduction
    _next_player(state)
    if state.intro_left == 0:
        state.phase = _MAIN  # FIN-15: the player after the last placer is always seat 0
    return everyone


def take_fruit(state: FincaState, p: int, f: int, amount: int) -> bool:
    """FIN-22, FIN-47, G-24: if the supply holds fewer than owed, everybody returns all fruit of
    that type first; then the player takes the full amount. True when everybody returned fruit."""
    shortage = state.supply[f] < amount
    if shortage:
        for holdings in state.fruits:
            state.supply[f] += holdings[f]
            holdings[f] = 0
    state.supply[f] -= amount
    state.fruits[p][f] += amount
    return shortage


def take_carts(state: FincaState, p: int, owed: int) -> bool:
    """FIN-23, FIN-48, G-23: with too few carts in the centre everybody returns all carts, then the
    player takes what is owed (or, with `take_then_reset`, one cart at a time). True when
    everybody returned carts."""
    shortage = False
    if state.cart_shortage == "reset_then_take":
        if state.centre_carts < owed:
            _reset_carts(state)
            shortage = True
        state.centre_carts -= owed
        state.carts[p] += owed
    else:
        for _ in range(owed):
            if state.centre_carts == 0:
                _reset_carts(state)
                shortage = True
            state.centre_carts -= 1
            state.carts[p] += 1
    return shortage


def _reset_carts(state: FincaState) -> None:
    state.centre_carts += sum(state.carts)
    for q in range(state.num_players):
        state.carts[q] = 0


def lines_crossed(source: int, steps: int) -> int:
    """G-03: dividing lines entered on a clockwise path of `steps` blades from `source`; a line
    is crossed when the path enters blade 0 or blade 6."""
    return (source + steps) // 6 - source // 6


def move_farmer(state: FincaState, p: int, source: int) -> bool:
    """FIN-18, FIN-19, FIN-20, FIN-21: move one of p's farmers on `source` as many blades as farmers
    stand there, harvest one fruit per farmer on the destination, earn a cart per dividing line
    crossed. True when a shortage made everybody return fruit or carts."""
    total = state.blade_total
    steps = total[source]
    dest = (source + steps) % NUM_BLADES
    own = state.farmers[p]
    own[source] -= 1
    total[source] -= 1
    own[dest] += 1
    total[dest] += 1
    everyone = take_fruit(state, p, state.blades[dest], total[dest])
    crossed = lines_crossed(source, steps)
    if crossed:
        everyone = take_carts(state, p, crossed) or everyone
    return everyone


def gust_farmer(state: FincaState, p: int, source: int, target: int) -> bool:
    """FIN-32, G-22: put one of p's farmers from `source` onto `target`, harvest there, no carts.
    True when a shortage made everybody return fruit."""
    own = state.farmers[p]
    own[source] -= 1
    state.blade_total[source] -= 1
    own[target] += 1
    state.blade_total[target] += 1
    return take_fruit(state, p, state.blades[target], state.blade_total[target])


def _start_delivery(state: FincaState, mode: DeliveryMode, cap: int) -> None:
    state.mode = int(mode)
    state.cap_left = cap
    state.phase = _SELECT


def _commit_pending(state: FincaState, wild: int, omit: int) -> None:
    c = state.pending
    tile = state.catalogue[state.stacks[c][-1]]
    req = requirement(tile, wild, omit)
    for f in _FRUIT_RANGE:
        state.committed[f] += req[f]
    state.cap_left -= sum(req)
    state.selected.append((c, wild, omit))
    state.pending = -1
    state.pending_wild = -1
    state.phase = _SELECT


def resolve_delivery(state: FincaState) -> None:
    """G-39: pay fruit (and the cart), take the tiles, award bonuses, resolve emptied communities
    in ascending order (finca tile, wooden finca), end the game when the last wooden finca is
    placed (FIN-42), otherwise end the turn."""
    p = state.current_player
    fruits = state.fruits[p]
    for f in _FRUIT_RANGE:
        paid = state.committed[f]
        fruits[f] -= paid
        state.supply[f] += paid
        state.committed[f] = 0
    if state.mode != DeliveryMode.LARGE:
        state.carts[p] -= 1
        state.centre_carts += 1
    emptied = []
    for c, _, _ in state.selected:
        stack = state.stacks[c]
        tile_id = stack.pop()
        _add_to_display(state, p, tile_id)
        if stack:
            state.revealed[stack[-1]] = True
        else:
            emptied.append(c)
    _award_bonuses(state, p)
    for c in sorted(emptied):
        award_finca(state, c)
        if state.wooden_reserve > 0:
            state.wooden_reserve -= 1
            state.wooden[c] = True
    state.selected = []
    state.mode = int(DeliveryMode.NONE)
    state.cap_left = 0
    state.reduce_pending = False
    if emptied and state.wooden_reserve == 0:
        state.terminal = True
        state.phase = _OVER
        state.turns += 1
    else:
        _end_turn(state)


def _add_to_display(state: FincaState, p: int, tile_id: int) -> None:
    tile = state.catalogue[tile_id]
    state.displays[p].append(tile_id)
    state.value_counts[p][tile.value - 1] += 1
    printed = state.printed[p]
    for f in _FRUIT_RANGE:
        printed[f] += tile.fixed[f]
    state.wild_symbols[p] += tile.wild
    state.tile_points[p] += tile.value


def _award_bonuses(state: FincaState, p: int) -> None:
    """FIN-40, FIN-41, G-12: while the player owns more complete 1-6 sets than bonus tiles, take the
    top bonus tile (7, 6, 5, 4)."""
    complete_sets = min(state.value_counts[p])
    while complete_sets > len(state.bonuses[p]) and state.bonus_stack:
        state.bonuses[p].append(state.bonus_stack.pop())


def majority_counts(state: FincaState, finca_id: int) -> list[int]:
    """Per player, what decides finca tile `finca_id`: printed symbols of its fruit(s) on the
    player's fruit tiles (FIN-35, FIN-38, G-07) or, for the universal tile, face values (FIN-39)."""
    finca = C.FINCA_TILES[finca_id]
    if finca.universal:
        return list(state.tile_points)
    return [sum(state.printed[p][f] for f in finca.fruits) for p in range(state.num_players)]


def award_finca(state: FincaState, c: int) -> None:
    """FIN-35, FIN-36, G-09: the finca tile of emptied community `c` goes to the unique leader; on a
    shared lead (zero included) it leaves the game."""
    finca_id = state.finca_tile[c]
    counts = majority_counts(state, finca_id)
    best = max(counts)
    leaders = [q for q, n in enumerate(counts) if n == best]
    if len(leaders) == 1:
        state.fincas_won[leaders[0]].append(finca_id)
    else:
        state.fincas_removed.append(finca_id)
    state.finca_tile[c] = -1


def score(state: FincaState, p: int) -> int:
    """FIN-43: fruit-tile values + 5 per finca tile + 2 per unused action tile + bonus tiles."""
    return (
        state.tile_points[p]
        + C.FINCA_TILE_POINTS * len(state.fincas_won[p])
        + C.UNUSED_ACTION_TILE_POINTS * sum(state.unused[p])
        + sum(state.bonuses[p])
    )


def tally_display(
    catalogue: tuple[C.FruitTile, ...], tiles: list[int]
) -> tuple[list[int], list[int], int, int]:
    """Counts by face value 1-6, printed symbols per fruit, wild symbols and points of `tiles`."""
    values = [0] * 6
    printed = [0] * NUM_FRUITS
    wild = points = 0
    for t in tiles:
        tile = catalogue[t]
        values[tile.value - 1] += 1
        for f in _FRUIT_RANGE:
            printed[f] += tile.fixed[f]
        wild += tile.wild
        points += tile.value
    return values, printed, wild, points
