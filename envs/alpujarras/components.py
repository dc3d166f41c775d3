"""Every printed number of Alpujarras, as data: the one place to edit to match a physical edition.

The rulebook prints the rules but not the board art, the action tracks, the token values, the goal
and award rewards or the zakat cards. Where it is silent the values below are decisions recorded
with their reasons in seeds/alpujarras.md (G-01, G-02, G-03, G-04, G-05, G-06, G-07, G-08, G-09,
G-10, G-11, G-12, G-13, G-14, G-15, G-16, G-17, ZG-09, ZG-12); the code reads every number from
here, so real component data replaces these without code changes.

Ids used everywhere: farmland/town/fruit i (farmland i's primary fruit is fruit i); channel
spaces 0 … 14; goal cards 0 … 4 showing goal 2k or 2k+1; zakat cards 0 … 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

# --- farmlands, towns and fruit (G-01, G-02, G-03) ---------------------------------------------

FARMLANDS = ("green", "red", "yellow", "orange", "purple")  # clockwise around the board
FRUITS = ("apple", "cherry", "lemon", "orange", "grape")
FRUIT_LETTERS = ("A", "C", "L", "O", "G")
FARMLAND_LETTERS = ("g", "r", "y", "o", "p")
NUM_FARMLANDS = len(FARMLANDS)
NUM_FRUITS = len(FRUITS)
NUM_TOWNS = NUM_FARMLANDS  # town i accompanies farmland i (D12)
APPLE, CHERRY, LEMON, ORANGE, GRAPE = range(NUM_FRUITS)
GREEN, RED, YELLOW, ORANGE_LAND, PURPLE = range(NUM_FARMLANDS)

# The fruit shown by the sickle next to each farmland (D2, D3, D4).
PRIMARY = (APPLE, CHERRY, LEMON, ORANGE, GRAPE)

# G-02: printed fields per farmland, primary first; with D1 the orange farmland grows lemons,
# oranges and grapes.
PRINTED_FIELDS = (
    (APPLE, GRAPE, CHERRY),
    (CHERRY, APPLE, LEMON),
    (LEMON, CHERRY, ORANGE),
    (ORANGE, LEMON, GRAPE),
    (GRAPE, ORANGE, APPLE),
)
EMPTY_FIELDS = 2  # G-03: irrigable fields per farmland, empty until a channel leads to them

# --- supplies and caps (ALP-02, ALP-26, ALP-62, ALP-70, ALP-71) -------------------------------

FARMERS_PER_PLAYER = 15
FRUIT_PER_KIND = 25
FRUIT_CAP = 5  # per kind, per player
NORIA_CAP = 5
CROPS_PER_KIND = 3  # crop tokens in the bag (ALP-09)
NUM_CHANNEL_TOKENS = 15
MAX_MARKET_ACTIONS = 5  # ALP-41
DIE_SIDES = 6
MAX_SEATS = 4

# ALP-61: norias spent -> (what it buys, dirhems earned).
NORIA_SPEND = {
    5: ("place", 2),
    4: ("place", 1),
    3: ("place", 0),
    2: ("move", 0),
    1: ("swap", 0),
}

# --- channel network (G-04, G-05) --------------------------------------------------------------


@dataclass(frozen=True)
class Channel:
    """One channel space: its shape, the two farmlands it touches, the space it must follow
    (-1: it touches a printed starting channel), and what it covers or leads to."""

    cid: int
    shape: str  # "rect" or "T"
    farmlands: tuple[int, int]
    requires: int
    field: tuple[int, int] | None  # (farmland, empty-field slot) it leads to
    dirhem: bool


def _channels() -> tuple[Channel, ...]:
    """Five radial chains of three spaces, one along each border between neighbours (G-04)."""
    out = []
    for b in range(NUM_FARMLANDS):
        a, c = b, (b + 1) % NUM_FARMLANDS
        out.append(Channel(3 * b, "rect", (a, c), -1, None, True))
        out.append(Channel(3 * b + 1, "T", (a, c), 3 * b, (a, 0), False))
        out.append(Channel(3 * b + 2, "rect", (a, c), 3 * b + 1, (c, 1), False))
    return tuple(out)


CHANNELS: tuple[Channel, ...] = _channels()
NUM_CHANNELS = len(CHANNELS)

# --- action tracks --------------------------------------------------------------------------------
# (G-07, G-08, G-09, G-10, G-11)

GO, MARKET, HARVEST, END = "go", "market", "harvest", "end"
STANDARD = "standard"


@dataclass(frozen=True)
class Icons:
    """The action icons of one standard space (ALP-23, ALP-24, ALP-25, ALP-26, ALP-27, ALP-28,
    ALP-29, ALP-30, ALP-31, ALP-32, ALP-33, ALP-34, ALP-35, ALP-36).

    place: farmers to place (P = 1, P2 = 2); place_farmland: -1 for any farmland, else the
    farmland a coloured space names; the other fields count icons of their kind.
    """

    place: int = 0
    place_farmland: int = -1
    move: int = 0
    irrigate: int = 0
    norias: int = 0
    fruit: int = 0
    dirhems: int = 0

    @property
    def p2(self) -> bool:
        """A 'place 2 farmers' icon: the ALP-27 same-fruit rule applies to its two placements."""
        return self.place == 2

    def label(self) -> str:
        """The icon notation of seeds/alpujarras.md, e.g. 'P:green+N' or 'D2'."""
        parts = []
        if self.place:
            if self.place_farmland >= 0:
                parts.append(f"P:{FARMLANDS[self.place_farmland]}")
            else:
                parts.append("P2" if self.place == 2 else "P")
        for letter, count in (("M", self.move), ("I", self.irrigate), ("N", self.norias),
                              ("F", self.fruit), ("D", self.dirhems)):
            if count:
                parts.append(letter if count == 1 else f"{letter}{count}")
        return "+".join(parts)


@lru_cache(maxsize=256)
def parse_icons(text: str) -> Icons:
    """'P:green+N' -> Icons(place=1, place_farmland=0, norias=1); raises ValueError on bad text."""
    fields = {"place": 0, "place_farmland": -1, "move": 0, "irrigate": 0, "norias": 0,
              "fruit": 0, "dirhems": 0}
    keys = {"M": "move", "I": "irrigate", "N": "norias", "F": "fruit", "D": "dirhems"}
    for token in text.split("+"):
        if token.startswith("P:"):
            fields["place"] += 1
            fields["place_farmland"] = FARMLANDS.index(token[2:])
        elif token in ("P", "P2"):
            fields["place"] += 1 if token == "P" else 2
        elif token[:1] in keys and (token[1:] == "" or token[1:].isdigit()):
            fields[keys[token[0]]] += int(token[1:] or 1)
        else:
            raise ValueError(f"bad icon {token!r} in {text!r}")
    if fields["place"] > 2:
        raise ValueError(f"{text!r}: at most one place icon (P, P2 or P:colour) per space")
    return Icons(**fields)


@dataclass(frozen=True)
class Segment:
    """One action-track segment: its type and its standard spaces in track order; a market or
    harvest segment ends with its special space. `four_only` marks spaces printed only on the
    4-player (green-border) side (ALP-03)."""

    name: str
    kind: str
    spaces: tuple[tuple[str, bool], ...]  # (icon text, on the 4-player side only)


# G-07: the segment catalogue (the market or harvest space is the segment's last space). Every
# standard space of the 2-3 player side beyond the go segment shows two kinds of icon, one of them
# a place or a fruit: the solo game gives about one stop per segment (the player must pass the
# die, which halts on every market and harvest space), and each stop must feed a delivery or a
# zakat (ZG-09 has the figures).
SEGMENTS: tuple[Segment, ...] = (
    Segment("GO", GO, (("P", False), ("I", False))),
    Segment("MA", MARKET, (("P+F", False), ("I+P", False), ("P+N", True), ("P+D2", False))),
    Segment("MB", MARKET, (("P:green+F", False), ("M+F", True), ("I+D", False),
                           ("P+F", False))),
    Segment("MC", MARKET, (("P2+F", False), ("I+P", False), ("F2", True), ("P+N", False))),
    Segment("MD", MARKET, (("P:red+F", False), ("I+N", False), ("M", True), ("P+D", False))),
    Segment("HA", HARVEST, (("P+F", False), ("I+P", False), ("P+N", True), ("P+M", False))),
    Segment("HB", HARVEST, (("P:yellow+F", False), ("F+D", True), ("I+P", False),
                            ("P+F", False))),
    Segment("HC", HARVEST, (("P2+F", False), ("M+N", True), ("I+P", False), ("P+D2", False))),
    Segment("HD", HARVEST, (("P:orange+F", False), ("I+P", False), ("F+N", True),
                            ("P:purple+F", False))),
    Segment("END", END, ()),
)
SEGMENT_NAMES = tuple(s.name for s in SEGMENTS)
GO_SEGMENT = SEGMENT_NAMES.index("GO")
END_SEGMENT = SEGMENT_NAMES.index("END")
MARKET_SEGMENTS = tuple(i for i, s in enumerate(SEGMENTS) if s.kind == MARKET)
HARVEST_SEGMENTS = tuple(i for i, s in enumerate(SEGMENTS) if s.kind == HARVEST)

# G-10: end-space ratios (fruit per dirhem), nearest first; the furthest is 3 : 1 (D6).
END_RATIOS = {False: (5, 4, 3), True: (6, 5, 4, 3)}  # keyed by "4-player side"


def four_player_side(num_players: int) -> bool:
    """ALP-03: 4 players use the green-border sides; 1-3 players (solo included) the blue ones."""
    return num_players == 4


@dataclass(frozen=True)
class Space:
    """One space of the assembled track."""

    index: int
    kind: str  # STANDARD, MARKET, HARVEST or END
    segment: int
    icons: Icons
    ratio: int = 0  # end spaces: fruit per dirhem


# space kinds as small ints, for the hot paths (Track.kinds)
K_STANDARD, K_MARKET, K_HARVEST, K_END, K_START = range(5)
KIND_IDS = {STANDARD: K_STANDARD, MARKET: K_MARKET, HARVEST: K_HARVEST, END: K_END}


class Track(tuple):
    """The assembled track: a tuple of `Space`s plus derived lookup tables for the hot paths.

    Each table has one entry per space and one more at the end for the start spots, so that
    `table[pos]` also answers for pos = -1: `kinds` (K_* ints, K_START for the start spots),
    `is_end`, `special` (market or harvest), `single` (standard or end: one piece only) and
    `next_special` (the first market or harvest space after it, -1 if none), `standard_after`
    (where the standard spaces after it begin in `standard`, the standard spaces in order).
    `end_start` is the first end space (the length when there is none); `icon_values` and `pays`
    give each space's icons as a tuple and the dirhems it pays on arrival."""

    kinds: tuple[int, ...]
    is_end: tuple[bool, ...]
    special: tuple[bool, ...]
    single: tuple[bool, ...]
    next_special: tuple[int, ...]
    end_start: int
    standard: tuple[int, ...]
    standard_after: tuple[int, ...]
    icon_values: tuple[tuple[int, ...], ...]
    pays: tuple[int, ...]

    def __new__(cls, spaces: list[Space], icon_values: list[tuple]) -> Track:
        track = super().__new__(cls, spaces)
        kinds = [KIND_IDS[sp.kind] for sp in spaces]
        track.kinds = (*kinds, K_START)
        track.is_end = tuple([k == K_END for k in track.kinds])
        track.special = tuple([k in (K_MARKET, K_HARVEST) for k in track.kinds])
        track.single = tuple([k in (K_STANDARD, K_END) for k in track.kinds])
        nxt = [-1] * (len(spaces) + 1)
        ahead = -1
        for s in range(len(spaces) - 1, -2, -1):
            nxt[s] = ahead  # s = -1 writes the extra last entry
            if s >= 0 and track.special[s]:
                ahead = s
        track.next_special = tuple(nxt)
        track.end_start = kinds.index(K_END) if K_END in kinds else len(spaces)
        # the standard spaces in order, and per space (and the start) where those after it begin
        track.standard = tuple([s for s, k in enumerate(kinds) if k == K_STANDARD])
        after = []
        count = 0
        for k in kinds:
            count += k == K_STANDARD
            after.append(count)
        after.append(0)
        track.standard_after = tuple(after)
        # per space: its icons as (place, place_farmland, p2, move, irrigate, norias, fruit,
        # dirhems) and the dirhems it pays on arrival
        track.icon_values = tuple(icon_values)
        track.pays = tuple([v[7] for v in icon_values])
        return track


def _icon_values(icons: Icons) -> tuple:
    return (icons.place, icons.place_farmland, icons.p2, icons.move, icons.irrigate,
            icons.norias, icons.fruit, icons.dirhems)


@cache
def _segment_spaces(seg_id: int, four_players: bool) -> tuple[tuple[str, Icons, int], ...]:
    """(kind, icons, ratio) of each target space a segment puts on one side of the track."""
    seg = SEGMENTS[seg_id]
    empty = Icons()
    if seg.kind == END:
        return tuple((END, empty, ratio) for ratio in END_RATIOS[four_players])
    out = [(STANDARD, parse_icons(text), 0) for text, four_only in seg.spaces
           if four_players or not four_only]
    if seg.kind in (MARKET, HARVEST):
        out.append((seg.kind, empty, 0))
    return tuple(out)


@cache  # one per space index, segment, place in it and side: a few hundred
def _space(index: int, seg_id: int, j: int, four_players: bool) -> tuple[Space, tuple]:
    """The `Space` at `index` that is the j-th of its segment, and its icon values."""
    kind, icons, ratio = _segment_spaces(seg_id, four_players)[j]
    return Space(index, kind, seg_id, icons, ratio), _icon_values(icons)


@lru_cache(maxsize=4096)  # 4! x 4! segment orders x 2 sides fit
def build_track(layout: tuple[int, ...], four_players: bool) -> Track:
    """The track's target spaces in order for a segment order `layout` and a side (G-07)."""
    spaces: list[Space] = []
    values: list[tuple] = []
    for seg_id in layout:
        for j in range(len(_segment_spaces(seg_id, four_players))):
            space, icon_values = _space(len(spaces), seg_id, j, four_players)
            spaces.append(space)
            values.append(icon_values)
    return Track(spaces, values)


# G-11: go first, then market and harvest segments alternating with a market segment first.
MARKET_FIRST = True
START_SPOTS = {False: 3, True: 4}  # G-09: start spots behind space 0, by side


def track_length(four_players: bool) -> int:
    """Target spaces on one side of the tracks (37 for 1-3 players, 46 for 4 by default)."""
    layout = (GO_SEGMENT, *MARKET_SEGMENTS, *HARVEST_SEGMENTS, END_SEGMENT)
    return len(build_track(layout, four_players))


MAX_SPACES = max(track_length(False), track_length(True))

# --- delivery tokens and awards -------------------------------------------------------------------
# (ALP-05, ALP-06, ALP-07, G-12, G-13, G-14)

TOKEN_VALUES = (2, 2, 3, 4, 5)  # fruit side, per fruit kind (G-12); dirhems = value - 1 (D7)
TOKEN_VALUE_RANGE = (2, 3, 4, 5)
REMOVED_FOR_SMALL_GAMES = 2  # ALP-05: one token of this value per fruit leaves a 1-3 player game
TOKENS_PER_TOWN = {1: 4, 2: 4, 3: 4, 4: 5}  # ALP-06, ZARA-01
MIN_KINDS_PER_TOWN = 3
MAX_TOKENS_PER_TOWN = max(TOKENS_PER_TOWN.values())


def token(fruit: int, value: int) -> int:
    """A delivery token as one int: 10 × fruit + value (apple-3 = 3, grape-5 = 45)."""
    return 10 * fruit + value


def token_fruit(tok: int) -> int:
    """The fruit kind of a delivery token."""
    return tok // 10


def token_value(tok: int) -> int:
    """The fruit value of a delivery token (fruit it asks for)."""
    return tok % 10


def token_dirhems(tok: int) -> int:
    """ALP-66: a token's dirhem side is its fruit value minus one."""
    return tok % 10 - 1


def token_label(tok: int) -> str:
    """'cherry-4' for the cherry token of value 4."""
    return f"{FRUITS[tok // 10]}-{tok % 10}"


ALL_TOKENS = tuple(token(f, v) for f in range(NUM_FRUITS) for v in TOKEN_VALUES)

# G-14: per award token, (green reward, red reward) in dirhems; D9 attests 2 / 1. The tokens are
# shuffled onto the towns at setup (state.award_ids).
AWARDS = ((2, 1),) * NUM_TOWNS
AWARD_GREEN, AWARD_RED, AWARD_GONE = 0, 1, 2

# --- goals ----------------------------------------------------------------------------------------
# (ALP-51, ALP-52, ALP-53, ALP-54, ALP-55, ALP-56, ALP-57, ALP-58, ALP-59, ALP-60, G-15)

GOALS = (
    "5 identical fruit",
    "5 different fruit",
    "3 identical delivery tokens",
    "3 different delivery tokens",
    "2 farmers in 2 farmlands",
    "3 farmers in 1 farmland",
    "delivery token sequence 2-5",
    "three 2-tokens or three 3-tokens",
    "a farmer in 4 different towns",
    "2 farmers in 2 different towns",
)
NUM_GOALS = len(GOALS)
GOAL_REWARDS = (3, 3, 4, 3, 3, 3, 5, 4, 5, 5)  # dirhems; goal 4 pays 3 (D8)
NUM_GOAL_CARDS = 5  # card k shows goal 2k or goal 2k + 1


def card_goal(card: int, side: int) -> int:
    """The goal id card `card` shows on `side` (0 or 1)."""
    return 2 * card + side


# --- solo game: zakat cards and double turns (ZARA-02, ZARA-05, ZARA-22, ZG-09, ZG-12) ---------


@dataclass(frozen=True)
class Zakat:
    """What paying one side of a zakat card costs: one fruit of each listed kind, norias,
    dirhems and, with the crossed-out farmer icon, one farmer from a farmland back to supply."""

    fruits: tuple[int, ...]
    norias: int = 0
    dirhems: int = 0
    farmer: bool = False

    def label(self) -> str:
        """'orange + lemon + a farmer' (the zakat table of seeds/alpujarras.md)."""
        parts = [FRUITS[f] for f in self.fruits]
        if self.norias:
            parts.append(f"{self.norias} noria{'s' if self.norias > 1 else ''}")
        if self.dirhems:
            parts.append(f"{self.dirhems} dirhem{'s' if self.dirhems > 1 else ''}")
        if self.farmer:
            parts.append("a farmer")
        return " + ".join(parts)


# (plain side, star side) per card. Plain Z0 is the rulebook's example (D10); every other plain
# side asks two fruit, so the plain cards together ask each kind twice. A star side adds a third
# fruit (each kind three times over the five star sides) and 2 norias or 2 dirhems (Z0: the
# farmer); see ZG-09 for how these were tuned.
ZAKAT_CARDS = (
    (Zakat((ORANGE, LEMON), farmer=True), Zakat((ORANGE, LEMON, APPLE), farmer=True)),
    (Zakat((APPLE, CHERRY)), Zakat((APPLE, CHERRY, GRAPE), norias=2)),
    (Zakat((GRAPE, APPLE)), Zakat((GRAPE, APPLE, LEMON), dirhems=2)),
    (Zakat((CHERRY, LEMON)), Zakat((CHERRY, LEMON, ORANGE), norias=2)),
    (Zakat((GRAPE, ORANGE)), Zakat((GRAPE, ORANGE, CHERRY), dirhems=2)),
)
NUM_ZAKAT_CARDS = len(ZAKAT_CARDS)
DOUBLE_TURNS_DEFAULT = 3
DOUBLE_TURNS_RANGE = tuple(range(0, 6))  # ZG-12
STAR_SIDES_RANGE = tuple(range(0, NUM_ZAKAT_CARDS + 1))
SOLO_CONDITION_PENALTY = 20  # score_margin reward on a solo loss by conditions (see rewards)
SOLO_DUTY_POTENTIAL = 4  # solo reward shaping: points of potential per duty met (see state)

PLAYER_COUNTS = (1, 2, 3, 4)  # 1 = the solo game against Zara


def _validate() -> None:
    assert len(PRIMARY) == NUM_FARMLANDS and sorted(PRIMARY) == list(range(NUM_FRUITS))
    for f, fields in enumerate(PRINTED_FIELDS):
        assert fields[0] == PRIMARY[f]
    assert len(CHANNELS) == NUM_CHANNEL_TOKENS
    targets = [c.field for c in CHANNELS if c.field is not None]
    assert len(set(targets)) == len(targets) == NUM_FARMLANDS * EMPTY_FIELDS
    assert len(SEGMENTS) == 10 and len(MARKET_SEGMENTS) == len(HARVEST_SEGMENTS) == 4
    for seg in SEGMENTS:
        for text, _ in seg.spaces:
            parse_icons(text)
    for n, per_town in TOKENS_PER_TOWN.items():
        tokens = len(ALL_TOKENS) - (NUM_FRUITS if n < 4 else 0)
        assert per_town * NUM_TOWNS == tokens, n
    assert len(GOAL_REWARDS) == NUM_GOALS == 2 * NUM_GOAL_CARDS
    for four in (False, True):
        assert len(END_RATIOS[four]) == START_SPOTS[four]
        assert END_RATIOS[four][-1] == 3


_validate()
