"""The round as a state machine: what the engine does by itself between two decisions.

`rules.advance` runs the current stage (phase 1, 2 or 3, or one of the sixteen activation steps,
`RUNNERS` here) until a player must choose, the game ends, or (in explicit-chance mode) a die
must be rolled. A decision with exactly one legal action is carried out at once (G-71), so the
acting agent always has a real choice. Every stage keeps its progress in the state (`queue`,
`qpos`, `sub`), so a clone or a JSON round trip resumes exactly where the original would.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .actions import STAGE_ZONE, Decision, Stage
from .farm import add_animals, harvest_amount
from .groups import EVERY_SEAT_HOLDINGS, EVERY_SEAT_WORKERS, HOLDINGS, HUT, MARKET, WORKERS
from .ledger import gain, pay
from .market import fill_slot, finish_reorder, peek

if TYPE_CHECKING:
    from .state import MiTierraState

# Sub-steps of one worker in a rolling zone (Forest, Sheep, Crops, Cow, Henhouse).
SUB_ROLL = 0  # a die must be rolled (or a pair must choose)
SUB_REROLL = 1  # Studies may roll again
SUB_OUTCOME = 2  # the result is applied
SUB_TILE = 3  # the new tile waits for its cell

ROLL_TABLES = {
    Stage.FOREST: C.FOREST_CAPACITY, Stage.SHEEP: C.SHEEP_ROLL, Stage.CROPS: C.CROP_ROLL,
    Stage.COW: C.COW_ROLL, Stage.HENHOUSE: C.HEN_ROLL,
}
ANIMAL_STAGES = {Stage.SHEEP: C.SHEEP, Stage.COW: C.COW, Stage.HENHOUSE: C.HEN}

# Steps of one player's farm activation (step 13, G-42).
FARM_PRODUCE = 0  # harvest, product cards, breeding cards (automatic)
FARM_MILL = 1
FARM_CELLAR = 2  # then the Bank, and the next player


def pose(state: MiTierraState, decision: int, player: int) -> None:
    """Ask `player` to take `decision`."""
    state.decision = decision
    state.current_player = player


def enter_stage(state: MiTierraState, stage: int) -> None:
    """Start `stage`: build its queue of workers (activation order) or players. A zone stage
    without workers is passed over at once (running it would only enter the next stage)."""
    stage = int(stage)
    state.qpos = 0
    state.sub = 0
    if _STAGE_SPACES[stage] is not None:
        # the zone stages run in the board's space order: the first worker on a space of this
        # zone or a later one names the stage to enter (none: the farms come next)
        rest = state.occupied & _FROM_STAGE_BITS[stage]
        if not rest:
            state.stage = _FARMS
            state.queue = list(state.order)
            return
        stage = _SPACE_STAGE[(rest & -rest).bit_length() - 1]
        state.stage = stage
        spaces = _STAGE_SPACES[stage]
        bits = rest & _STAGE_BITS[stage]
        if not bits & (bits - 1):  # one worker
            state.queue = [bits.bit_length() - 1]
            return
        owner = state.space_owner
        queue = [i for i in spaces if owner[i] >= 0]
        if len(queue) > 1:
            if stage == _DEVELOPMENTS:  # MIT-48: turn order, then placement order
                position = {p: k for k, p in enumerate(state.order)}
                seq = state.space_seq
                queue.sort(key=lambda i: (position[owner[i]], seq[i]))
            else:  # MIT-29: the earlier-placed worker first
                queue.sort(key=state.space_seq.__getitem__)
        state.queue = queue
        return
    state.stage = stage
    if stage in (_UPKEEP, _FARMS):
        state.queue = list(state.order)
    else:
        state.queue = []


def finish_worker(state: MiTierraState) -> None:
    """MIT-28: the active worker (or pair) goes back to its owner's hut; next in the queue."""
    space = state.queue[state.qpos]
    owner = state.space_owner[space]
    pair = state.space_pair[space]
    state.hut[owner] += 2 if pair else 1
    state.space_owner[space] = -1
    state.space_pair[space] = False
    state.space_seq[space] = -1
    state.occupied &= ~(1 << space)
    state.qpos += 1
    state.sub = 0
    state.die_face = 0
    state.pending_tile = -1
    state.rerolling = False
    state.touched |= HUT[owner]
    state.touched_spaces.append(space)


# --- phase 1: turn order --------------------------------------------------------------------------
# (MIT-09, MIT-10, MIT-11, MIT-12, MIT-13, MIT-93)

def turn_order(state: MiTierraState) -> list[int]:
    """Lower-road players first in their current relative order (G-07), then the others by money
    (least first), ties to the most recent money change (MIT-10, MIT-11, G-08)."""
    lower = set(lower_road_players(state))
    first = [p for p in state.order if p in lower]
    rest = [p for p in range(state.num_players) if p not in lower]
    rest.sort(key=lambda p: (state.money[p], -state.stamp[p]))
    return first + rest


def lower_road_players(state: MiTierraState) -> list[int]:
    """The players with a worker on the lower road, by space."""
    first = C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD]
    return [state.space_owner[i] for i in range(first, first + C.ZONES[C.Z_LOWER_ROAD].spaces)
            if state.space_owner[i] >= 0]


def _run_turn_order(state: MiTierraState) -> None:
    state.order = turn_order(state)
    first = C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD]
    for i in range(first, first + C.ZONES[C.Z_LOWER_ROAD].spaces):  # MIT-13: back home
        owner = state.space_owner[i]
        if owner >= 0:
            state.hut[owner] += 1
            state.space_owner[i] = -1
            state.space_seq[i] = -1
            state.occupied &= ~(1 << i)
            state.touched_spaces.append(i)
    n = state.num_players
    state.studies_used = [False] * n
    state.retired = [False] * n
    state.touched |= EVERY_SEAT_WORKERS  # turn order, huts, flags
    enter_stage(state, _UPKEEP)


# --- phase 2: maintenance -------------------------------------------------------------------------
# (MIT-14, MIT-15, MIT-16, MIT-17, MIT-18, MIT-19, G-28, G-39)

def upkeep_due(state: MiTierraState, player: int) -> int:
    """MIT-14: $2 per owned worker beyond 3."""
    return max(0, state.owned[player] - C.FREE_WORKERS) * C.UPKEEP_PER_EXTRA


def _run_upkeep(state: MiTierraState) -> None:
    queue = state.queue
    owned = state.owned
    while state.qpos < len(queue):
        p = queue[state.qpos]
        if owned[p] > C.FREE_WORKERS:
            pose(state, _D_UPKEEP, p)
            return
        state.qpos += 1
    enter_stage(state, _MARKET_MAINTENANCE)


def _run_market_maintenance(state: MiTierraState) -> None:
    state.touched |= MARKET
    for m, card in enumerate(state.closing):  # MIT-17
        if card >= 0:
            state.discard.append(card)
            state.closing[m] = -1
    k = 0
    for m, card in enumerate(state.est):  # MIT-18, G-48
        if card >= 0 and C.MARKET_CARDS[card].outgoing:
            state.closing[k] = card
            k += 1
            state.est[m] = -1
    for m in range(len(state.est)):  # MIT-19, G-54
        if state.est[m] < 0:
            fill_slot(state, m)
    for slot in range(len(state.display)):  # G-39
        if state.display[slot] < 0 and state.dev_deck:
            state.display[slot] = state.dev_deck.pop()
    enter_stage(state, _PLACEMENT)
    state.place_pos = 0


# --- phase 3: placement ---------------------------------------------------------------------------
# (MIT-20, MIT-21, MIT-22, MIT-23, MIT-24, MIT-25, G-29)

def _run_placement(state: MiTierraState) -> None:
    n = state.num_players
    order = state.order
    hut = state.hut
    retired = state.retired
    start = state.place_pos
    for k in range(n):
        idx = (start + k) % n
        p = order[idx]
        if hut[p] > 0 and not retired[p]:
            state.place_pos = idx
            state.decision = _D_PLACE  # (pose, inlined)
            state.current_player = p
            return
    enter_stage(state, _FOREST)


# --- phase 4: the production areas (steps 1-12) ------------------------------------------------

def studies_available(state: MiTierraState, player: int) -> bool:
    """MIT-72, G-15: one re-roll per round for the owner of Studies."""
    return state.devs[player][C.STUDIES] and not state.studies_used[player]


def after_roll(state: MiTierraState, face: int) -> None:
    """Record a rolled face; offer the Studies re-roll unless this was the re-roll (MIT-57)."""
    state.die_face = face
    owner = state.space_owner[state.queue[state.qpos]]
    if not state.rerolling and state.devs[owner][C.STUDIES] and not state.studies_used[owner]:
        state.sub = SUB_REROLL
        pose(state, _D_REROLL, owner)
    else:
        state.rerolling = False
        state.sub = SUB_OUTCOME


def roll_die(rng: np.random.Generator) -> int:
    """One fair die face, 1-6, from the game's generator (one uniform draw: several times
    cheaper than `rng.integers`, and as fair: the bias is below 1e-15)."""
    return int(rng.random() * C.DIE_FACES) + 1


def _roll(state: MiTierraState) -> None:
    if state.explicit_chance:
        state.chance_pending = True
        state.current_player = -1
        return
    after_roll(state, roll_die(state.rng))


def _run_rolling_zone(state: MiTierraState) -> None:
    stage = state.stage
    if state.qpos >= len(state.queue):
        enter_stage(state, stage + 1)
        return
    space = state.queue[state.qpos]
    owner = state.space_owner[space]
    sub = state.sub
    if sub == SUB_ROLL:
        if state.space_pair[space]:  # MIT-24, MIT-31, MIT-39: the pair chooses, no die
            state.sub = SUB_OUTCOME
            pose(state, _D_FOREST_PAIR if stage == _FOREST else _D_CROPS_PAIR, owner)
        elif state.explicit_chance:
            _roll(state)
        else:
            after_roll(state, roll_die(state.rng))
        return
    if sub == SUB_OUTCOME:
        result = ROLL_TABLES[stage][state.die_face - 1]
        if stage == _FOREST:  # MIT-30
            state.pending_tile = C.BARN_TILE[result]
        elif stage == _CROPS:  # MIT-38
            state.pending_tile = C.CROP_TILE[result]
        else:  # MIT-33, MIT-41, MIT-42
            add_animals(state, owner, ANIMAL_STAGES[stage], result)
            finish_worker(state)
            return
        state.sub = SUB_TILE
        pose(state, _D_TILE, owner)
        return
    raise AssertionError(f"stage {Stage(stage).name}: unexpected sub-step {sub}")


def _run_square(state: MiTierraState) -> None:
    if state.qpos >= len(state.queue):
        enter_stage(state, _CROPS)
        return
    owner = state.space_owner[state.queue[state.qpos]]
    state.owned[owner] += 1  # MIT-36: the new worker arrives in the hut
    state.hut[owner] += 1
    state.touched |= WORKERS[owner]
    finish_worker(state)


def apf_products(state: MiTierraState, player: int) -> list[int]:
    """G-31: the products whose animals suffice (wool, milk, egg)."""
    goods = state.goods[player]
    return [product for product, animal, need in C.APF_PRODUCTS if goods[animal] >= need]


def _run_factory(state: MiTierraState) -> None:
    """Steps 7, 9, 11, 12: each worker may use the factory (the option check is in decisions)."""
    stage = state.stage
    if state.qpos >= len(state.queue):
        enter_stage(state, stage + 1)
        return
    owner = state.space_owner[state.queue[state.qpos]]
    if state.sub == 0:
        state.sub = 1
        pose(state, _FACTORY_DECISION[stage], owner)
    else:
        finish_worker(state)


_FACTORY_DECISION = {
    int(Stage.ANIMAL_PRODUCTS): int(Decision.ANIMAL_PRODUCTS),
    int(Stage.BAKERY): int(Decision.BAKERY),
    int(Stage.FLOUR_WINE): int(Decision.FLOUR_WINE),
    int(Stage.CLOTH): int(Decision.CLOTH),
}


def clock_tower_players(state: MiTierraState) -> set[int]:
    """The players with a worker in the Clock Tower this round (MIT-46 counts players)."""
    return {state.space_owner[i] for i in state.queue}


def _run_clock_tower(state: MiTierraState) -> None:
    if state.qpos >= len(state.queue):
        enter_stage(state, _BAKERY)
        return
    owner = state.space_owner[state.queue[state.qpos]]
    if state.sub == 0:
        peek(state, owner)  # MIT-45
        # MIT-46, G-35: a sole player reorders once (a second reorder could add nothing)
        if state.qpos == 0 and len(clock_tower_players(state)) == 1:
            state.reorder_left = list(state.known[owner])
            state.reorder_done = []
            state.sub = 1
            pose(state, _D_CLOCK_ORDER, owner)
            return
    elif state.reorder_left or state.reorder_done:
        finish_reorder(state, owner)
    finish_worker(state)


def dev_touched(state: MiTierraState, space: int) -> list[int]:
    """Display slots holding a card that the worker on development `space` touches."""
    spot = space - C.ZONE_FIRST_SPACE[C.Z_DEV]
    return [s for s in C.DEV_SPOT_TOUCHES[spot] if state.display[s] >= 0]


def _run_developments(state: MiTierraState) -> None:
    if state.qpos >= len(state.queue):
        enter_stage(state, _FLOUR_WINE)
        return
    space = state.queue[state.qpos]
    owner = state.space_owner[space]
    if state.sub == 0:
        touched = dev_touched(state, space)  # MIT-49, MIT-50, MIT-51: cost = touched cards present
        state.dev_cost = C.DEV_COST_PER_CARD * len(touched)
        state.sub = 1
        if touched:  # MIT-52: nothing to take, nothing happens
            pose(state, _D_DEVELOPMENT, owner)
            return
    state.dev_cost = 0
    finish_worker(state)


# --- step 13: personal farms ----------------------------------------------------------------------
# (MIT-58, MIT-59, MIT-60, MIT-61, MIT-62, MIT-63, MIT-64, MIT-65, MIT-66, MIT-67, MIT-68, MIT-69,
# MIT-70, MIT-71, MIT-72, MIT-73, MIT-74, MIT-75, MIT-76, MIT-77, G-41, G-42, G-43, G-44, G-45,
# G-46)

def _run_farms(state: MiTierraState) -> None:
    queue = state.queue
    while state.qpos < len(queue):
        p = queue[state.qpos]
        devs = state.devs[p]
        step = state.farm_step
        if step == FARM_PRODUCE:
            _produce(state, p)
            step = state.farm_step = FARM_MILL
            if devs[C.MILL] and state.goods[p][C.WHEAT] >= C.MILL_OPTIONS[0][0]:
                pose(state, _D_MILL, p)
                return
        if step == FARM_MILL:
            step = state.farm_step = FARM_CELLAR
            if devs[C.WINE_CELLAR] and state.goods[p][C.GRAPE] >= C.WINE_CELLAR_OPTION[0]:
                pose(state, _D_WINE_CELLAR, p)
                return
        if step != FARM_CELLAR:
            raise AssertionError(f"farm step {step}")
        if devs[C.BANK]:  # MIT-77
            gain(state, p, C.DEV_CARDS[C.BANK].money)
        state.farm_step = FARM_PRODUCE
        state.qpos += 1
    enter_stage(state, _EST_MARKET)


def _produce(state: MiTierraState, p: int) -> None:
    """Harvest every farm worker (they go home), then product cards, then breeding cards."""
    workers = state.farm_workers[p]
    goods = state.goods[p]
    changed = True in workers
    if changed:
        state.touched |= WORKERS[p]  # the hut and the farm's workers
        for c in range(C.FARM_CELLS):
            if workers[c]:
                goods[C.TILE_CROP[state.tiles[p][c]]] += harvest_amount(state, p, c)
                workers[c] = False
                state.hut[p] += 1
    devs = state.devs[p]
    products = []
    if devs[C.SHEARER]:  # MIT-63, MIT-74, G-44
        need = C.DEV_CARDS[C.SHEARER_MACHINE if devs[C.SHEARER_MACHINE] else C.SHEARER].need
        if goods[C.SHEEP] >= need:
            products.append(C.WOOL)
    if devs[C.MILK_FACTORY] and goods[C.COW] >= C.DEV_CARDS[C.MILK_FACTORY].need:  # MIT-64
        products.append(C.MILK)
    if devs[C.HEN_BARNYARD]:  # MIT-69, MIT-76
        need = C.DEV_CARDS[C.EGGS_HENS if devs[C.EGGS_HENS] else C.HEN_BARNYARD].need
        if goods[C.HEN] >= need:
            products.append(C.EGG)
    for good in products:
        goods[good] += 1
    if changed or products:
        state.touched |= HOLDINGS[p]
    births = [  # MIT-67, MIT-68, MIT-75, G-46: judged before any is added
        C.DEV_CARDS[card].animal for card in (C.SHEEP_BREEDING, C.COW_BREEDING,
                                              C.CHICKEN_BREEDING)
        if devs[card] and goods[C.DEV_CARDS[card].animal] >= C.DEV_CARDS[card].need
    ]
    for animal in births:
        add_animals(state, p, animal, 1)  # (which records what it changed)


# --- steps 14-16: markets and the lower road ------------------------------------------------------
# (MIT-78, MIT-79, MIT-80, MIT-81, MIT-82, MIT-83, MIT-84, MIT-85, MIT-86, MIT-87, MIT-88, MIT-89,
# MIT-90, MIT-91)

EM_FIRST = C.ZONE_FIRST_SPACE[C.Z_EST_MARKET]
EM_SPACES = C.ZONES[C.Z_EST_MARKET].spaces


def _run_est_market(state: MiTierraState) -> None:
    """MIT-78, MIT-81: the worker on the lowest-numbered space acts first; passes repeat until every
    worker has left (home after not selling, or to the Black Market)."""
    owners = state.space_owner
    active = [k for k in range(EM_SPACES) if owners[EM_FIRST + k] >= 0]
    if not active:
        enter_stage(state, _BLACK_MARKET)
        return
    later = [k for k in active if k >= state.qpos]
    state.qpos = later[0] if later else active[0]
    pose(state, _D_MARKET_TURN, owners[EM_FIRST + state.qpos])


def _run_black_market(state: MiTierraState) -> None:
    """MIT-89: after every Established-market worker has left; workers in order of arrival."""
    if not state.bm_workers:
        enter_stage(state, _LOWER_ROAD)
        return
    pose(state, _D_BLACK_MARKET, state.bm_workers[0])


def _run_lower_road(state: MiTierraState) -> None:
    """Step 16 acts at the next Phase 1; then the round ends (MIT-92, MIT-87, MIT-94, G-56)."""
    if state.end_triggered or state.pile_ran_out or state.round >= C.MAX_ROUNDS:
        state.stage = int(Stage.GAME_OVER)
        state.decision = int(Decision.NONE)
        state.terminal = state.is_terminal = True
        state.touched |= MARKET | EVERY_SEAT_HOLDINGS
        return
    state.round += 1
    state.touched |= MARKET  # the round is part of the public game facts
    enter_stage(state, _TURN_ORDER)


def pay_upkeep(state: MiTierraState, player: int) -> None:
    """MIT-14: pay $2 per worker beyond 3 (the caller checked it is affordable)."""
    pay(state, player, upkeep_due(state, player))


_STAGE_RUNNERS = {
    Stage.TURN_ORDER: _run_turn_order,
    Stage.UPKEEP: _run_upkeep,
    Stage.MARKET_MAINTENANCE: _run_market_maintenance,
    Stage.PLACEMENT: _run_placement,
    Stage.FOREST: _run_rolling_zone,
    Stage.SHEEP: _run_rolling_zone,
    Stage.SQUARE: _run_square,
    Stage.CROPS: _run_rolling_zone,
    Stage.COW: _run_rolling_zone,
    Stage.HENHOUSE: _run_rolling_zone,
    Stage.ANIMAL_PRODUCTS: _run_factory,
    Stage.CLOCK_TOWER: _run_clock_tower,
    Stage.BAKERY: _run_factory,
    Stage.DEVELOPMENTS: _run_developments,
    Stage.FLOUR_WINE: _run_factory,
    Stage.CLOTH: _run_factory,
    Stage.FARMS: _run_farms,
    Stage.EST_MARKET: _run_est_market,
    Stage.BLACK_MARKET: _run_black_market,
    Stage.LOWER_ROAD: _run_lower_road,
}
# the runner of each stage, by stage number (rules.advance calls them)
RUNNERS = [_STAGE_RUNNERS[stage] for stage in Stage if stage in _STAGE_RUNNERS]
assert len(RUNNERS) == int(Stage.GAME_OVER)

# Plain ints for the hot paths (IntEnum conversions and lookups are slow).
(_TURN_ORDER, _UPKEEP, _MARKET_MAINTENANCE, _PLACEMENT, _FOREST, _SHEEP, _SQUARE, _CROPS, _COW,
 _HENHOUSE, _ANIMAL_PRODUCTS, _CLOCK_TOWER, _BAKERY, _DEVELOPMENTS, _FLOUR_WINE, _CLOTH, _FARMS,
 _EST_MARKET, _BLACK_MARKET, _LOWER_ROAD, _GAME_OVER) = (int(st) for st in Stage)
_D_UPKEEP = int(Decision.UPKEEP)
_D_PLACE = int(Decision.PLACE)
_D_FOREST_PAIR = int(Decision.FOREST_PAIR)
_D_CROPS_PAIR = int(Decision.CROPS_PAIR)
_D_REROLL = int(Decision.REROLL)
_D_TILE = int(Decision.TILE)
_D_CLOCK_ORDER = int(Decision.CLOCK_ORDER)
_D_DEVELOPMENT = int(Decision.DEVELOPMENT)
_D_MILL = int(Decision.MILL)
_D_WINE_CELLAR = int(Decision.WINE_CELLAR)
_D_MARKET_TURN = int(Decision.MARKET_TURN)
_D_BLACK_MARKET = int(Decision.BLACK_MARKET)
# Per stage, the board spaces of its zone (None for the stages that are not zone activations).
_STAGE_SPACES: list = [None] * len(Stage)
for _stage, _zone in STAGE_ZONE.items():
    _first = C.ZONE_FIRST_SPACE[_zone]
    _STAGE_SPACES[_stage] = tuple(range(_first, _first + C.ZONES[_zone].spaces))
_STAGE_BITS = [sum(1 << i for i in spaces) if spaces else 0 for spaces in _STAGE_SPACES]
_ZONE_STAGES = [st for st in range(len(Stage)) if _STAGE_SPACES[st] is not None]
assert list(range(_FOREST, _CLOTH + 1)) == _ZONE_STAGES and _FARMS == _CLOTH + 1
assert all(_STAGE_SPACES[a][-1] < _STAGE_SPACES[b][0]  # zone stages follow the space order
           for a, b in pairwise(_ZONE_STAGES))
# per zone stage, the bits of its spaces and those of every later zone stage
_FROM_STAGE_BITS = [sum(_STAGE_BITS[st:_FARMS]) if _STAGE_SPACES[st] else 0
                    for st in range(len(Stage))]
_SPACE_STAGE = {i: st for st in _ZONE_STAGES for i in _STAGE_SPACES[st]}
ROLL_TABLES = {int(k): v for k, v in ROLL_TABLES.items()}
ANIMAL_STAGES = {int(k): v for k, v in ANIMAL_STAGES.items()}
