"""Every printed number of Finca, as data: the one place to edit to match a physical edition.

Where the rulebook does not print a number (the blade fruits, the fruit-tile catalogue, the finca
tiles) the values here are decisions recorded in seeds/finca.md (G-01, G-04, G-06).
"""

from __future__ import annotations

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


def _standard_catalogue() -> tuple[FruitTile, ...]:
    """The symmetric 42-tile catalogue of G-04: 7 tiles per value 1-6, value = fruits asked.

    Tile id = 7*(value-1) + k; k = 0..5 are fixed tiles built on fruit i = k, k = 6 is all-wild.
    """
    patterns = {
        1: lambda i: {i: 1},
        2: lambda i: {i: 1, (i + 1) % 6: 1},
        3: lambda i: {i: 3},
        4: lambda i: {i: 2, (i + 2) % 6: 2},
        5: lambda i: {f: 1 for f in range(NUM_FRUITS) if f != i},
        6: lambda i: {i: 3, (i + 1) % 6: 2, (i + 2) % 6: 1},
    }
    tiles = []
    for value in range(1, 7):
        for k in range(6):
            counts = patterns[value](k)
            fixed = tuple(counts.get(f, 0) for f in range(NUM_FRUITS))
            tiles.append(FruitTile(len(tiles), fixed, 0, value))
        tiles.append(FruitTile(len(tiles), (0,) * NUM_FRUITS, value, value))
    return tuple(tiles)


FRUIT_TILES: tuple[FruitTile, ...] = _standard_catalogue()


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


# G-06: one single-fruit tile per fruit, three two-fruit tiles and one universal tile.
FINCA_TILES: tuple[FincaTile, ...] = (
    *(FincaTile(f, (f,)) for f in range(NUM_FRUITS)),
    FincaTile(6, (FIG, ALMOND)),
    FincaTile(7, (OLIVE, ORANGE)),
    FincaTile(8, (GRAPE, LEMON)),
    FincaTile(9, (), universal=True),
)

assert len(FRUIT_TILES) == NUM_FRUIT_TILES
assert len(FINCA_TILES) == NUM_FINCA_TILES
assert len(BLADE_FRUITS) == NUM_BLADES
