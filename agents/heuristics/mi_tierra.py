"""A Mi Tierra strategy a decent human would recognise, as a short lookahead on a position value.

The plan, in the words of a player at the table:

- **Build an animal engine toward cake and cloth.** Barnyards first (Forest), then cows and sheep
  into them, hens into the henhouse; once 2 cows, 4 hens or 3 sheep are in, the Animal Products
  Factory turns $5 into milk, eggs and wool every round, the Bakery turns 1 milk + 2 eggs + $8
  into a $49 cake and the Cloth Factory 3 wool + $7 into a $47 cloth. Goods that complete a cake
  or a cloth are worth far more than any market pays for them, so they are kept, not sold.
- **Work the fields that pay double.** A new field goes next to a field of the same crop (a
  worker on a connected pair harvests 2); farm workers go on the biggest groups.
- **Sell at the established markets when the price is good**: each good has a value to keep
  (about three quarters of a typical market price while rounds remain, falling to the 3-for-$1
  end exchange); a sale is made when the market pays more than that, the best market first, and
  in the last round whatever is left goes to the Black Market, which still beats the exchange.
- **Buy developments that compound**: a card is worth its income per round (a Bank $3, a Milk
  factory a milk when 2 cows are in...) times the rounds left, against the spot's price.
- **Keep money for upkeep and factories; hire early, never late.** A fourth or fifth worker earns
  more than its $2 upkeep while many rounds remain; the factories need cash at hand when they act.

How it decides. Every decision is judged on a copy of the game from `view.determinize(self.rng)`
(so hidden cards are resampled, never read) by `position_value`, the player's holdings after the
rest of the current round is *projected*: the player's workers still on the board act in the
rules' order with expected dice (Forest, Sheep, Square, Crops, Cow, Henhouse, the factories,
Developments, the farm, the markets), and the projected holdings are priced by
`holdings_value`:

- money, plus $49 per cake and $47 per cloth;
- each good at its value to keep (above), plus a bonus for complete and partly complete cake and
  cloth kits while a round remains to make them;
- production capital: the factory's products that the animals already qualify for, the incomes
  of the development cards owned, barnyard room, the harvest of the two best farm workers, and
  the net yield of workers beyond three — each per round, times the rounds left (estimated from
  the market pile: the game ends at the third permanent event, all of which lie in deck B).

A placement is the legal spot whose projected round adds most (a pair of workers must beat two
single workers); if none adds anything the player passes. Every other decision applies each
legal action to the copy and keeps the best value; a market turn is followed through its sale
and the whole line is kept as a plan, keyed by (player, view.steps) like Finca's, so MCTS
rollouts may call one agent for every seat. Single units — one more unit in a sale, one sale
or purchase at the Black Market — are judged directly by their margin over the good's marginal
value to keep (the difference `position_value` would see); a Studies re-roll by the average
value of the six faces against the face rolled; upkeep is paid while a worker beyond three
still earns more than its $2. A decision takes about a millisecond, rarely more than 20.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from huerta.envs.core.view import PlayerView
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import (
    BUY0,
    BUY_ACTION_GOOD,
    CELL0,
    CHOICE0,
    PASS,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    SELL0,
    Decision,
    Stage,
)
from huerta.envs.mi_tierra.market import sale_card
from huerta.envs.mi_tierra.rules import score
from huerta.envs.mi_tierra.state import MiTierraState

from ..base import TurnPlanner

# --- the numbers of the position value ------------------------------------------------------------

# A typical market price per unit (goods table order): what the Established markets usually pay.
PRICE = (4.5, 4.5, 4.5, 4.5, 7.5, 7.5, 6.5, 15.0, 15.0, 5.5, 6.5, 4.5)
SELL_SHARE = 0.75  # a good held is worth this share of its price (a worker and a market needed)
END_WORTH = 1.0 / C.EXCHANGE_RATE  # what a good left at the end is worth
CARDS_PER_ROUND = 1.4  # market cards drawn per player and round (refills plus sales)
CAPITAL_ROUNDS = 8  # production capital counts at most this many rounds ...
CAPITAL_SHARE = 0.7  # ... at this share (the end may come sooner; workers are needed)
WORKER_NET = 2.0  # what a worker beyond three earns per round after its $2 upkeep
WORKER_USE = 1.0  # what a fourth or fifth worker is sure to earn in the last round
FARM_OPPORTUNITY = 3.5  # a farm worker must beat what the worker would earn elsewhere
FARM_SHARE = 0.6  # share of the rounds in which the two best fields are worked
APF_SHARE = 0.6  # share of the rounds in which the factory is used once the animals qualify
PAIR_MARGIN = 1.0  # a pair must beat two single workers by this much
LIQUID_BASE = 4.0  # units of one good the markets can take, plus ...
LIQUID_PER_ROUND = 0.5  # ... this many per round left
KIT_CHANCE = (0.4, 0.6)  # a kit held becomes a cake or cloth: with 1 round left, with more
KIT_DECAY = 0.6  # each further cake or cloth kit is less likely to be used in time
CAKE_GAIN = C.CAKE_VALUE - C.BAKERY_COST  # a baked kit, net of the Bakery's price
CLOTH_GAIN = C.CLOTH_VALUE - C.CLOTH_COST

KIT_GOODS = (C.MILK, C.EGG, C.WOOL)
# development cards whose income depends on the animals, and the others
ANIMAL_CARDS = (C.SHEARER, C.MILK_FACTORY, C.SHEEP_BREEDING, C.COW_BREEDING, C.HEN_BARNYARD,
                C.POLICE, C.SHEARER_MACHINE, C.CHICKEN_BREEDING, C.EGGS_HENS)
OTHER_CARDS = tuple(c for c in range(C.NUM_DEV_CARDS) if c not in ANIMAL_CARDS)
_ROLLING = {Stage.FOREST, Stage.SHEEP, Stage.CROPS, Stage.COW, Stage.HENHOUSE}


# --- rounds left and what goods are worth --------------------------------------------------------

def rounds_left(state: MiTierraState) -> float:
    """Expected full rounds after the current one (0 in the last round).

    The game ends in the round that reveals the third permanent event, and all of them lie in
    deck B under deck A's remainder (G-47, G-55): the expected number of draws until then is the
    A cards left plus the expected position of the last of the k permanents still among the b B
    cards, k (b + 1) / (k + 1); about 1.4 cards a player are drawn per round.
    """
    if state.end_triggered or state.pile_ran_out or state.round >= C.MAX_ROUNDS:
        return 0.0
    pile = state.pile
    b = sum(1 for card in pile if C.IS_DECK_B[card])
    a = len(pile) - b
    k = max(C.PERMANENTS_TO_END - state.perms_seen, 1)
    draws = a + k * (b + 1) / (k + 1)
    if state.stage <= Stage.MARKET_MAINTENANCE:
        draws -= state.num_players  # this round's refill is still ahead
    estimate = max(draws, 0.0) / (CARDS_PER_ROUND * state.num_players)
    return float(min(estimate, C.MAX_ROUNDS - state.round))


class Worths:
    """What goods are worth to keep, `rounds` full rounds before the end.

    A unit is worth `SELL_SHARE` of its typical price while it can still be sold (falling to the
    end exchange as the rounds run out), but only the first `liquid` units of a good: beyond
    what the markets can take in the rounds left, a unit is worth the Black Market's price.
    """

    __slots__ = ("cake_p", "capital", "keep", "liquid", "low", "product", "rounds")

    def __init__(self, rounds: float) -> None:
        self.rounds = rounds
        share = rounds / (rounds + 1.0)
        self.low = [max(END_WORTH, 0.9 * C.BM_SELL[g]) if rounds >= 1 else END_WORTH
                    for g in range(C.NUM_GOODS)]
        self.keep = [max(END_WORTH + (SELL_SHARE * PRICE[g] - END_WORTH) * share, self.low[g])
                     for g in range(C.NUM_GOODS)]
        self.liquid = LIQUID_BASE + LIQUID_PER_ROUND * rounds
        # chance of turning a kit into cake or cloth in a later round (Bakery / Cloth Factory)
        self.cake_p = 0.0 if rounds < 1 else KIT_CHANCE[rounds >= 2]
        # the per-round worth of a product (wool, milk, egg) that feeds a cake or cloth
        keep = self.keep
        self.product = {
            C.WOOL: keep[C.WOOL] + self.cake_p * max(CLOTH_GAIN / 3 - keep[C.WOOL], 0.0) * 0.7,
            C.MILK: keep[C.MILK] + self.cake_p * max(CAKE_GAIN / 3 - keep[C.MILK], 0.0) * 0.7,
            C.EGG: keep[C.EGG] + self.cake_p * max(CAKE_GAIN / 3 - keep[C.EGG], 0.0) * 0.7,
        }
        self.capital = min(rounds, CAPITAL_ROUNDS) * CAPITAL_SHARE

    def stock(self, g: int, units: float) -> float:
        """The worth of `units` of good `g` (the first `liquid` units at the selling worth)."""
        liquid = self.liquid
        if units <= liquid:
            return self.keep[g] * units
        return self.keep[g] * liquid + self.low[g] * (units - liquid)


def _smooth(count: float, need: float) -> float:
    """1 once `count` reaches `need`, else a rising fraction (progress toward a threshold)."""
    if count >= need:
        return 1.0
    return 0.5 * (max(count, 0.0) / need) ** 2


def _step(count: float, need: int) -> float:
    """The chance that an expected `count` (whole units plus an expected fraction) reaches
    `need`: 0 a unit short, 1 at `need`."""
    return min(max(count - need + 1.0, 0.0), 1.0)


# --- the farm ------------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _farm_yields(tiles: tuple[int, ...], cap: int) -> tuple[tuple[int, float], ...]:
    """(crop, harvest) of a worker on each crop field, best first."""
    out = []
    for c, tile in enumerate(tiles):
        if C.T_APPLE <= tile <= C.T_GRAPE:
            seen = {c}
            stack = [c]
            while stack:
                x = stack.pop()
                for nb in C.NEIGHBOURS[x]:
                    if nb not in seen and tiles[nb] == tile:
                        seen.add(nb)
                        stack.append(nb)
            out.append((C.TILE_CROP[tile], float(min(cap, len(seen)))))
    out.sort(key=lambda x: -x[1])
    return tuple(out)


def _farm_income(tiles: tuple[int, ...], cap: int, keep: list[float]) -> float:
    """Per-round value of the two best farm workers, net of what the workers earn elsewhere."""
    total = 0.0
    for crop, amount in _farm_yields(tiles, cap)[:2]:
        total += max(amount * keep[crop] - FARM_OPPORTUNITY, 0.0)
    return total


@lru_cache(maxsize=4096)
def _best_field(tiles: tuple[int, ...], crop: int, cap: int) -> tuple[int, ...]:
    """The farm after a new `crop` field lands on the empty cell that grows the best group."""
    tile = C.CROP_TILE[crop]
    best, best_key = tiles, (-1.0, 0)
    for c, t in enumerate(tiles):
        if t != C.EMPTY:
            continue
        trial = (*tiles[:c], tile, *tiles[c + 1:])
        yields = _farm_yields(trial, cap)
        key = (sum(a for _, a in yields[:2]), -_open_neighbours(trial, c))
        if key > best_key:
            best, best_key = trial, key
    return best


def _open_neighbours(tiles: tuple[int, ...], cell: int) -> int:
    return sum(1 for nb in C.NEIGHBOURS[cell] if tiles[nb] == C.EMPTY)


def _barn_cell(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    """The farm after a barnyard lands on the empty cell least useful to fields."""
    best, best_key = tiles, None
    for c, t in enumerate(tiles):
        if t != C.EMPTY:
            continue
        key = sum(1 for nb in C.NEIGHBOURS[c] if C.T_APPLE <= tiles[nb] <= C.T_GRAPE)
        if best_key is None or key < best_key:
            best = (*tiles[:c], tile, *tiles[c + 1:])
            best_key = key
    return best


def _group(tiles: tuple[int, ...], cell: int) -> int:
    kind = tiles[cell]
    seen = {cell}
    stack = [cell]
    while stack:
        x = stack.pop()
        for nb in C.NEIGHBOURS[x]:
            if nb not in seen and tiles[nb] == kind:
                seen.add(nb)
                stack.append(nb)
    return len(seen)


# --- holdings and their value --------------------------------------------------------------------

class Holdings:
    """One player's holdings as floats (expected values while the round is projected)."""

    __slots__ = ("adjust", "barns", "cake", "cloth", "devs", "goods", "money", "owned", "tiles")

    def __init__(self, state: MiTierraState, p: int) -> None:
        self.money = float(state.money[p])
        self.adjust = 0.0  # a correction to the value (expected outcomes kept as one farm)
        self.goods = [float(x) for x in state.goods[p]]
        self.cake = float(state.cake[p])
        self.cloth = float(state.cloth[p])
        self.owned = float(state.owned[p])
        self.tiles = tuple(state.tiles[p])
        self.devs = list(state.devs[p])
        self.barns = [  # [capacity, kind, animals]
            [float(C.BARN_CAPACITY[t]), state.barn_kind[p][c], float(state.barn_count[p][c])]
            for c, t in enumerate(self.tiles) if t in C.BARN_CAPACITY
        ]

    def harvest_cap(self) -> int:
        return C.TRACTOR_CAP if self.devs[C.TRACTOR] else C.HARVEST_CAP

    def add_animals(self, kind: int, count: float) -> None:
        """House animals like the engine (same kind first, then empty barnyards), the rest meat."""
        goods = self.goods
        if kind == C.HEN:
            housed = min(count, max(C.HENHOUSE_CAPACITY - goods[C.HEN], 0.0))
        else:
            left = count
            for barn in self.barns:
                if left <= 0:
                    break
                if barn[1] == kind or (barn[1] == C.NO_KIND and barn[2] <= 0):
                    put = min(left, barn[0] - barn[2])
                    if put > 0:
                        barn[1] = kind
                        barn[2] += put
                        left -= put
            housed = count - left
        goods[kind] += housed
        goods[C.MEAT] += count - housed

    def room(self, kind: int) -> float:
        if kind == C.HEN:
            return max(C.HENHOUSE_CAPACITY - self.goods[C.HEN], 0.0)
        return sum(b[0] - b[2] for b in self.barns
                   if b[1] == kind or (b[1] == C.NO_KIND and b[2] <= 0))

    def roll_animals(self, kind: int, table: tuple[int, ...], face: int = 0) -> None:
        """Expected result of one roll for animals (or the rolled `face`)."""
        if face:
            self.add_animals(kind, float(table[face - 1]))
            return
        room = self.room(kind)
        housed = sum(min(r, room) for r in table) / len(table)
        meat = sum(r for r in table) / len(table) - housed
        self.add_animals(kind, housed)
        self.goods[C.MEAT] += meat

    def add_tile(self, tile: int) -> None:
        """A new field or barnyard on the best empty cell (nothing when the farm is full)."""
        if C.EMPTY not in self.tiles:
            return
        if tile in C.BARN_CAPACITY:
            self.tiles = _barn_cell(self.tiles, tile)
            self.barns.append([float(C.BARN_CAPACITY[tile]), C.NO_KIND, 0.0])
        else:
            self.tiles = _best_field(self.tiles, C.TILE_CROP[tile], self.harvest_cap())


def card_income(card: int, h: Holdings, w: Worths) -> float:
    """The per-round income of development `card` for these holdings."""
    goods = h.goods
    devs = h.devs
    sheep, cows, hens = goods[C.SHEEP], goods[C.COW], goods[C.HEN]
    if card == C.SHEARER:
        return _smooth(sheep, 2 if devs[C.SHEARER_MACHINE] else 3) * w.product[C.WOOL]
    if card == C.MILK_FACTORY:
        return _smooth(cows, 2) * w.product[C.MILK]
    if card == C.HEN_BARNYARD:
        return _smooth(hens, 3 if devs[C.EGGS_HENS] else 4) * w.product[C.EGG]
    if card == C.MILL:
        return 3.0 if C.T_WHEAT in h.tiles else 0.8
    if card == C.WINE_CELLAR:
        gain = w.keep[C.WINE] - w.keep[C.GRAPE]
        return gain * (0.7 if C.T_GRAPE in h.tiles else 0.2)
    if card == C.SHEEP_BREEDING:
        return _smooth(sheep, 3) * w.keep[C.SHEEP] * (1.0 if h.room(C.SHEEP) > 0 else 0.5)
    if card == C.COW_BREEDING:
        return _smooth(cows, 2) * w.keep[C.COW] * (1.0 if h.room(C.COW) > 0 else 0.5)
    if card == C.CHICKEN_BREEDING:
        return _smooth(hens, 4) * w.keep[C.HEN] * (1.0 if h.room(C.HEN) > 0 else 0.5)
    if card == C.SHEARER_MACHINE:
        if devs[C.SHEARER]:
            return (_smooth(sheep, 2) - _smooth(sheep, 3)) * w.product[C.WOOL] + 0.3
        return 0.2
    if card == C.EGGS_HENS:
        if devs[C.HEN_BARNYARD]:
            return (_smooth(hens, 3) - _smooth(hens, 4)) * w.product[C.EGG] + 0.3
        return 0.2
    if card == C.BANK:
        return float(C.DEV_CARDS[C.BANK].money)
    if card == C.TRACTOR:
        return 1.0 if any(a >= 3 for _, a in _farm_yields(h.tiles, C.TRACTOR_CAP)) else 0.2
    if card == C.POLICE:
        return 0.3 + 0.05 * (sheep + cows + hens)
    if card == C.INSURANCE:
        return 0.3 + 0.1 * sum(1 for t in (C.T_APPLE, C.T_WHEAT, C.T_GRAPE) if t in h.tiles)
    return 0.4  # Studies


def card_value(card: int, h: Holdings, w: Worths) -> float:
    """What owning development `card` adds: its income per round times the rounds left."""
    if w.capital <= 0:
        return 0.0
    return card_income(card, h, w) * w.capital


def _kits(kits: int, progress: float, bonus: float, chance: float) -> float:
    """Kit bonus: `kits` complete kits (each later one less likely to be used in time) and the
    `progress` (0-1) toward the next."""
    decay = KIT_DECAY ** kits
    return bonus * chance * ((1.0 - decay) / (1.0 - KIT_DECAY) + 0.5 * progress * progress * decay)


def kit_value(goods: list[float], w: Worths) -> float:
    """What milk, eggs and wool add beyond their worth as goods: cake and cloth kits."""
    if w.cake_p <= 0:
        return 0.0
    keep = w.keep
    milk, egg, wool = goods[C.MILK], goods[C.EGG], goods[C.WOOL]
    kits = int(min(milk, egg / 2) + 1e-9)
    progress = (min(milk - kits, 1.0) + min(egg - 2 * kits, 2.0)) / 3.0
    value = _kits(kits, progress, max(CAKE_GAIN - keep[C.MILK] - 2 * keep[C.EGG], 0.0), w.cake_p)
    kits = int(wool / 3 + 1e-9)
    progress = (wool - 3 * kits) / 3.0
    value += _kits(kits, progress, max(CLOTH_GAIN - 3 * keep[C.WOOL], 0.0), w.cake_p)
    return value


def engine_value(h: Holdings, w: Worths) -> float:
    """Per-round production of the animals (the factory's products they qualify for, and the
    development cards that read them), times the rounds left."""
    if w.capital <= 0:
        return 0.0
    goods = h.goods
    apf = 0.0
    for product, animal, need in C.APF_PRODUCTS:
        apf += _smooth(goods[animal], need) * w.product[product]
    income = max(apf - C.APF_COST, 0.0) * APF_SHARE
    devs = h.devs
    for card in ANIMAL_CARDS:
        if devs[card]:
            income += card_income(card, h, w)
    return income * w.capital


def goods_part(h: Holdings, g: int, w: Worths) -> float:
    """The part of the holdings' value that moves with the amount of good `g`: its worth as
    goods, and for milk, eggs and wool the kits, for animals their production."""
    value = w.stock(g, h.goods[g])
    if g in KIT_GOODS:
        value += kit_value(h.goods, w)
    elif g in C.ANIMALS:
        value += engine_value(h, w)
    return value


def sell_worth(h: Holdings, g: int, w: Worths) -> float:
    """What selling one unit of `g` gives up (its marginal value to keep)."""
    goods = h.goods
    held = goods[g]
    before = goods_part(h, g, w)
    goods[g] = held - 1.0
    after = goods_part(h, g, w)
    goods[g] = held
    return before - after


def buy_worth(h: Holdings, g: int, w: Worths) -> float:
    """What one more unit of `g` adds."""
    goods = h.goods
    held = goods[g]
    before = goods_part(h, g, w)
    goods[g] = held + 1.0
    after = goods_part(h, g, w)
    goods[g] = held
    return after - before


def holdings_goods_value(h: Holdings, w: Worths) -> float:
    """The part of the holdings' value that moves with the goods (worth, kits, animals)."""
    goods = h.goods
    return (sum(w.stock(g, goods[g]) for g in range(C.NUM_GOODS)) + kit_value(goods, w)
            + engine_value(h, w))


def holdings_value(h: Holdings, w: Worths) -> float:
    """The dollar value of holdings `w.rounds` full rounds before the end (module docstring)."""
    goods = h.goods
    value = h.money + C.CAKE_VALUE * h.cake + C.CLOTH_VALUE * h.cloth + h.adjust
    value += sum(w.stock(g, goods[g]) for g in range(C.NUM_GOODS))
    value += kit_value(goods, w)
    if w.capital > 0:
        capital = w.capital
        value += engine_value(h, w)
        devs = h.devs
        for card in OTHER_CARDS:
            if devs[card]:
                value += card_income(card, h, w) * capital
        # barnyard room: the first three places matter most
        room = sum(b[0] for b in h.barns)
        value += (3.0 * min(room, 3.0) + max(min(room, 9.0) - 3.0, 0.0)) * min(w.rounds, 6.0) / 6
        # the two best farm workers
        value += _farm_income(h.tiles, h.harvest_cap(), w.keep) * capital * FARM_SHARE
        # workers beyond three
        value += max(h.owned - C.FREE_WORKERS, 0.0) * WORKER_NET * capital
    return value


# --- the rest of the round, projected ------------------------------------------------------------

def _projected_barn_tile(h: Holdings) -> None:
    """A Forest roll: capacity 2 or 3, expected as a 2.5 barnyard on an empty cell."""
    if C.EMPTY not in h.tiles:
        return
    h.tiles = _barn_cell(h.tiles, C.T_BARN3)
    h.barns.append([2.5, C.NO_KIND, 0.0])


def _projected_crop_tile(h: Holdings, w: Worths) -> None:
    """A Crops roll: one of three crops; the farm's value is averaged over them."""
    if C.EMPTY not in h.tiles:
        return
    cap = h.harvest_cap()
    before = _farm_income(h.tiles, cap, w.keep)
    options = [_best_field(h.tiles, crop, cap) for crop in C.CROPS]
    gains = [_farm_income(t, cap, w.keep) - before for t in options]
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
    return float(min(cap, _group(tiles, cell)))


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
                options = [_best_field(h.tiles, crop, cap) for crop in C.CROPS]
                h.tiles = max(options, key=lambda t: _farm_income(t, cap, w.keep))
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


# --- position value ------------------------------------------------------------------------------

def position_value(state: MiTierraState, me: int, w: Worths | None = None) -> float:
    """How good `state` is for seat `me`, in dollars: the final score once the game is over,
    else the value of the projected holdings (module docstring). A lookahead passes the `w` of
    the position it started from, so that a card revealed on the way does not change the
    prices it compares with."""
    if state.terminal:
        return float(score(state, me))
    return holdings_value(*project(state, me, w=w))


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


# --- the agent -----------------------------------------------------------------------------------

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


class MiTierraHeuristic(TurnPlanner):
    """Plays the best line by `position_value` on a determinized copy; ties go to the agent's
    generator."""

    name = "heuristic"
    title = "the Mi Tierra heuristic"
    game = "mi_tierra"

    def __init__(self, seed: int | None = None, **options) -> None:
        super().__init__(seed, **options)
        self.first_values: dict[int, float] = {}  # last decision: its value per action, if any

    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        state = view.determinize(self.rng)
        return self.choose(state, view.player, [int(a) for a in legal])

    def choose(self, state: MiTierraState, me: int, legal: list[int]) -> list[int]:
        """The line of actions to play from `state` (its first action is legal now)."""
        decision = state.decision
        self.first_values = {}
        if decision == Decision.PLACE:
            gains = placement_gains(state, me, legal)
            self.first_values = {a: gains[a] for a in legal if a in gains}
            noise = self.rng.random(len(legal)) * 1e-6  # random tie-break
            best = max(range(len(legal)), key=lambda k: gains[legal[k]] + noise[k])
            action = legal[best]
            return [action if gains[action] >= MIN_PLACEMENT_GAIN else PASS]
        w = Worths(rounds_left(state))
        if decision in (Decision.MARKET_SALE, Decision.BLACK_MARKET):
            return [best_unit(state, me, w)]
        if decision == Decision.REROLL:
            return [self._reroll(state, me, w)]
        if decision == Decision.UPKEEP:  # keep a worker that earns more than its upkeep
            keep = WORKER_USE + WORKER_NET * w.capital - C.UPKEEP_PER_EXTRA
            return [PASS if PASS in legal and keep >= 0 else CHOICE0]
        noise = self.rng.random(len(legal)) * 1e-6
        best_value, best_line = -np.inf, [legal[0]]
        for k, action in enumerate(legal):
            child = state.clone()
            child.apply(action)
            line = [action]
            while (not child.terminal and child.current_player == me
                   and child.decision in CONTINUED and len(line) < 40):
                follow = (best_unit(child, me, w) if child.decision == Decision.MARKET_SALE
                          else self.greedy_step(child, me, w))
                child.apply(follow)
                line.append(follow)
            value = position_value(child, me, w) + noise[k]
            self.first_values[action] = value
            if value > best_value:
                best_value, best_line = value, line
        return best_line

    @staticmethod
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

    @staticmethod
    def _reroll(state: MiTierraState, me: int, w: Worths) -> int:
        """Studies: roll again when the average of the six faces is worth more than the face
        rolled (the projection reads the pending face)."""
        kept = state.die_face
        keep_value = position_value(state, me, w)
        total = 0.0
        for face in range(1, C.DIE_FACES + 1):
            state.die_face = face
            total += position_value(state, me, w)
        state.die_face = kept
        return CHOICE0 if total / C.DIE_FACES > keep_value + 1e-9 else PASS
