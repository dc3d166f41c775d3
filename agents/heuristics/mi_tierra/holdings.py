"""The Mi Tierra heuristic's prices: what goods are worth to keep with the rounds left
(`Worths`), and the value of a player's holdings (`holdings_value`):

- money, plus $49 per cake and $47 per cloth;
- each good at its value to keep, plus a bonus for complete and partly complete cake and
  cloth kits while a round remains to make them;
- production capital: the factory's products that the animals already qualify for, the incomes
  of the development cards owned, barnyard room, the harvest of the two best farm workers, and
  the net yield of workers beyond three — each per round, times the rounds left (estimated from
  the market pile: the game ends at the third permanent event, all of which lie in deck B).
"""

from __future__ import annotations

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import Stage
from huerta.envs.mi_tierra.state import MiTierraState

from .fields import barn_cell, best_field, farm_income, farm_yields

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
            self.tiles = barn_cell(self.tiles, tile)
            self.barns.append([float(C.BARN_CAPACITY[tile]), C.NO_KIND, 0.0])
        else:
            self.tiles = best_field(self.tiles, C.TILE_CROP[tile], self.harvest_cap())


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
        return 1.0 if any(a >= 3 for _, a in farm_yields(h.tiles, C.TRACTOR_CAP)) else 0.2
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
        value += farm_income(h.tiles, h.harvest_cap(), w.keep) * capital * FARM_SHARE
        # workers beyond three
        value += max(h.owned - C.FREE_WORKERS, 0.0) * WORKER_NET * capital
    return value
