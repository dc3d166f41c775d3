"""Each decision's legal actions and what a chosen action does.

One function lists the legal actions of the pending decision (the mask is built from it, and
`apply` checks against it), and one carries a chosen action out. Options that cannot be paid for
or supplied are never listed (G-30, G-32), so every listed action is carried out in full.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from .actions import (
    BUY_ACTION_GOOD,
    CELL0,
    CHOICE0,
    CLOSE_SLOT0,
    EST_SLOT0,
    GOOD_BUY_ACTION,
    MOVE_TO_BLACK_MARKET,
    PASS,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    PLACE_ZONES,
    SELL0,
    ZONE_PLACE_ACTION,
    Decision,
    Stage,
)
from .farm import change_good, put_tile
from .flow import (
    EM_FIRST,
    SUB_OUTCOME,
    SUB_ROLL,
    SUB_TILE,
    apf_products,
    finish_worker,
    pay_upkeep,
    pose,
    upkeep_due,
)
from .groups import BLACK_MARKET, FARM, HOLDINGS, HUT, MARKET, WORKERS
from .ledger import gain, pay
from .market import can_sell_to, complete_sale, inflation, sale_card

if TYPE_CHECKING:
    from .state import MiTierraState

CARDS = C.MARKET_CARDS
_DEV_FIRST = C.ZONE_FIRST_SPACE[C.Z_DEV]
_SQUARE_FIRST = C.ZONE_FIRST_SPACE[C.Z_SQUARE]
_LOWER_FIRST = C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD]


# --- placement helpers ---------------------------------------------------------------------------

def _usable_spaces(n: int) -> tuple[tuple[int, ...], ...]:
    """Per zone, its spaces in board order without the ones blocked with `n` players (G-03)."""
    out = []
    for z, zone in enumerate(C.ZONES):
        first = C.ZONE_FIRST_SPACE[z]
        out.append(tuple(i for i in range(first, first + zone.spaces)
                         if not (n == 2 and i in C.BLOCKED_2P)))
    return tuple(out)


_USABLE = {n: _usable_spaces(n) for n in C.PLAYER_COUNTS}
_PLACE_ORDER = tuple((zone, ZONE_PLACE_ACTION[zone]) for zone in PLACE_ZONES)
_FACTORIES = frozenset(C.FACTORY_ZONES)
_SQUARE_SPACES = tuple(range(_SQUARE_FIRST, _SQUARE_FIRST + C.ZONES[C.Z_SQUARE].spaces))
_LOWER_SPACES = tuple(range(_LOWER_FIRST, _LOWER_FIRST + C.ZONES[C.Z_LOWER_ROAD].spaces))
_DEV_ACTIONS = {n: tuple((PLACE_DEV0 + i - _DEV_FIRST, i) for i in _USABLE[n][C.Z_DEV])
                for n in C.PLAYER_COUNTS}


def free_space(state: MiTierraState, zone: int) -> int:
    """G-05: the zone's lowest free space that is not blocked (2 players, G-03), or -1."""
    owner = state.space_owner
    for i in _USABLE[state.num_players][zone]:
        if owner[i] < 0:
            return i
    return -1


def zone_open(state: MiTierraState, zone: int, player: int) -> bool:
    """Whether `player` may put one worker in `zone` now (the hut is checked by the caller)."""
    return ZONE_PLACE_ACTION[zone] in _placement_actions(state, player)


class _Memo(dict):
    """A dict that computes a missing entry with `fn(key)` (the tables below are small)."""

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key):
        value = self[key] = self.fn(key)
        return value


def _bits(spaces) -> int:
    out = 0
    for i in spaces:
        out |= 1 << i
    return out


# The PLACE decision reads the board through `state.occupied` (bit i set when space i holds a
# worker) with the spaces blocked with 2 players (G-03) counted as occupied. The 13 zone actions
# and the development spots come from four memo tables, each over the bits of a run of zones
# (in action order: Forest … Cow, Henhouse … Bakery, Flour and Wine … Lower road, the spots).
_BLOCKED_BITS = {n: (_bits(C.BLOCKED_2P) if n == 2 else 0) for n in C.PLAYER_COUNTS}
_ZONE_BITS = tuple(
    _bits(range(C.ZONE_FIRST_SPACE[z], C.ZONE_FIRST_SPACE[z] + zone.spaces))
    for z, zone in enumerate(C.ZONES)
)
_CHUNK_A_ZONES = (C.Z_FOREST, C.Z_SHEEP, C.Z_SQUARE, C.Z_CROPS, C.Z_COW)
_CHUNK_B_ZONES = (C.Z_HENHOUSE, C.Z_APF, C.Z_CLOCK, C.Z_BAKERY)
_CHUNK_C_ZONES = (C.Z_FLOUR_WINE, C.Z_CLOTH, C.Z_EST_MARKET, C.Z_LOWER_ROAD)
_MASK_A = _bits(range(0, C.ZONE_FIRST_SPACE[C.Z_HENHOUSE]))
_MASK_B = _bits(range(C.ZONE_FIRST_SPACE[C.Z_HENHOUSE], _DEV_FIRST))
_MASK_D = _ZONE_BITS[C.Z_DEV]
_MASK_C = _bits(range(C.ZONE_FIRST_SPACE[C.Z_FLOUR_WINE], C.NUM_SPACES))
assert [z for z, _ in _PLACE_ORDER] == [*_CHUNK_A_ZONES, *_CHUNK_B_ZONES, *_CHUNK_C_ZONES]
assert _MASK_A | _MASK_B | _MASK_C | _MASK_D == (1 << C.NUM_SPACES) - 1
_SQUARE_A, _SQUARE_B = _SQUARE_SPACES
# per PLACE action taking a board space: (the bits of the spaces it may take, whether a pair)
_PLACE_TARGET = {
    **{action: (_ZONE_BITS[zone], False) for action, zone in PLACE_ACTION_ZONE.items()},
    **{PLACE_DEV0 + k: (1 << (_DEV_FIRST + k), False) for k in range(C.ZONES[C.Z_DEV].spaces)},
    PLACE_PAIR_FOREST: (_ZONE_BITS[C.Z_FOREST], True),
    PLACE_PAIR_CROPS: (_ZONE_BITS[C.Z_CROPS], True),
}
_PLACE_LOWER_ROAD = ZONE_PLACE_ACTION[C.Z_LOWER_ROAD]
_LOWER_START, _LOWER_STOP = _LOWER_SPACES[0], _LOWER_SPACES[-1] + 1


def _has_free(occ: int, zone: int) -> bool:
    return occ & _ZONE_BITS[zone] != _ZONE_BITS[zone]


def _chunk_a(occ: int) -> tuple:
    """(actions with the Square, actions without it, pair actions) for Forest … Cow."""
    acts = [ZONE_PLACE_ACTION[z] for z in _CHUNK_A_ZONES if _has_free(occ, z)]
    without = tuple(a for a in acts if a != ZONE_PLACE_ACTION[C.Z_SQUARE])
    pairs = []
    if _has_free(occ, C.Z_FOREST):
        pairs.append(PLACE_PAIR_FOREST)
    if _has_free(occ, C.Z_CROPS):
        pairs.append(PLACE_PAIR_CROPS)
    acts = tuple(acts)
    return (acts, without if without != acts else acts, tuple(pairs))


def _chunk(zones: tuple, strike: bool, occ: int) -> tuple:
    return tuple(ZONE_PLACE_ACTION[z] for z in zones
                 if _has_free(occ, z) and not (strike and z in _FACTORIES))  # MIT-105, G-65


def _chunk_c(strike: bool, occ: int) -> tuple:
    """(actions, actions without the lower road) for Flour and Wine … Lower road."""
    acts = _chunk(_CHUNK_C_ZONES, strike, occ)
    without = tuple(a for a in acts if a != ZONE_PLACE_ACTION[C.Z_LOWER_ROAD])
    return (acts, without if without != acts else acts)


_TABLE_A = _Memo(_chunk_a)
_TABLE_B = (_Memo(lambda occ: _chunk(_CHUNK_B_ZONES, False, occ)),
            _Memo(lambda occ: _chunk(_CHUNK_B_ZONES, True, occ)))
_TABLE_C = (_Memo(lambda occ: _chunk_c(False, occ)), _Memo(lambda occ: _chunk_c(True, occ)))
_TABLE_D = _Memo(lambda occ: tuple(PLACE_DEV0 + i - _DEV_FIRST
                                   for i in range(_DEV_FIRST, _DEV_FIRST + C.ZONES[C.Z_DEV].spaces)
                                   if not occ >> i & 1))
_STRIKE_CARDS = frozenset(c.card_id for c in C.MARKET_CARDS if c.event == C.STRIKE)
_CROP_TILES = (C.T_APPLE, C.T_WHEAT, C.T_GRAPE)


def _placement_actions(state: MiTierraState, p: int) -> list[int]:
    """MIT-20, MIT-21, MIT-22, MIT-23, MIT-24, MIT-25: the PLACE decision's legal ids, in increasing
    order."""
    occ = state.occupied | _BLOCKED_BITS[state.num_players]
    strike = state.event_card in _STRIKE_CARDS  # MIT-105, G-65
    owner = state.space_owner
    a = _TABLE_A[occ & _MASK_A]
    first = a[0]
    if first is not a[1] and (  # MIT-37, G-27: owned + hires already placed stay within 5
            state.owned[p] + (owner[_SQUARE_A] == p) + (owner[_SQUARE_B] == p)
            >= C.MAX_WORKERS):
        first = a[1]
    c = _TABLE_C[strike][occ & _MASK_C]
    third = c[0]
    if third is not c[1] and p in owner[_LOWER_START:_LOWER_STOP]:
        third = c[1]  # G-07: one worker per player on the lower road
    legal = [PASS, *first, *_TABLE_B[strike][occ & _MASK_B], *third, *_TABLE_D[occ & _MASK_D]]
    if a[2] and state.hut[p] >= 2:  # MIT-24
        legal += a[2]
    # MIT-21, G-25: own crop fields without a worker (the crop cells kept per seat with the
    # tiles they were read from, read again when those differ)
    entry = state._cells_cache[p]
    tiles = state.tiles[p]
    if entry is None or entry[0] != tiles:
        cells = tuple(c for c in range(C.FARM_CELLS) if tiles[c] in _CROP_TILES)
        entry = (list(tiles), cells, tuple(CELL0 + c for c in cells))
        state._cells_cache[p] = entry
    if entry[1]:
        workers = state.farm_workers[p]
        if True in workers:
            legal += [CELL0 + c for c in entry[1] if not workers[c]]
        else:
            legal += entry[2]
    return legal


def placement_actions_reference(state: MiTierraState, p: int) -> list[int]:
    """The PLACE decision's legal ids computed the plain way (for the tests)."""
    legal = [PASS]
    owner = state.space_owner
    usable = _USABLE[state.num_players]
    strike = state.event_card >= 0 and state.event_in_force() == C.STRIKE
    forest_free = crops_free = False
    for zone, action in _PLACE_ORDER:
        if all(owner[i] >= 0 for i in usable[zone]):
            continue
        if zone == C.Z_FOREST:
            forest_free = True
        elif zone == C.Z_CROPS:
            crops_free = True
        elif zone in _FACTORIES:
            if strike:
                continue
        elif zone == C.Z_SQUARE:
            hires = sum(1 for i in _SQUARE_SPACES if owner[i] == p)
            if state.owned[p] + hires >= C.MAX_WORKERS:
                continue
        elif zone == C.Z_LOWER_ROAD and any(owner[i] == p for i in _LOWER_SPACES):
            continue
        legal.append(action)
    for action, i in _DEV_ACTIONS[state.num_players]:
        if owner[i] < 0:
            legal.append(action)
    if state.hut[p] >= 2:
        if forest_free:
            legal.append(PLACE_PAIR_FOREST)
        if crops_free:
            legal.append(PLACE_PAIR_CROPS)
    tiles = state.tiles[p]
    workers = state.farm_workers[p]
    for c in range(C.FARM_CELLS):
        if C.T_APPLE <= tiles[c] <= C.T_GRAPE and not workers[c]:
            legal.append(CELL0 + c)
    return legal


def flour_wine_options(state: MiTierraState, p: int) -> list[int]:
    """MIT-53, MIT-54: CHOICE_0 flour, CHOICE_1 wine, CHOICE_2 both, each if supplied and paid."""
    goods = state.goods[p]
    if state.money[p] < C.FLOUR_WINE_COST:
        return []
    flour = goods[C.FLOUR_RECIPE[0]] >= C.FLOUR_RECIPE[1]
    wine = goods[C.WINE_RECIPE[0]] >= C.WINE_RECIPE[1]
    out = []
    if flour:
        out.append(0)
    if wine:
        out.append(1)
    if flour and wine:
        out.append(2)
    return out


def can_bake(state: MiTierraState, p: int) -> bool:
    """MIT-47: 1 milk, 2 eggs and $8 are at hand."""
    goods = state.goods[p]
    return state.money[p] >= C.BAKERY_COST and all(goods[g] >= n for g, n in C.BAKERY_INPUTS)


def can_make_cloth(state: MiTierraState, p: int) -> bool:
    """MIT-55: 3 wool and $7 are at hand."""
    goods = state.goods[p]
    return state.money[p] >= C.CLOTH_COST and all(goods[g] >= n for g, n in C.CLOTH_INPUTS)


def sale_goods(state: MiTierraState) -> list[int]:
    """Goods that can still be added to the sale in progress (MARKET_SALE)."""
    card = CARDS[sale_card(state)]
    p = state.current_player
    goods = state.goods[p]
    units = state.sale_units
    if card.kind == "simple":
        if sum(units) >= card.limit or goods[card.good] - units[card.good] <= 0:
            return []
        return [card.good]
    return [g for g in range(C.NUM_GOODS) if goods[g] - units[g] > 0]  # generic


# --- the legal actions of every decision ---------------------------------------------------

def legal_actions(state: MiTierraState) -> list[int]:
    """The legal action ids of the pending decision, in increasing order (empty when none)."""
    if state.terminal or state.chance_pending:
        return []
    return LEGAL_BY_DECISION[state.decision](state, state.current_player)


def _legal_none(state: MiTierraState, p: int) -> list[int]:
    return []


def _legal_upkeep(state: MiTierraState, p: int) -> list[int]:  # MIT-14, MIT-15, MIT-16, G-28
    legal = []
    if state.money[p] >= upkeep_due(state, p):
        legal.append(PASS)
    if state.owned[p] > C.FREE_WORKERS:
        legal.append(CHOICE0)
    return legal


def _legal_forest_pair(state: MiTierraState, p: int) -> list[int]:
    return [CHOICE0 + k for k in range(len(C.FOREST_PAIR_CHOICES))]


def _legal_crops_pair(state: MiTierraState, p: int) -> list[int]:
    return [CHOICE0 + k for k in range(len(C.CROPS_PAIR_CHOICES))]


def _legal_reroll(state: MiTierraState, p: int) -> list[int]:
    return [PASS, CHOICE0]


def _legal_tile(state: MiTierraState, p: int) -> list[int]:  # G-20
    tiles = state.tiles[p]
    workers = state.farm_workers[p]
    legal = [] if C.EMPTY in tiles else [PASS]
    legal += [CELL0 + c for c in range(C.FARM_CELLS)
              if tiles[c] == C.EMPTY or (c != C.PRINTED_APPLE_CELL and not workers[c])]
    return legal


def _legal_apf(state: MiTierraState, p: int) -> list[int]:  # MIT-43, G-31
    ok = state.money[p] >= C.APF_COST and apf_products(state, p)
    return [PASS, CHOICE0] if ok else [PASS]


def _legal_clock(state: MiTierraState, p: int) -> list[int]:
    left = len(state.reorder_left)  # G-35: every listed action gives a different order
    legal = [PASS]
    if left >= 3:
        legal.append(CHOICE0)
    legal += [CHOICE0 + k for k in range(1, left)]
    return legal


def _legal_bakery(state: MiTierraState, p: int) -> list[int]:
    return [PASS, CHOICE0] if can_bake(state, p) else [PASS]


def _legal_development(state: MiTierraState, p: int) -> list[int]:  # MIT-49, G-38
    legal = [PASS]
    if state.money[p] >= state.dev_cost:
        space = state.queue[state.qpos]
        spot = space - _DEV_FIRST
        legal += [CHOICE0 + s for s in C.DEV_SPOT_TOUCHES[spot] if state.display[s] >= 0]
    return legal


def _legal_flour_wine(state: MiTierraState, p: int) -> list[int]:
    return [PASS] + [CHOICE0 + k for k in flour_wine_options(state, p)]


def _legal_cloth(state: MiTierraState, p: int) -> list[int]:
    return [PASS, CHOICE0] if can_make_cloth(state, p) else [PASS]


def _legal_mill(state: MiTierraState, p: int) -> list[int]:  # MIT-65, G-45
    wheat = state.goods[p][C.WHEAT]
    return [PASS] + [CHOICE0 + k for k, (need, _) in enumerate(C.MILL_OPTIONS) if wheat >= need]


def _legal_cellar(state: MiTierraState, p: int) -> list[int]:  # MIT-66
    ok = state.goods[p][C.GRAPE] >= C.WINE_CELLAR_OPTION[0]
    return [PASS, CHOICE0] if ok else [PASS]


def _legal_market_turn(state: MiTierraState, p: int) -> list[int]:  # MIT-79, MIT-82, MIT-88, G-53
    goods = state.goods[p]
    legal = [PASS]
    for m, card in enumerate(state.est):
        if card >= 0 and can_sell_to(goods, card):
            legal.append(EST_SLOT0 + m)
    for m, card in enumerate(state.closing):
        if card >= 0 and can_sell_to(goods, card):
            legal.append(CLOSE_SLOT0 + m)
    legal.append(MOVE_TO_BLACK_MARKET)
    return legal


def _legal_market_sale(state: MiTierraState, p: int) -> list[int]:  # G-53
    legal = [PASS] if any(state.sale_units) else []
    return legal + [SELL0 + g for g in sale_goods(state)]


def _legal_black_market(state: MiTierraState, p: int) -> list[int]:  # MIT-90, MIT-91, G-57, G-58
    goods = state.goods[p]
    legal = [PASS] + [SELL0 + g for g in range(C.NUM_GOODS) if goods[g] > 0]
    if state.bm_buys < C.BM_BUYS_PER_WORKER:
        money = state.money[p]
        legal += [action for action, price in _BM_BUY_OFFERS[inflation(state)] if money >= price]
    return legal


# Per Inflation in force (False, True): the Black Market's (BUY action, price) pairs.
_BM_BUY_OFFERS = {infl: tuple((GOOD_BUY_ACTION[g], C.bm_price(g, True, infl)) for g in C.BUYABLE)
                  for infl in (False, True)}


_LEGAL_BY_DECISION = {
    Decision.NONE: _legal_none,
    Decision.UPKEEP: _legal_upkeep,
    Decision.PLACE: _placement_actions,
    Decision.FOREST_PAIR: _legal_forest_pair,
    Decision.CROPS_PAIR: _legal_crops_pair,
    Decision.REROLL: _legal_reroll,
    Decision.TILE: _legal_tile,
    Decision.ANIMAL_PRODUCTS: _legal_apf,
    Decision.CLOCK_ORDER: _legal_clock,
    Decision.BAKERY: _legal_bakery,
    Decision.DEVELOPMENT: _legal_development,
    Decision.FLOUR_WINE: _legal_flour_wine,
    Decision.CLOTH: _legal_cloth,
    Decision.MILL: _legal_mill,
    Decision.WINE_CELLAR: _legal_cellar,
    Decision.MARKET_TURN: _legal_market_turn,
    Decision.MARKET_SALE: _legal_market_sale,
    Decision.BLACK_MARKET: _legal_black_market,
}
# per decision (an int), the function listing its legal ids: (state, player) -> list
LEGAL_BY_DECISION = [_LEGAL_BY_DECISION[d] for d in Decision]


# --- carrying a decision out ---------------------------------------------------------------------

def resolve(state: MiTierraState, action: int) -> None:
    """Carry out the legal `action` of the pending decision (the caller checked legality)."""
    d = state.decision
    state.decision = 0  # Decision.NONE
    RESOLVER_BY_DECISION[d](state, state.current_player, action)


def _resolve_place(state: MiTierraState, p: int, action: int) -> None:
    idx = state.order.index(p)
    state.place_pos = (idx + 1) % state.num_players
    if action == PASS:  # G-29
        state.retired[p] = True
        state.touched |= WORKERS[p]
        return
    if CELL0 <= action < CHOICE0:
        state.farm_workers[p][action - CELL0] = True
        state.hut[p] -= 1
        state.touched |= WORKERS[p]
        return
    zone_bits, pair = _PLACE_TARGET[action]
    # G-05: the zone's lowest free space that is not blocked (the action is legal: there is one)
    free = zone_bits & ~(state.occupied | _BLOCKED_BITS[state.num_players])
    space = (free & -free).bit_length() - 1
    state.space_owner[space] = p
    state.space_pair[space] = pair
    state.space_seq[space] = state.place_counter
    state.occupied |= 1 << space
    state.place_counter += 1
    state.hut[p] -= 2 if pair else 1
    state.touched |= WORKERS[p] if action == _PLACE_LOWER_ROAD else HUT[p]
    state.touched_spaces.append(space)


def _resolve_upkeep(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        pay_upkeep(state, p)
        state.qpos += 1
    else:  # release one worker from the hut to the supply
        state.owned[p] -= 1
        state.hut[p] -= 1
        state.touched |= WORKERS[p]


def _resolve_pair(state: MiTierraState, p: int, action: int) -> None:
    k = action - CHOICE0
    if state.stage == Stage.FOREST:
        state.pending_tile = C.BARN_TILE[C.FOREST_PAIR_CHOICES[k]]
    else:
        state.pending_tile = C.CROP_TILE[C.CROPS_PAIR_CHOICES[k]]
    state.sub = SUB_TILE
    pose(state, Decision.TILE, p)


def _resolve_reroll(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        state.sub = SUB_OUTCOME
    else:  # MIT-57: roll again, the new face is final
        state.studies_used[p] = True
        state.rerolling = True
        state.sub = SUB_ROLL
        state.touched |= WORKERS[p]


def _resolve_tile(state: MiTierraState, p: int, action: int) -> None:
    if action != PASS:
        put_tile(state, p, action - CELL0, state.pending_tile)
    finish_worker(state)


def _resolve_apf(state: MiTierraState, p: int, action: int) -> None:
    if action == CHOICE0:
        products = apf_products(state, p)
        pay(state, p, C.APF_COST)
        for good in products:  # MIT-44: the animals stay
            state.goods[p][good] += 1
        state.touched |= HOLDINGS[p]


def _resolve_clock(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        return
    card = state.reorder_left.pop(action - CHOICE0)
    state.reorder_done.append(card)
    if len(state.reorder_left) >= 2:
        pose(state, Decision.CLOCK_ORDER, p)


def _resolve_bakery(state: MiTierraState, p: int, action: int) -> None:
    if action == CHOICE0:  # MIT-47
        pay(state, p, C.BAKERY_COST)
        for g, n in C.BAKERY_INPUTS:
            state.goods[p][g] -= n
        state.cake[p] += 1
        state.touched |= HOLDINGS[p]


def _resolve_development(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        return
    slot = action - CHOICE0
    pay(state, p, state.dev_cost)
    state.devs[p][state.display[slot]] = True
    state.display[slot] = -1
    state.touched |= MARKET | FARM[p]


def _resolve_flour_wine(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        return
    k = action - CHOICE0
    pay(state, p, C.FLOUR_WINE_COST)
    goods = state.goods[p]
    if k in (0, 2):
        goods[C.FLOUR_RECIPE[0]] -= C.FLOUR_RECIPE[1]
        goods[C.FLOUR] += 1
    if k in (1, 2):
        goods[C.WINE_RECIPE[0]] -= C.WINE_RECIPE[1]
        goods[C.WINE] += 1
    state.touched |= HOLDINGS[p]


def _resolve_cloth(state: MiTierraState, p: int, action: int) -> None:
    if action == CHOICE0:  # MIT-55
        pay(state, p, C.CLOTH_COST)
        for g, n in C.CLOTH_INPUTS:
            state.goods[p][g] -= n
        state.cloth[p] += 1
        state.touched |= HOLDINGS[p]


def _resolve_mill(state: MiTierraState, p: int, action: int) -> None:
    if action != PASS:
        wheat, flour = C.MILL_OPTIONS[action - CHOICE0]
        state.goods[p][C.WHEAT] -= wheat
        state.goods[p][C.FLOUR] += flour
        state.touched |= HOLDINGS[p]


def _resolve_cellar(state: MiTierraState, p: int, action: int) -> None:
    if action != PASS:
        grapes, wine = C.WINE_CELLAR_OPTION
        state.goods[p][C.GRAPE] -= grapes
        state.goods[p][C.WINE] += wine
        state.touched |= HOLDINGS[p]


def _resolve_market_turn(state: MiTierraState, p: int, action: int) -> None:
    space = EM_FIRST + state.qpos
    if action in (PASS, MOVE_TO_BLACK_MARKET):
        state.space_owner[space] = -1
        state.space_seq[space] = -1
        state.occupied &= ~(1 << space)
        if action == PASS:  # MIT-82: home, no more market turns this round
            state.hut[p] += 1
            state.touched |= HUT[p]
        else:  # MIT-88
            state.bm_workers.append(p)
            state.touched |= BLACK_MARKET
        state.touched_spaces.append(space)
        state.qpos += 1
        return
    state.sale_slot = action - EST_SLOT0 if action < CLOSE_SLOT0 else 4 + action - CLOSE_SLOT0
    card = CARDS[sale_card(state)]
    if card.kind == "pack":  # G-51: the one bundle is sold at once
        complete_sale(state, p, list(card.contents))
        state.qpos += 1
        return
    state.sale_units = [0] * C.NUM_GOODS
    pose(state, Decision.MARKET_SALE, p)


def _resolve_market_sale(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        units = state.sale_units
        state.sale_units = [0] * C.NUM_GOODS
        complete_sale(state, p, units)
        state.qpos += 1
        return
    state.sale_units[action - SELL0] += 1
    pose(state, Decision.MARKET_SALE, p)


def _resolve_black_market(state: MiTierraState, p: int, action: int) -> None:
    if action == PASS:
        state.bm_workers.pop(0)
        state.hut[p] += 1
        state.bm_buys = 0
        state.touched |= HUT[p] | BLACK_MARKET
        return
    infl = inflation(state)
    if action < SELL0 + C.NUM_GOODS:
        good = action - SELL0
        change_good(state, p, good, -1)
        gain(state, p, C.bm_price(good, False, infl))
    else:
        good = BUY_ACTION_GOOD[action]
        pay(state, p, C.bm_price(good, True, infl))
        change_good(state, p, good, 1)
        state.bm_buys += 1
    pose(state, Decision.BLACK_MARKET, p)


_RESOLVERS = {
    Decision.PLACE: _resolve_place,
    Decision.UPKEEP: _resolve_upkeep,
    Decision.FOREST_PAIR: _resolve_pair,
    Decision.CROPS_PAIR: _resolve_pair,
    Decision.REROLL: _resolve_reroll,
    Decision.TILE: _resolve_tile,
    Decision.ANIMAL_PRODUCTS: _resolve_apf,
    Decision.CLOCK_ORDER: _resolve_clock,
    Decision.BAKERY: _resolve_bakery,
    Decision.DEVELOPMENT: _resolve_development,
    Decision.FLOUR_WINE: _resolve_flour_wine,
    Decision.CLOTH: _resolve_cloth,
    Decision.MILL: _resolve_mill,
    Decision.WINE_CELLAR: _resolve_cellar,
    Decision.MARKET_TURN: _resolve_market_turn,
    Decision.MARKET_SALE: _resolve_market_sale,
    Decision.BLACK_MARKET: _resolve_black_market,
}
# per decision (an int), the function carrying an action out: (state, player, action) -> None
RESOLVER_BY_DECISION = [_RESOLVERS.get(d) for d in Decision]
