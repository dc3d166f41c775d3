"""Every printed number of Finca, as data: the one place to edit to match a physical edition.

The rulebook names the components without printing them; the fruit tiles and finca tiles here are
the published edition's (G-04, G-06 in seeds/finca.md, from shared/rules/
finca_published_components.md), the blade fruits the printed two per fruit (G-01), and where the
dividing lines sit is a decision (G-02).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FRUITS = ("fig", "almond", "olive", "orange", "grape", "lemon")
FRUIT_LETTERS = ("F", "A", "O", "R", "G", "L")  # orange is R so it differs from olive
NUM_FRUITS = len(FRUITS)
FIG, ALMOND, OLIVE, ORANGE, GRAPE, LEMON = range(NUM_FRUITS)

FRUITS_PER_TYPE = 18
NUM_BLADES = 12
NUM_COMMUNITIES = 10
TILES_PER_STACK = 4
NUM_FRUIT_TILES = 42
NUM_FINCA_TILES = 10
FINCA_TILE_POINTS = 5
UNUSED_ACTION_TILE_POINTS = 2
BONUS_VALUES_TOP_FIRST = (7, 6, 5, 4)
TOTAL_CARTS = 8
TOTAL_WOODEN_FINCAS = 6
MAX_FARMERS_PER_COLOUR = 5
NORMAL_DELIVERY_CAP = 6
LARGE_DELIVERY_CAP = 10

# G-02: the two dividing lines sit before blade 0 (line A) and before blade 6 (line B).
# A farmer crosses a line when its path enters one of these blades (G-03).
LINE_BLADES = (0, 6)

# G-01: each fruit is shown by exactly two of the twelve blades, shuffled at setup.
BLADE_FRUITS = tuple(f for f in range(NUM_FRUITS) for _ in range(2))

ACTION_TILES = ("double_move", "gust_of_wind", "large_donkey_cart", "one_fruit_less")
DOUBLE_MOVE, GUST_OF_WIND, LARGE_CART, ONE_FRUIT_LESS = range(4)


@dataclass(frozen=True)
class PlayerCountSetup:
    """The setup numbers that depend on the player count (FIN-06, FIN-09, FIN-11)."""

    farmers_per_player: int
    carts: int
    wooden_fincas: int


SETUP = {
    2: PlayerCountSetup(farmers_per_player=5, carts=4, wooden_fincas=4),
    3: PlayerCountSetup(farmers_per_player=4, carts=6, wooden_fincas=5),
    4: PlayerCountSetup(farmers_per_player=3, carts=8, wooden_fincas=6),
}
PLAYER_COUNTS = tuple(SETUP)


@dataclass(frozen=True)
class FruitTile:
    """A fruit tile: fixed fruit symbols per type, a number of wild (?) symbols, and its value."""

    tile_id: int
    fixed: tuple[int, ...]  # length 6, printed symbols per fruit type
    wild: int  # question-mark symbols, all paid with one fruit type (G-05)
    value: int
    size: int = field(init=False)  # fruits the tile asks for (fixed + wild)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", sum(self.fixed) + self.wild)

    def label(self) -> str:
        """Compact requirement text, e.g. '2F+1A [3]' or '3? [3]'."""
        parts = [f"{n}{FRUIT_LETTERS[f]}" for f, n in enumerate(self.fixed) if n]
        if self.wild:
            parts.append(f"{self.wild}?")
        return "+".join(parts) + f" [{self.value}]"


# G-04: the 42 fruit tiles of the published edition (shared/rules/finca_published_components.md,
# transcribed from the box). Each tile asks for the fruits written (a bare letter is one fruit,
# "?" a wild symbol, all of a tile's "?" paid with one kind, G-05) and is worth as many points as
# it asks fruits. Wild tiles exist only at values 4, 5 and 6; the three 1-of-each tiles are at 6.
PUBLISHED_FRUIT_TILES: dict[int, tuple[str, ...]] = {
    1: ("F", "A", "O", "R", "G", "L"),
    2: ("2F", "2A", "2O", "2R", "2G", "2L"),
    3: ("3F", "3A", "3O", "3R", "3G", "3L"),
    4: ("4?", "4?", "4?", "2A+2F", "2A+2R", "2L+2O", "2F+2L", "2G+2O", "2G+2R"),
    5: ("5?", "5?", "5?", "3A+2G", "3F+2O", "3L+2R", "2F+3R", "2A+3O", "3G+2L"),
    6: ("6?", "6?", "6?", "F+A+O+R+G+L", "F+A+O+R+G+L", "F+A+O+R+G+L"),
}


_TERM = re.compile(r"^(\d*)([FAORGL?])$")


def parse_requirement(text: str) -> tuple[tuple[int, ...], int]:
    """'2A+2F' -> (printed fruits per type, wild symbols); a term without a count means one."""
    fixed = [0] * NUM_FRUITS
    wild = 0
    for term in text.replace(" ", "").upper().split("+"):
        match = _TERM.match(term)
        if not match:
            raise ValueError(
                f"bad tile term {term!r} in {text!r}: use a count and a letter of "
                f"{''.join(FRUIT_LETTERS)}? such as '2A', 'F' or '4?'"
            )
        count = int(match.group(1) or 1)
        if match.group(2) == "?":
            wild += count
        else:
            fixed[FRUIT_LETTERS.index(match.group(2))] += count
    return tuple(fixed), wild


def _published_catalogue() -> tuple[FruitTile, ...]:
    """The printed tiles in the order of the published list: ids 0-5 are the value-1 tiles, and
    so on up to the three 1-of-each tiles, ids 39-41."""
    tiles: list[FruitTile] = []
    for value, requirements in PUBLISHED_FRUIT_TILES.items():
        for text in requirements:
            fixed, wild = parse_requirement(text)
            tiles.append(FruitTile(len(tiles), fixed, wild, value))
    return tuple(tiles)


FRUIT_TILES: tuple[FruitTile, ...] = _published_catalogue()


def _kinds(tiles: tuple[FruitTile, ...]) -> tuple[tuple[FruitTile, ...], tuple[int, ...]]:
    """The distinct tiles (first copy of each, in id order) and each tile id's kind index."""
    first: dict[tuple[tuple[int, ...], int, int], int] = {}
    kinds: list[FruitTile] = []
    for t in tiles:
        key = (t.fixed, t.wild, t.value)
        if key not in first:
            first[key] = len(kinds)
            kinds.append(t)
    return tuple(kinds), tuple(first[(t.fixed, t.wild, t.value)] for t in tiles)


# Copies of one printed tile are interchangeable: the observation counts unseen tiles per kind.
FRUIT_TILE_KINDS, TILE_KIND = _kinds(FRUIT_TILES)
KIND_COPIES = tuple(TILE_KIND.count(k) for k in range(len(FRUIT_TILE_KINDS)))
# Upper bounds of what one player can hold, for scaling observations into [0, 1].
MAX_TILES_OF_ONE_VALUE = max(
    sum(1 for t in FRUIT_TILES if t.value == v) for v in range(1, 7)
)
MAX_PRINTED_OF_ONE_FRUIT = max(sum(t.fixed[f] for t in FRUIT_TILES) for f in range(NUM_FRUITS))
TOTAL_WILD_SYMBOLS = sum(t.wild for t in FRUIT_TILES)


@dataclass(frozen=True)
class FincaTile:
    """A finca tile: the fruit types whose printed symbols decide it, or universal (face values)."""

    tile_id: int
    fruits: tuple[int, ...]  # empty for the universal tile
    universal: bool = False

    def label(self) -> str:
        """Compact text, e.g. 'O', 'F+A' or 'ALL'."""
        if self.universal:
            return "ALL"
        return "+".join(FRUIT_LETTERS[f] for f in self.fruits)


# G-06: the ten printed finca tiles: one per fruit, the pairs almond + fig, grape + orange and
# lemon + olive, and the universal "?" tile (decided by face values, FIN-39).
FINCA_TILES: tuple[FincaTile, ...] = (
    *(FincaTile(f, (f,)) for f in range(NUM_FRUITS)),
    FincaTile(6, (ALMOND, FIG)),
    FincaTile(7, (GRAPE, ORANGE)),
    FincaTile(8, (LEMON, OLIVE)),
    FincaTile(9, (), universal=True),
)

assert len(FRUIT_TILES) == NUM_FRUIT_TILES
assert all(t.value == t.size for t in FRUIT_TILES)
assert len(FINCA_TILES) == NUM_FINCA_TILES
assert len(BLADE_FRUITS) == NUM_BLADES
