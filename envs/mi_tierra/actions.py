"""Mi Tierra's flat action space (64 ids for every player count), its stages and decisions.

A round is a fixed sequence of stages (phases 1-3 and the sixteen activation steps); inside a
stage the engine runs by itself (rolls, draws, events, harvests) until a player must choose, and
then poses one small decision. Composite choices (a sale of several units, a reordering of four
cards, releasing several workers) are sequences of such decisions of the same player.

| ids   | name                  | meaning (by decision)                                          |
|-------|-----------------------|----------------------------------------------------------------|
| 0     | PASS                  | decline / stop / keep / confirm (see `Decision`)               |
| 1-13  | PLACE_<zone>          | PLACE: a worker on the zone's next free space                  |
| 14-18 | PLACE_DEV_<N,W,C,E,S> | PLACE: a worker on that development spot                       |
| 19-20 | PLACE_PAIR_<zone>     | PLACE: two workers on one Forest / Crops space (choose result) |
| 21-32 | CELL_<i>              | PLACE: a worker on own crop field i; TILE: put the tile on i   |
| 33-36 | CHOICE_<k>            | option k of the decision (result, recipe, card, slot, ...)     |
| 37-40 | EST_SLOT_<m>          | MARKET_TURN: sell to Established market m                      |
| 41-44 | CLOSE_SLOT_<m>        | MARKET_TURN: sell to Closing-row market m                      |
| 45    | MOVE_TO_BLACK_MARKET  | MARKET_TURN: leave the Established market for the Black Market |
| 46-57 | SELL_<good>           | MARKET_SALE: add one unit; BLACK_MARKET: sell one unit         |
| 58-63 | BUY_<good>            | BLACK_MARKET: buy one unit (apple, wheat, grape, wool, milk, egg)|
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from . import components as C

if TYPE_CHECKING:
    from .state import MiTierraState


class Stage(IntEnum):
    """Where the round is: phases 1-3, then activation steps 1-16 (G-04), then the end."""

    TURN_ORDER = 0
    UPKEEP = 1
    MARKET_MAINTENANCE = 2
    PLACEMENT = 3
    FOREST = 4
    SHEEP = 5
    SQUARE = 6
    CROPS = 7
    COW = 8
    HENHOUSE = 9
    ANIMAL_PRODUCTS = 10
    CLOCK_TOWER = 11
    BAKERY = 12
    DEVELOPMENTS = 13
    FLOUR_WINE = 14
    CLOTH = 15
    FARMS = 16
    EST_MARKET = 17
    BLACK_MARKET = 18
    LOWER_ROAD = 19
    GAME_OVER = 20


NUM_STAGES = len(Stage)

# The board zone each zone-activation stage works on.
STAGE_ZONE = {
    Stage.FOREST: C.Z_FOREST, Stage.SHEEP: C.Z_SHEEP, Stage.SQUARE: C.Z_SQUARE,
    Stage.CROPS: C.Z_CROPS, Stage.COW: C.Z_COW, Stage.HENHOUSE: C.Z_HENHOUSE,
    Stage.ANIMAL_PRODUCTS: C.Z_APF, Stage.CLOCK_TOWER: C.Z_CLOCK, Stage.BAKERY: C.Z_BAKERY,
    Stage.DEVELOPMENTS: C.Z_DEV, Stage.FLOUR_WINE: C.Z_FLOUR_WINE, Stage.CLOTH: C.Z_CLOTH,
}


class Decision(IntEnum):
    """The decision the acting player faces (NONE: nobody decides, the game is over)."""

    NONE = 0
    UPKEEP = 1  # PASS: pay upkeep for the rest; CHOICE_0: release one more worker
    PLACE = 2  # PLACE_*, PLACE_DEV_*, PLACE_PAIR_*, CELL_i; PASS: retire remaining workers
    FOREST_PAIR = 3  # CHOICE_0/1: barnyard capacity 2 / 3
    CROPS_PAIR = 4  # CHOICE_0/1/2: apple / wheat / grape field
    REROLL = 5  # Studies: PASS keep the roll; CHOICE_0 roll again (final)
    TILE = 6  # CELL_i: put the new tile on cell i; PASS: discard it (no empty cell)
    ANIMAL_PRODUCTS = 7  # CHOICE_0: pay $5 for every qualifying product; PASS: skip
    CLOCK_ORDER = 8  # CHOICE_k: the k-th remaining peeked card goes next; PASS: keep the rest
    BAKERY = 9  # CHOICE_0: bake a cake; PASS: skip
    DEVELOPMENT = 10  # CHOICE_k: pay and take the card in display slot k; PASS: decline
    FLOUR_WINE = 11  # CHOICE_0 flour / 1 wine / 2 both (one $5); PASS: skip
    CLOTH = 12  # CHOICE_0: make cloth; PASS: skip
    MILL = 13  # CHOICE_0: 2 wheat -> 1 flour; CHOICE_1: 5 wheat -> 2 flour; PASS: none
    WINE_CELLAR = 14  # CHOICE_0: 1 grape -> 1 wine; PASS: none
    MARKET_TURN = 15  # EST_SLOT_m, CLOSE_SLOT_m, MOVE_TO_BLACK_MARKET; PASS: no sale, go home
    MARKET_SALE = 16  # SELL_g: one more unit; PASS: confirm the sale
    BLACK_MARKET = 17  # SELL_g, BUY_g; PASS: this worker is done


NUM_DECISIONS = len(Decision)

PASS = 0
PLACE0 = 1  # PLACE_<zone> for the 13 placement zones below
PLACE_ZONES = (
    C.Z_FOREST, C.Z_SHEEP, C.Z_SQUARE, C.Z_CROPS, C.Z_COW, C.Z_HENHOUSE, C.Z_APF, C.Z_CLOCK,
    C.Z_BAKERY, C.Z_FLOUR_WINE, C.Z_CLOTH, C.Z_EST_MARKET, C.Z_LOWER_ROAD,
)
PLACE_DEV0 = 14
PLACE_PAIR_FOREST = 19
PLACE_PAIR_CROPS = 20
CELL0 = 21
CHOICE0 = 33
NUM_CHOICES = 4
EST_SLOT0 = 37
CLOSE_SLOT0 = 41
MOVE_TO_BLACK_MARKET = 45
SELL0 = 46
BUY0 = 58
N_ACTIONS = 64

ZONE_PLACE_ACTION = {z: PLACE0 + i for i, z in enumerate(PLACE_ZONES)}
PLACE_ACTION_ZONE = {PLACE0 + i: z for i, z in enumerate(PLACE_ZONES)}
BUY_ACTION_GOOD = {BUY0 + i: g for i, g in enumerate(C.BUYABLE)}
GOOD_BUY_ACTION = {g: BUY0 + i for i, g in enumerate(C.BUYABLE)}
assert BUY0 + len(C.BUYABLE) == N_ACTIONS
assert SELL0 + C.NUM_GOODS == BUY0


def cell(i: int) -> int:
    """Action id of CELL_i."""
    return CELL0 + i


def choice(k: int) -> int:
    """Action id of CHOICE_k."""
    return CHOICE0 + k


def sell(good: int) -> int:
    """Action id of SELL_<good>."""
    return SELL0 + good


def buy(good: int) -> int:
    """Action id of BUY_<good> (only buyable goods have one)."""
    return GOOD_BUY_ACTION[good]


def place(zone: int) -> int:
    """Action id of PLACE_<zone> (not for the development spots)."""
    return ZONE_PLACE_ACTION[zone]


def place_dev(spot: int) -> int:
    """Action id of PLACE_DEV_<spot> (0-4 = N, W, C, E, S)."""
    return PLACE_DEV0 + spot


def action_name(action: int) -> str:
    """The decision-independent name of an action id, e.g. 'PLACE_SHEEP' or 'SELL_COW'."""
    if action == PASS:
        return "PASS"
    if action in PLACE_ACTION_ZONE:
        return f"PLACE_{C.ZONE_KEYS[PLACE_ACTION_ZONE[action]].upper()}"
    if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        return f"PLACE_DEV_{C.DEV_SPOTS[action - PLACE_DEV0]}"
    if action == PLACE_PAIR_FOREST:
        return "PLACE_PAIR_FOREST"
    if action == PLACE_PAIR_CROPS:
        return "PLACE_PAIR_CROPS"
    if CELL0 <= action < CHOICE0:
        return f"CELL_{action - CELL0}"
    if CHOICE0 <= action < EST_SLOT0:
        return f"CHOICE_{action - CHOICE0}"
    if EST_SLOT0 <= action < CLOSE_SLOT0:
        return f"EST_SLOT_{action - EST_SLOT0}"
    if CLOSE_SLOT0 <= action < MOVE_TO_BLACK_MARKET:
        return f"CLOSE_SLOT_{action - CLOSE_SLOT0}"
    if action == MOVE_TO_BLACK_MARKET:
        return "MOVE_TO_BLACK_MARKET"
    if SELL0 <= action < BUY0:
        return f"SELL_{C.GOODS[action - SELL0].upper()}"
    if action in BUY_ACTION_GOOD:
        return f"BUY_{C.GOODS[BUY_ACTION_GOOD[action]].upper()}"
    return f"<unknown action {action}>"


_CHOICE_TEXT = {
    Decision.UPKEEP: ("release one more worker to the supply",),
    Decision.FOREST_PAIR: ("take a barnyard of capacity 2", "take a barnyard of capacity 3"),
    Decision.CROPS_PAIR: ("take an apple field", "take a wheat field", "take a grape field"),
    Decision.REROLL: ("roll again with Studies (the new roll is final)",),
    Decision.ANIMAL_PRODUCTS: ("pay $5 for every product whose animals suffice",),
    Decision.BAKERY: ("bake a cake (1 milk, 2 eggs, $8)",),
    Decision.FLOUR_WINE: (
        "make flour (3 wheat, $5)", "make wine (3 grapes, $5)", "make flour and wine ($5)",
    ),
    Decision.CLOTH: ("make cloth (3 wool, $7)",),
    Decision.MILL: ("Mill: 2 wheat -> 1 flour", "Mill: 5 wheat -> 2 flour"),
    Decision.WINE_CELLAR: ("Wine Cellar: 1 grape -> 1 wine",),
}

_PASS_TEXT = {
    Decision.UPKEEP: "keep the remaining workers and pay their upkeep",
    Decision.PLACE: "place no more workers this round",
    Decision.REROLL: "keep the roll",
    Decision.TILE: "discard the new tile",
    Decision.ANIMAL_PRODUCTS: "skip the factory",
    Decision.CLOCK_ORDER: "keep the remaining cards in their order",
    Decision.BAKERY: "skip the bakery",
    Decision.DEVELOPMENT: "take no development card (pay nothing)",
    Decision.FLOUR_WINE: "skip the factory",
    Decision.CLOTH: "skip the factory",
    Decision.MILL: "do not use the Mill",
    Decision.WINE_CELLAR: "do not use the Wine Cellar",
    Decision.MARKET_TURN: "sell nothing: this worker goes home",
    Decision.MARKET_SALE: "confirm the sale",
    Decision.BLACK_MARKET: "this Black Market worker is done",
}


def describe(state: MiTierraState, action: int) -> str:
    """What `action` would do for the current player in `state`'s decision, in words."""
    decision = state.decision
    if action == PASS:
        return _PASS_TEXT.get(Decision(decision), "pass")
    if action in PLACE_ACTION_ZONE:
        return f"place a worker in the {C.ZONES[PLACE_ACTION_ZONE[action]].name}"
    if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        return f"place a worker on development spot {C.DEV_SPOTS[action - PLACE_DEV0]}"
    if action == PLACE_PAIR_FOREST:
        return "place two workers together in the Forest (choose the barnyard)"
    if action == PLACE_PAIR_CROPS:
        return "place two workers together in Crops (choose the field)"
    if CELL0 <= action < CHOICE0:
        i = action - CELL0
        if decision == Decision.TILE:
            tile = C.TILE_NAMES[state.pending_tile]
            under = state.tiles[state.current_player][i]
            what = "an empty cell" if under == C.EMPTY else f"replacing a {C.TILE_NAMES[under]}"
            return f"put the new {tile} on farm cell {i} ({what})"
        return f"place a worker on own farm cell {i}"
    if CHOICE0 <= action < EST_SLOT0:
        k = action - CHOICE0
        if decision == Decision.CLOCK_ORDER and k < len(state.reorder_left):
            card = C.MARKET_CARDS[state.reorder_left[k]]
            return f"put {card.code} ({card.label()}) next on the market deck"
        if decision == Decision.DEVELOPMENT and state.display[k] >= 0:
            card = C.DEV_CARDS[state.display[k]]
            return f"pay ${state.dev_cost} and take {card.numeral} {card.name}"
        texts = _CHOICE_TEXT.get(Decision(decision), ())
        return texts[k] if k < len(texts) else f"option {k}"
    if EST_SLOT0 <= action < CLOSE_SLOT0:
        m = action - EST_SLOT0
        card = state.est[m] if m < len(state.est) else -1
        label = C.MARKET_CARDS[card].label() if card >= 0 else "empty"
        return f"sell to Established market {m} ({label})"
    if CLOSE_SLOT0 <= action < MOVE_TO_BLACK_MARKET:
        m = action - CLOSE_SLOT0
        card = state.closing[m]
        label = C.MARKET_CARDS[card].label() if card >= 0 else "empty"
        return f"sell to Closing market {m} ({label})"
    if action == MOVE_TO_BLACK_MARKET:
        return "move this worker to the Black Market"
    if SELL0 <= action < BUY0:
        good = C.GOODS[action - SELL0]
        if decision == Decision.BLACK_MARKET:
            return f"sell one {good} at the Black Market"
        return f"add one {good} to the sale"
    if action in BUY_ACTION_GOOD:
        return f"buy one {C.GOODS[BUY_ACTION_GOOD[action]]} at the Black Market"
    return action_name(action)
