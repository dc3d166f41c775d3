"""Every number of Mi Tierra, as data: the one place to edit to match a physical edition.

The rulebook prints only a handful of numbers (starting money, worker upkeep, factory recipes, the
end values of cake and cloth, the 3-for-$1 exchange, the Black Market's 3-buy cap); the board
spaces, dice, farm grid, market cards, event classification and Black Market chart live in images we
do not have. The values here are the decisions recorded, each with its reason, in seeds/mi_tierra.md
(its gaps, the G- ids); the code reads every number from this module.
"""

from __future__ import annotations

from dataclasses import dataclass

PLAYER_COUNTS = (2, 3, 4)
MAX_SEATS = 4

# --- goods (G-52) --------------------------------------------------------------------------------
# The index order is fixed: SELL_/BUY_ actions and the observation use it.
GOODS = (
    "apple", "wheat", "grape", "meat", "wool", "milk", "egg", "flour", "wine",
    "sheep", "cow", "hen",
)
GOOD_ABBREV = ("Ap", "Wh", "Gr", "Me", "Wo", "Mi", "Eg", "Fl", "Wi", "Sh", "Co", "He")
NUM_GOODS = len(GOODS)
APPLE, WHEAT, GRAPE, MEAT, WOOL, MILK, EGG, FLOUR, WINE, SHEEP, COW, HEN = range(NUM_GOODS)
RESOURCES = tuple(range(9))  # resource cards (meat included: overflow animals become meat cards)
ANIMALS = (SHEEP, COW, HEN)
CROPS = (APPLE, WHEAT, GRAPE)

# Black Market chart (G-57): price the bank pays per unit sold, and price per unit bought
# (None = cannot be bought). Selling is worse than any market; buying is dear.
BM_SELL = (2, 2, 2, 2, 4, 4, 3, 8, 8, 3, 4, 2)
BM_BUY = (5, 5, 5, None, 10, 10, 9, None, None, None, None, None)
BUYABLE = tuple(g for g in range(NUM_GOODS) if BM_BUY[g] is not None)
BM_BUYS_PER_WORKER = 3  # MIT-91

# Inflation (MIT-104, G-59): +$1 per unit of these goods in every market, Black Market included.
INFLATED_GOODS = (MILK, FLOUR, WINE)
INFLATION_BONUS = 1

# Final goods (MIT-95, G-34): never sold in a market; the bank buys them at the end.
CAKE_VALUE = 49
CLOTH_VALUE = 47
EXCHANGE_RATE = 3  # MIT-96: leftover resources and animals, 3 for $1, rounded down

# --- setup and workers (MIT-01, MIT-06, MIT-14, MIT-37) -----------------------------------------
START_MONEY = (5, 6, 7, 8)  # by seat; seat 0 is the start player (G-69)
START_WORKERS = 3
MAX_WORKERS = 5  # per colour: 3 to start, 2 to hire
FREE_WORKERS = 3  # workers beyond this cost upkeep
UPKEEP_PER_EXTRA = 2
MARKET_A_REMOVED = 7  # MIT-02: set aside unseen at setup
# G-56: the game also ends after this round, scored normally, however few market cards were
# drawn (the deck only advances when players sell, so passive play could otherwise run on).
MAX_ROUNDS = 20

# --- the board ------------------------------------------------------------------------------------
# (G-01, G-02, G-03, G-04, G-05, G-06)


@dataclass(frozen=True)
class Zone:
    """A worker zone of the main board: its spaces (in board order), activation stage, the space
    blocked with two players, and whether two workers may share one space and choose the die."""

    key: str
    name: str
    spaces: int
    blocked_2p: int  # offset of the space blocked with 2 players (G-03)
    pairs: bool = False
    factory: bool = False  # closed by Strike (G-33)


ZONES = (
    Zone("forest", "Forest", 3, 2, pairs=True),
    Zone("sheep", "Sheep Barnyard", 2, 1),
    Zone("square", "Square of Available Workers", 2, 1),
    Zone("crops", "Crops", 3, 2, pairs=True),
    Zone("cow", "Cow Barnyard", 2, 1),
    Zone("henhouse", "Henhouse", 2, 1),
    Zone("animal_products", "Animal Products Factory", 2, 1, factory=True),
    Zone("clock_tower", "Clock Tower", 2, 1),
    Zone("bakery", "Bakery", 2, 1, factory=True),
    Zone("developments", "Developments", 5, 2),  # spots N, W, C, E, S; C blocked in 2p
    Zone("flour_wine", "Flour and Wine Factory", 2, 1, factory=True),
    Zone("cloth", "Cloth Factory", 2, 1, factory=True),
    Zone("est_market", "Established Market", 4, 3),
    Zone("lower_road", "Turn-order lower road", 4, 3),
)
ZONE_KEYS = tuple(z.key for z in ZONES)
(
    Z_FOREST, Z_SHEEP, Z_SQUARE, Z_CROPS, Z_COW, Z_HENHOUSE, Z_APF, Z_CLOCK, Z_BAKERY, Z_DEV,
    Z_FLOUR_WINE, Z_CLOTH, Z_EST_MARKET, Z_LOWER_ROAD,
) = range(len(ZONES))
FACTORY_ZONES = tuple(i for i, z in enumerate(ZONES) if z.factory)


def _zone_offsets() -> tuple[int, ...]:
    out, offset = [], 0
    for z in ZONES:
        out.append(offset)
        offset += z.spaces
    return tuple(out)


ZONE_FIRST_SPACE = _zone_offsets()
NUM_SPACES = sum(z.spaces for z in ZONES)  # 37 board spaces
SPACE_ZONE = tuple(i for i, z in enumerate(ZONES) for _ in range(z.spaces))
BLOCKED_2P = frozenset(ZONE_FIRST_SPACE[i] + z.blocked_2p for i, z in enumerate(ZONES))
# Decorative, with no space, action or observation (MIT-27).
DECORATIONS = ("water mill", "rodeo", "animal exhibition market")

# --- developments display -------------------------------------------------------------------------
# (G-36, G-37, G-38, G-39, G-40)
DEV_SLOTS = ("TL", "TR", "BL", "BR")
DEV_SPOTS = ("N", "W", "C", "E", "S")
DEV_SPOT_TOUCHES = ((0, 1), (0, 2), (0, 1, 2, 3), (1, 3), (2, 3))  # display slots per spot
DEV_COST_PER_CARD = 1  # MIT-49: $1 per touched card present

# --- dice: every roll is a fair d6 read through its zone's table ----------------------------------
# (G-10, G-11, G-12, G-13, G-14, G-15)
DIE_FACES = 6
FOREST_CAPACITY = (2, 2, 2, 3, 3, 3)  # face 1..6 -> barnyard capacity
SHEEP_ROLL = (1, 1, 2, 2, 3, 3)
COW_ROLL = (1, 1, 1, 2, 2, 3)
HEN_ROLL = (1, 1, 2, 2, 3, 4)  # the white die
CROP_ROLL = (APPLE, WHEAT, GRAPE, APPLE, WHEAT, GRAPE)  # printed 1 apples, 2 wheat, 3 grapes
FOREST_PAIR_CHOICES = (2, 3)
CROPS_PAIR_CHOICES = (APPLE, WHEAT, GRAPE)

# --- the personal farm ----------------------------------------------------------------------------
# (G-16, G-17, G-18, G-19, G-20, G-21, G-22, G-23, G-24, G-25, G-26)
FARM_ROWS = 3
FARM_COLS = 4
FARM_CELLS = FARM_ROWS * FARM_COLS
PRINTED_APPLE_CELL = 5  # row 1, column 1; never replaced (G-17)
HENHOUSE_CAPACITY = 6
HARVEST_CAP = 2  # MIT-61
TRACTOR_CAP = 3  # MIT-73
# Tile codes of a farm cell.
EMPTY, T_APPLE, T_WHEAT, T_GRAPE, T_BARN2, T_BARN3 = range(6)
TILE_NAMES = ("empty", "apple field", "wheat field", "grape field", "barnyard 2", "barnyard 3")
TILE_LETTERS = (".", "A", "W", "G", "2", "3")
CROP_TILE = {APPLE: T_APPLE, WHEAT: T_WHEAT, GRAPE: T_GRAPE}
TILE_CROP = {T_APPLE: APPLE, T_WHEAT: WHEAT, T_GRAPE: GRAPE}
BARN_TILE = {2: T_BARN2, 3: T_BARN3}
BARN_CAPACITY = {T_BARN2: 2, T_BARN3: 3}
NO_KIND = -1  # barnyard animal kind: -1 none, SHEEP or COW


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out = []
    for c in range(FARM_CELLS):
        r, k = divmod(c, FARM_COLS)
        near = []
        for dr, dk in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, kk = r + dr, k + dk
            if 0 <= rr < FARM_ROWS and 0 <= kk < FARM_COLS:
                near.append(rr * FARM_COLS + kk)
        out.append(tuple(near))
    return tuple(out)


NEIGHBOURS = _neighbours()  # orthogonal ("octagonal" = ortogonal), never diagonal

# --- factories ------------------------------------------------------------------------------------
# (MIT-43, MIT-44, MIT-45, MIT-46, MIT-47, MIT-48, MIT-49, MIT-50, MIT-51, MIT-52, MIT-53, MIT-54,
# MIT-55, G-31)
APF_COST = 5
# (product, animal, at least): the thresholds of the matching development cards (Shearer 3 sheep,
# Milk factory 2 cows, Hen barnyard 4 hens); with lower ones the factory out-earned every other
# space in simulated games (G-31).
APF_PRODUCTS = ((WOOL, SHEEP, 3), (MILK, COW, 2), (EGG, HEN, 4))
BAKERY_COST = 8
BAKERY_INPUTS = ((MILK, 1), (EGG, 2))
FLOUR_WINE_COST = 5
FLOUR_RECIPE = (WHEAT, 3)
WINE_RECIPE = (GRAPE, 3)
CLOTH_COST = 7
CLOTH_INPUTS = ((WOOL, 3),)
CLOCK_PEEK = 4

# --- development cards ----------------------------------------------------------------------------
# (MIT-63, MIT-64, MIT-65, MIT-66, MIT-67, MIT-68, MIT-69, MIT-70, MIT-71, MIT-72, MIT-73, MIT-74,
# MIT-75, MIT-76, MIT-77, G-40, G-41, G-42, G-43, G-44, G-45, G-46)


@dataclass(frozen=True)
class DevCard:
    """A development card; `kind` says how the rules read the other fields."""

    card_id: int
    numeral: str
    name: str
    kind: str  # product, convert, breed, immunity, reroll, harvest_cap, upgrade, income
    animal: int = -1  # product / breed / upgrade: the animal counted
    need: int = 0  # ... and how many are needed
    gain: int = -1  # product / breed: the good gained (one unit)
    requires: int = -1  # upgrade: the card whose threshold it replaces
    money: int = 0  # income


DEV_CARDS = (
    DevCard(0, "I", "Shearer", "product", animal=SHEEP, need=3, gain=WOOL),
    DevCard(1, "II", "Milk factory", "product", animal=COW, need=2, gain=MILK),
    DevCard(2, "III", "Mill", "convert"),
    DevCard(3, "IV", "Wine Cellar", "convert"),
    DevCard(4, "V", "Sheep Breeding", "breed", animal=SHEEP, need=3, gain=SHEEP),
    DevCard(5, "VI", "Cow Breeding", "breed", animal=COW, need=2, gain=COW),
    DevCard(6, "VII", "Hen barnyard", "product", animal=HEN, need=4, gain=EGG),
    DevCard(7, "VIII", "Insurance", "immunity"),
    DevCard(8, "IX", "Police", "immunity"),
    DevCard(9, "X", "Studies", "reroll"),
    DevCard(10, "XI", "Tractor", "harvest_cap"),
    DevCard(11, "XII", "Shearer Machine", "upgrade", animal=SHEEP, need=2, requires=0),
    DevCard(12, "XIII", "Chicken Breeding", "breed", animal=HEN, need=4, gain=HEN),
    DevCard(13, "XIV", "Eggs Hens", "upgrade", animal=HEN, need=3, requires=6),
    DevCard(14, "XV", "Bank", "income", money=3),
)
NUM_DEV_CARDS = len(DEV_CARDS)
(
    SHEARER, MILK_FACTORY, MILL, WINE_CELLAR, SHEEP_BREEDING, COW_BREEDING, HEN_BARNYARD,
    INSURANCE, POLICE, STUDIES, TRACTOR, SHEARER_MACHINE, CHICKEN_BREEDING, EGGS_HENS, BANK,
) = range(NUM_DEV_CARDS)
MILL_OPTIONS = ((2, 1), (5, 2))  # (wheat returned, flour gained), one use per round (G-45)
WINE_CELLAR_OPTION = (1, 1)  # (grapes returned, wine gained)

# --- events ---------------------------------------------------------------------------------------
# (MIT-84, MIT-85, MIT-86, MIT-87, MIT-103, MIT-104, MIT-105, MIT-106, G-60, G-61, G-62, G-63, G-64)
EVENTS = ("animal_thieves", "frost", "inflation", "strike", "fruit_fly")
EVENT_NAMES = ("Animal Thieves", "Frost", "Inflation", "Strike", "Fruit Fly")
NUM_EVENTS = len(EVENTS)
THIEVES, FROST, INFLATION, STRIKE, FRUIT_FLY = range(NUM_EVENTS)
PERMANENT_EVENTS = frozenset((INFLATION, STRIKE, FRUIT_FLY))
EVENT_IMMUNITY = {THIEVES: POLICE, FROST: INSURANCE, FRUIT_FLY: INSURANCE}
FRUIT_FLY_CROPS = (APPLE, GRAPE)  # G-61: wheat is not fruit
PERMANENTS_TO_END = 3  # MIT-87

# --- market cards ---------------------------------------------------------------------------------
# (MIT-100, MIT-101, MIT-102, G-47, G-48, G-49, G-50, G-51, G-52, G-53, G-54, G-55)
GENERIC_RESOURCE_PRICE = 3
GENERIC_ANIMAL_PRICE = 4


@dataclass(frozen=True)
class MarketCard:
    """One physical card of the market deck: a market (simple, pack, generic) or an event.

    simple: buys up to `limit` units of `good` at `price` each; pack: buys exactly one bundle
    `contents` (units per good) for `price`; generic: buys any goods at the generic prices.
    """

    card_id: int
    code: str  # A01 ... B21, EA1 ... EB4 (copies share a code)
    deck: str  # "A" or "B"
    kind: str  # simple, pack, generic, event
    good: int = -1
    price: int = 0
    limit: int = 0
    contents: tuple[int, ...] = ()
    outgoing: bool = False
    event: int = -1

    def label(self) -> str:
        """Short text, e.g. 'cow $6 x2', '3Ap+1Wh $15', 'generic', 'EVENT Frost'."""
        out = " (out)" if self.outgoing else ""
        if self.kind == "simple":
            return f"{GOODS[self.good]} ${self.price} x{self.limit}{out}"
        if self.kind == "pack":
            parts = "+".join(f"{n}{GOOD_ABBREV[g]}" for g, n in enumerate(self.contents) if n)
            return f"{parts} ${self.price}{out}"
        if self.kind == "generic":
            return f"generic ${GENERIC_RESOURCE_PRICE}/${GENERIC_ANIMAL_PRICE}{out}"
        return f"EVENT {EVENT_NAMES[self.event]}"


def _pack(**units: int) -> tuple[int, ...]:
    return tuple(units.get(name, 0) for name in GOODS)


# (code, kind, good or contents or event, price, limit, outgoing, copies)
DECK_A_DESIGNS = (
    ("A01", "simple", APPLE, 4, 3, True, 2),
    ("A02", "simple", APPLE, 5, 2, True, 1),
    ("A03", "simple", WHEAT, 4, 3, True, 2),
    ("A04", "simple", WHEAT, 5, 2, True, 1),
    ("A05", "simple", GRAPE, 4, 3, True, 2),
    ("A06", "simple", GRAPE, 5, 2, True, 1),
    ("A07", "simple", SHEEP, 5, 2, True, 1),
    ("A08", "simple", COW, 6, 2, True, 1),  # the rulebook's example card
    ("A09", "simple", HEN, 4, 3, True, 1),
    ("A10", "simple", MEAT, 4, 3, True, 2),
    ("A11", "simple", WOOL, 7, 2, True, 1),
    ("A12", "simple", MILK, 7, 2, True, 1),
    ("A13", "simple", EGG, 6, 2, True, 1),
    ("A14", "simple", FLOUR, 15, 1, True, 1),
    ("A15", "simple", WINE, 15, 1, True, 1),
    ("A16", "pack", _pack(apple=3, wheat=1), 15, 1, True, 1),  # the rulebook's example card
    ("A17", "pack", _pack(wheat=2, grape=2), 16, 1, True, 1),
    ("A18", "pack", _pack(apple=2, grape=2), 16, 1, True, 1),
    ("A19", "pack", _pack(sheep=1, cow=1), 12, 1, True, 1),
    ("A20", "pack", _pack(hen=2, meat=1), 12, 1, True, 1),
    ("A21", "generic", None, 0, 0, True, 1),
    ("A22", "generic", None, 0, 0, True, 1),
    ("EA1", "event", THIEVES, 0, 0, False, 2),
    ("EA2", "event", FROST, 0, 0, False, 2),
)
DECK_B_DESIGNS = (
    ("B01", "simple", APPLE, 5, 4, True, 1),
    ("B02", "simple", WHEAT, 5, 4, True, 1),
    ("B03", "simple", GRAPE, 5, 4, True, 1),
    ("B04", "simple", SHEEP, 6, 3, True, 1),
    ("B05", "simple", COW, 7, 3, True, 1),
    ("B06", "simple", HEN, 5, 3, True, 1),
    ("B07", "simple", MEAT, 5, 3, True, 2),
    ("B08", "simple", WOOL, 8, 3, True, 1),
    ("B09", "simple", WOOL, 7, 3, True, 1),
    ("B10", "simple", MILK, 8, 3, True, 1),
    ("B11", "simple", EGG, 7, 3, True, 1),
    ("B12", "simple", FLOUR, 16, 2, True, 1),
    ("B13", "simple", WINE, 16, 2, True, 1),
    ("B14", "simple", FLOUR, 14, 3, True, 1),
    ("B15", "simple", WINE, 14, 3, True, 1),
    ("B16", "pack", _pack(flour=1, wine=1), 34, 1, True, 1),
    ("B17", "pack", _pack(wool=1, milk=1, egg=1), 24, 1, True, 1),
    ("B18", "pack", _pack(sheep=2, cow=2), 26, 1, True, 1),
    ("B19", "pack", _pack(apple=3, grape=3), 30, 1, True, 1),
    ("B20", "pack", _pack(flour=1, egg=2), 32, 1, True, 1),
    ("B21", "generic", None, 0, 0, True, 1),
    ("EB1", "event", INFLATION, 0, 0, False, 1),
    ("EB2", "event", STRIKE, 0, 0, False, 1),
    ("EB3", "event", FRUIT_FLY, 0, 0, False, 1),
    ("EB4", "event", THIEVES, 0, 0, False, 1),
)


def _expand(designs: tuple, deck: str, first_id: int) -> list[MarketCard]:
    cards = []
    for code, kind, what, price, limit, outgoing, copies in designs:
        for _ in range(copies):
            cid = first_id + len(cards)
            if kind == "simple":
                card = MarketCard(cid, code, deck, kind, good=what, price=price, limit=limit,
                                  outgoing=outgoing)
            elif kind == "pack":
                card = MarketCard(cid, code, deck, kind, price=price, contents=what, limit=1,
                                  outgoing=outgoing)
            elif kind == "generic":
                card = MarketCard(cid, code, deck, kind, outgoing=outgoing)
            else:
                card = MarketCard(cid, code, deck, kind, event=what)
            cards.append(card)
    return cards


_DECK_A = _expand(DECK_A_DESIGNS, "A", 0)
_DECK_B = _expand(DECK_B_DESIGNS, "B", len(_DECK_A))
MARKET_CARDS: tuple[MarketCard, ...] = (*_DECK_A, *_DECK_B)
NUM_MARKET_CARDS = len(MARKET_CARDS)  # 56 physical ids: A 0..29, B 30..55
DECK_A_IDS = tuple(c.card_id for c in _DECK_A)
DECK_B_IDS = tuple(c.card_id for c in _DECK_B)
IS_EVENT = tuple(c.kind == "event" for c in MARKET_CARDS)
IS_DECK_B = tuple(c.deck == "B" for c in MARKET_CARDS)


def card_unit_price(card: MarketCard, good: int, inflation: bool) -> int:
    """What `card` pays for one unit of `good` (0 if it does not buy it); packs pay per bundle."""
    if card.kind == "simple":
        if good != card.good:
            return 0
        base = card.price
    elif card.kind == "generic":
        base = GENERIC_ANIMAL_PRICE if good in ANIMALS else GENERIC_RESOURCE_PRICE
    else:
        return 0
    return base + (INFLATION_BONUS if inflation and good in INFLATED_GOODS else 0)


def pack_payout(card: MarketCard, inflation: bool) -> int:
    """A pack's payout; under Inflation +$1 per inflated unit in the bundle (G-59)."""
    extra = sum(card.contents[g] for g in INFLATED_GOODS) * INFLATION_BONUS if inflation else 0
    return card.price + extra


def bm_price(good: int, buying: bool, inflation: bool) -> int:
    """The Black Market's selling or buying price of one unit (MIT-90, MIT-91, G-57, G-59)."""
    base = BM_BUY[good] if buying else BM_SELL[good]
    if base is None:
        raise ValueError(f"{GOODS[good]} cannot be bought at the Black Market")
    return base + (INFLATION_BONUS if inflation and good in INFLATED_GOODS else 0)


assert NUM_SPACES == 37
assert len(DECK_A_IDS) == 30 and len(DECK_B_IDS) == 26
assert sum(1 for c in MARKET_CARDS if c.kind != "event") == 48
assert sum(1 for c in MARKET_CARDS if c.outgoing) == 48  # G-48: every market card
assert all(c.deck == "B" for c in MARKET_CARDS if c.kind == "event" and c.event in
           PERMANENT_EVENTS)
assert len(ZONES[Z_DEV].key) and ZONES[Z_DEV].spaces == len(DEV_SPOTS)
