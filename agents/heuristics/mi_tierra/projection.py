"""The rest of a Mi Tierra round, projected: a player's holdings once its workers still on the
board have acted in the rules' order with expected dice (Forest, Sheep, Square, Crops, Cow,
Henhouse, the factories, Developments, the farm, the markets)."""

from __future__ import annotations

import numpy as np

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    CELL0,
    CHOICE0,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    Decision,
    Stage,
)
from huerta.envs.mi_tierra.farm import group_size
from huerta.envs.mi_tierra.market import sale_card
from huerta.envs.mi_tierra.state import MiTierraState

from .fields import barn_cell, best_field, farm_income
from .holdings import (
    FARM_SHARE,
    Holdings,
    Worths,
    card_value,
    goods_part,
    holdings_goods_value,
    rounds_left,
)

_ROLLING = {Stage.FOREST, Stage.SHEEP, Stage.CROPS, Stage.COW, Stage.HENHOUSE}


def _step(count: float, need: int) -> float:
    """The chance that an expected `count` (whole units plus an expected fraction) reaches
    `need`: 0 a unit short, 1 at `need`."""
    return min(max(count - need + 1.0, 0.0), 1.0)


def _projected_barn_tile(h: Holdings) -> None:
    """A Forest roll: capacity 2 or 3, expected as a 2.5 barnyard on an empty cell."""
    if C.EMPTY not in h.tiles:
        return
    h.tiles = barn_cell(h.tiles, C.T_BARN3)
    h.barns.append([2.5, C.NO_KIND, 0.0])


def _projected_crop_tile(h: Holdings, w: Worths) -> None:
    """A Crops roll: one of three crops; the farm's value is averaged over them."""
    if C.EMPTY not in h.tiles:
        return
    cap = h.harvest_cap()
    before = farm_income(h.tiles, cap, w.keep)
    options = [best_field(h.tiles, crop, cap) for crop in C.CROPS]
    gains = [farm_income(t, cap, w.keep) - before for t in options]
    # the farm keeps the best option; the value is corrected to the average of the three
    best = int(np.argmax(gains))
    h.tiles = options[best]
    h.adjust -= (gains[best] - sum(gains) / 3) * w.capital * FARM_SHARE


def _apf(h: Holdings, w: Worths) -> None:
    """Animal Products Factory: $5 for every product whose animals suffice (smoothly)."""
    if h.money < C.APF_COST:
        return
    made = []
    for product, animal, need in C.APF_PRODUCTS:
        q = _step(h.goods[animal], need)
        if q > 0:
            made.append((product, q))
    if sum(q * w.product.get(g, w.keep[g]) for g, q in made) <= C.APF_COST:
        return
    h.money -= C.APF_COST
    for g, q in made:
        h.goods[g] += q


def _bake(h: Holdings) -> None:
    """Bakery: a cake from 1 milk, 2 eggs and $8 (the share of a kit that is expected)."""
    q = min(_step(h.goods[C.MILK], 1), _step(h.goods[C.EGG], 2))
    if q > 0 and h.money >= C.BAKERY_COST:
        h.money -= C.BAKERY_COST * q
        h.goods[C.MILK] -= q
        h.goods[C.EGG] -= 2 * q
        h.cake += q


def _weave(h: Holdings) -> None:
    """Cloth Factory: a cloth from 3 wool and $7."""
    q = _step(h.goods[C.WOOL], 3)
    if q > 0 and h.money >= C.CLOTH_COST:
        h.money -= C.CLOTH_COST * q
        h.goods[C.WOOL] -= 3 * q
        h.cloth += q


def _flour_wine(h: Holdings, w: Worths) -> None:
    """Flour and Wine Factory: flour from 3 wheat, wine from 3 grapes, one $5, if it pays."""
    if h.money < C.FLOUR_WINE_COST:
        return
    gain = 0.0
    qf = _step(h.goods[C.WHEAT], 3)
    qw = _step(h.goods[C.GRAPE], 3)
    gain += qf * (w.keep[C.FLOUR] - 3 * w.keep[C.WHEAT])
    gain += qw * (w.keep[C.WINE] - 3 * w.keep[C.GRAPE])
    if gain <= C.FLOUR_WINE_COST:
        return
    h.money -= C.FLOUR_WINE_COST
    h.goods[C.WHEAT] -= 3 * qf
    h.goods[C.FLOUR] += qf
    h.goods[C.GRAPE] -= 3 * qw
    h.goods[C.WINE] += qw


def _development(h: Holdings, state: MiTierraState, space: int, w: Worths,
                 taken: set[int]) -> None:
    """The best touched card if it is worth its price (cards taken earlier are gone)."""
    spot = space - C.ZONE_FIRST_SPACE[C.Z_DEV]
    slots = [s for s in C.DEV_SPOT_TOUCHES[spot] if state.display[s] >= 0 and s not in taken]
    cost = C.DEV_COST_PER_CARD * len(slots)
    if not slots or h.money < cost:
        return
    best, best_gain = -1, 0.0
    for s in slots:
        card = state.display[s]
        gain = card_value(card, h, w) - cost
        if gain > best_gain:
            best, best_gain = s, gain
    if best >= 0:
        taken.add(best)
        h.money -= cost
        h.devs[state.display[best]] = True


def _farm_step(h: Holdings, state: MiTierraState, progress: int, cells: list[bool]) -> None:
    """Step 13 from `progress` on (0 harvest of the workers on `cells`, product and breeding
    cards; 1 Mill; 2 Wine Cellar; then the Bank)."""
    goods = h.goods
    devs = h.devs
    if progress <= 0:
        cap = h.harvest_cap()
        tiles = h.tiles
        for c in range(C.FARM_CELLS):
            if cells[c] and C.T_APPLE <= tiles[c] <= C.T_GRAPE:
                goods[C.TILE_CROP[tiles[c]]] += _harvest(tiles, c, cap, state, devs)
        products = []
        if devs[C.SHEARER]:
            need = 2 if devs[C.SHEARER_MACHINE] else 3
            products.append((C.WOOL, _step(goods[C.SHEEP], need)))
        if devs[C.MILK_FACTORY]:
            products.append((C.MILK, _step(goods[C.COW], 2)))
        if devs[C.HEN_BARNYARD]:
            need = 3 if devs[C.EGGS_HENS] else 4
            products.append((C.EGG, _step(goods[C.HEN], need)))
        births = []
        for card, animal, need in ((C.SHEEP_BREEDING, C.SHEEP, 3), (C.COW_BREEDING, C.COW, 2),
                                   (C.CHICKEN_BREEDING, C.HEN, 4)):
            if devs[card]:
                births.append((animal, _step(goods[animal], need)))
        for g, q in products:
            goods[g] += q
        for animal, q in births:
            if q > 0:
                h.add_animals(animal, q)
    if progress <= 1 and devs[C.MILL] and goods[C.WHEAT] >= 2:
        if goods[C.WHEAT] >= 5:
            goods[C.WHEAT] -= 5
            goods[C.FLOUR] += 2
        else:
            goods[C.WHEAT] -= 2
            goods[C.FLOUR] += 1
    if progress <= 2:
        if devs[C.WINE_CELLAR] and goods[C.GRAPE] >= 1:
            goods[C.GRAPE] -= 1
            goods[C.WINE] += 1
        if devs[C.BANK]:
            h.money += C.DEV_CARDS[C.BANK].money


def _harvest(tiles: tuple[int, ...], cell: int, cap: int, state: MiTierraState,
             devs: list[bool]) -> float:
    """What a worker on `cell` harvests (Fruit Fly and Insurance included)."""
    crop = C.TILE_CROP[tiles[cell]]
    if (state.event_in_force() == C.FRUIT_FLY and crop in C.FRUIT_FLY_CROPS
            and not devs[C.INSURANCE]):
        return 0.0
    return float(min(cap, group_size(tiles, cell)))


def _sale_units(h: Holdings, g: int, price: float, limit: float, w: Worths) -> tuple[float,
                                                                                  float]:
    """How many units of `g` (at most `limit`) are worth selling at `price` each, one by one,
    and what the sale gains over keeping them."""
    goods = h.goods
    held = goods[g]
    units, gain = 0.0, 0.0
    before = goods_part(h, g, w)
    while units < limit and goods[g] >= 1.0 - 1e-9:
        goods[g] -= 1.0
        after = goods_part(h, g, w)
        margin = price - (before - after)
        if margin <= 0:
            break
        units += 1.0
        gain += margin
        before = after
    goods[g] = held
    return units, gain


def _best_sale(h: Holdings, cards: list[int], w: Worths, inflation: bool) -> tuple[int, float,
                                                                                   list[float]]:
    """The market among `cards` whose sale gains most over keeping the goods: (index, gain,
    units sold per good)."""
    goods = h.goods
    best, best_gain, best_units = -1, 0.0, []
    for k, card_id in enumerate(cards):
        card = C.MARKET_CARDS[card_id]
        units = [0.0] * C.NUM_GOODS
        if card.kind == "simple":
            price = C.card_unit_price(card, card.good, inflation)
            units[card.good], gain = _sale_units(h, card.good, price, card.limit, w)
        elif card.kind == "pack":
            if any(goods[g] + 1e-9 < n for g, n in enumerate(card.contents)):
                continue
            units = [float(n) for n in card.contents]
            before = holdings_goods_value(h, w)
            for g, n in enumerate(card.contents):
                goods[g] -= n
            gain = C.pack_payout(card, inflation) - (before - holdings_goods_value(h, w))
            for g, n in enumerate(card.contents):
                goods[g] += n
        else:
            gain = 0.0
            for g in range(C.NUM_GOODS):
                if goods[g] >= 1:
                    price = C.card_unit_price(card, g, inflation)
                    units[g], more = _sale_units(h, g, price, 99.0, w)
                    gain += more
        if gain > best_gain:
            best, best_gain, best_units = k, gain, units
    return best, best_gain, best_units


def _markets(h: Holdings, state: MiTierraState, workers: int, w: Worths,
             exclude: int = -1) -> None:
    """Projected Established-market sales of `workers` workers (the best market first, a few
    each, the others' workers take the rest), then what the Black Market pays more for than
    the goods are worth (a surplus beyond what the markets take; in the last round, all)."""
    if workers <= 0:
        return
    inflation = state.event_in_force() == C.INFLATION
    cards = [c for c in list(state.est) + list(state.closing) if c >= 0 and c != exclude]
    for _ in range(min(2 * workers + 1, len(cards))):
        k, _gain, units = _best_sale(h, cards, w, inflation)
        if k < 0:
            break
        card = C.MARKET_CARDS[cards[k]]
        if card.kind == "pack":
            h.money += C.pack_payout(card, inflation)
        else:
            h.money += sum(C.card_unit_price(card, g, inflation) * n for g, n in enumerate(units))
        for g, n in enumerate(units):
            h.goods[g] -= n
        cards.pop(k)
    _black_market(h, state, w)


def _black_market(h: Holdings, state: MiTierraState, w: Worths) -> None:
    """A Black Market visit: every unit that the chart pays more for than it is worth."""
    inflation = state.event_in_force() == C.INFLATION
    for g in range(C.NUM_GOODS):
        if h.goods[g] >= 1:
            price = C.bm_price(g, False, inflation)
            units, _ = _sale_units(h, g, price, 99.0, w)
            h.money += price * units
            h.goods[g] -= units


def my_workers(state: MiTierraState, p: int) -> tuple[dict[int, list[tuple[int, bool]]],
                                                       list[bool]]:
    """Player `p`'s workers still to act: board spaces by zone as (space, pair), farm cells."""
    by_zone: dict[int, list[tuple[int, bool]]] = {}
    owner = state.space_owner
    for i in range(C.NUM_SPACES):
        if owner[i] == p:
            by_zone.setdefault(C.SPACE_ZONE[i], []).append((i, state.space_pair[i]))
    return by_zone, list(state.farm_workers[p])


def with_placement(workers: tuple[dict[int, list[tuple[int, bool]]], list[bool]],
                   action: int) -> tuple[dict[int, list[tuple[int, bool]]], list[bool]]:
    """`workers` plus the worker (or pair) that PLACE `action` would put down (new lists)."""
    by_zone, farm_cells = workers
    by_zone = dict(by_zone)
    if action in PLACE_ACTION_ZONE:
        zone, entry = PLACE_ACTION_ZONE[action], (-1, False)
    elif action in (PLACE_PAIR_FOREST, PLACE_PAIR_CROPS):
        zone = C.Z_FOREST if action == PLACE_PAIR_FOREST else C.Z_CROPS
        entry = (-1, True)
    elif PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        zone, entry = C.Z_DEV, (C.ZONE_FIRST_SPACE[C.Z_DEV] + action - PLACE_DEV0, False)
    else:
        if CELL0 <= action < CHOICE0:
            farm_cells = list(farm_cells)
            farm_cells[action - CELL0] = True
        return by_zone, farm_cells
    by_zone[zone] = [*by_zone.get(zone, ()), entry]
    return by_zone, farm_cells


def project(state: MiTierraState, p: int, extra: int = -1, w: Worths | None = None,
            workers: tuple[dict[int, list[tuple[int, bool]]], list[bool]] | None = None,
            ) -> tuple[Holdings, Worths]:
    """Player `p`'s holdings once its workers still on the board (`workers`, by default read
    from the state; for a placement being considered, plus the PLACE action `extra`) have
    acted this round, with expected dice; `w` (by default from `rounds_left`) prices the
    goods."""
    if w is None:
        w = Worths(rounds_left(state))
    if workers is None:
        workers = my_workers(state, p)
    if extra >= 0:
        workers = with_placement(workers, extra)
    by_zone, farm_cells = workers
    h = Holdings(state, p)
    stage = state.stage
    current = state.queue[state.qpos] if (
        Stage.FOREST <= stage <= Stage.CLOTH and state.qpos < len(state.queue)) else -1
    pending_face = 0
    if stage in _ROLLING and current >= 0 and state.space_owner[current] == p:
        pending_face = state.die_face if state.sub != 0 else 0
    # steps 1-12
    for space, pair in by_zone.get(C.Z_FOREST, ()):
        if space == current and state.decision == Decision.TILE:
            h.add_tile(state.pending_tile)
        elif space == current and pending_face:
            h.add_tile(C.BARN_TILE[C.FOREST_CAPACITY[pending_face - 1]])
        elif pair:
            h.add_tile(C.T_BARN3)
        else:
            _projected_barn_tile(h)
    for space, _ in by_zone.get(C.Z_SHEEP, ()):
        h.roll_animals(C.SHEEP, C.SHEEP_ROLL, pending_face if space == current else 0)
    for _ in by_zone.get(C.Z_SQUARE, ()):
        h.owned += 1
    for space, pair in by_zone.get(C.Z_CROPS, ()):
        if space == current and state.decision == Decision.TILE:
            h.add_tile(state.pending_tile)
        elif space == current and pending_face:
            h.add_tile(C.CROP_TILE[C.CROP_ROLL[pending_face - 1]])
        elif pair or (state.decision == Decision.CROPS_PAIR and space == current):
            cap = h.harvest_cap()
            if C.EMPTY in h.tiles:
                options = [best_field(h.tiles, crop, cap) for crop in C.CROPS]
                h.tiles = max(options, key=lambda t: farm_income(t, cap, w.keep))
        else:
            _projected_crop_tile(h, w)
    for space, _ in by_zone.get(C.Z_COW, ()):
        h.roll_animals(C.COW, C.COW_ROLL, pending_face if space == current else 0)
    for space, _ in by_zone.get(C.Z_HENHOUSE, ()):
        h.roll_animals(C.HEN, C.HEN_ROLL, pending_face if space == current else 0)
    for _ in by_zone.get(C.Z_APF, ()):
        _apf(h, w)
    for _ in by_zone.get(C.Z_BAKERY, ()):
        _bake(h)
    if C.Z_DEV in by_zone:
        taken: set[int] = set()
        for space, _ in sorted(by_zone[C.Z_DEV]):
            _development(h, state, space, w, taken)
    for _ in by_zone.get(C.Z_FLOUR_WINE, ()):
        _flour_wine(h, w)
    for _ in by_zone.get(C.Z_CLOTH, ()):
        _weave(h)
    # step 13
    progress = _farm_progress(state, p)
    if progress < 3:
        _farm_step(h, state, progress, farm_cells)
    # steps 14-15
    if state.decision == Decision.MARKET_SALE and state.current_player == p:
        card = sale_card(state)
        units = state.sale_units
        inflation = state.event_in_force() == C.INFLATION
        h.money += sum(C.card_unit_price(C.MARKET_CARDS[card], g, inflation) * n
                       for g, n in enumerate(units) if n)
        for g, n in enumerate(units):
            h.goods[g] -= n
        _markets(h, state, len(by_zone.get(C.Z_EST_MARKET, ())), w, exclude=card)
    else:
        _markets(h, state, len(by_zone.get(C.Z_EST_MARKET, ())), w)
    if p in state.bm_workers:
        _black_market(h, state, w)
    if by_zone.get(C.Z_LOWER_ROAD) and w.rounds >= 1:
        h.money += 0.5  # first in the next round's turn order
    return h, w


def _farm_progress(state: MiTierraState, p: int) -> int:
    """How far step 13 has gone for `p`: 0 nothing yet, 1 harvested, 2 Mill done, 3 all done."""
    stage = state.stage
    if stage < Stage.FARMS:
        return 0
    if stage > Stage.FARMS:
        return 3
    idx = state.queue.index(p)
    if idx < state.qpos:
        return 3
    if idx > state.qpos:
        return 0
    return state.farm_step
