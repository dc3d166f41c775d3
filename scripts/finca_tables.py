"""Print (or rewrite) the generated tables of seeds/finca.md from the Finca code.

Every table in seeds/finca.md that restates a number of the code sits between two markers,

    <!-- generated: NAME (scripts/finca_tables.py) -->
    ...the table...
    <!-- end: NAME -->

and is produced by one function below. tests/finca/test_spec_document.py fails when a block in
the document differs from this script's output, so after changing components.py, actions.py or
observation.py a maintainer runs

    .venv/bin/python scripts/finca_tables.py            # print every table
    .venv/bin/python scripts/finca_tables.py actions    # print one table
    .venv/bin/python scripts/finca_tables.py --write    # rewrite the blocks in seeds/finca.md
    .venv/bin/python scripts/finca_tables.py --check    # exit 1 if the document is stale

Descriptions that the code cannot supply (what an action means, what an observation block holds)
live here, keyed by name: a new action kind, phase or observation block without a description
makes this script fail, so the document cannot silently fall behind.

The markers, the markdown helpers, --write/--check and the command line are shared with the
other games' scripts in scripts/spec_tables.py (imported from this script's own folder, see
there); this script holds only the Finca tables and their descriptions.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from huerta.envs.finca import components as C
from huerta.envs.finca.actions import (
    COMM0,
    CONFIRM,
    DELIVER,
    FRUIT0,
    N_ACTIONS,
    PLAY_DOUBLE,
    PLAY_GUST,
    PLAY_LARGE,
    PLAY_ONELESS,
    Phase,
    action_name,
)
from huerta.envs.finca.observation import (
    COMMUNITY_BLOCK,
    COMMUNITY_FIELDS,
    MAX_SEATS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAYER_BLOCK,
    PLAYER_FIELDS,
)

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:  # scripts/ is not a package; see scripts/spec_tables.py
    sys.path.insert(0, _HERE)
from spec_tables import SpecTables, fields_table, table  # noqa: E402

ALL_PHASES = "INTRO, MAIN, DM_MOVE_1, DM_MOVE_2, GUST_SOURCE, GUST_TARGET"


# --- component data ---------------------------------------------------------------------------

def players_table() -> list[str]:
    """FIN-06, FIN-09, FIN-11 and what follows from them, per player count."""
    rows = []
    for n, s in C.SETUP.items():
        on_windmill = n * s.farmers_per_player
        rows.append((n, s.farmers_per_player, on_windmill, s.carts, s.wooden_fincas, on_windmill))
    header = (
        "players", "farmers per player", "farmers on the windmill", "donkey carts in play",
        "wooden fincas", "intro placements",
    )
    return table(header, rows)


def numbers_table() -> list[str]:
    """The fixed numbers of components.py."""
    names = (
        ("NUM_BLADES", "windmill blades"),
        ("NUM_COMMUNITIES", "communities (fruit-tile stacks)"),
        ("TILES_PER_STACK", "fruit tiles per stack at setup"),
        ("NUM_FRUIT_TILES", "fruit tiles in the catalogue (10 x 4 dealt, 2 boxed)"),
        ("NUM_FINCA_TILES", "finca tiles"),
        ("FRUITS_PER_TYPE", "fruits of each of the 6 types"),
        ("TOTAL_CARTS", "donkey carts in the box"),
        ("TOTAL_WOODEN_FINCAS", "wooden fincas in the box"),
        ("MAX_FARMERS_PER_COLOUR", "farmers per colour in the box"),
        ("NORMAL_DELIVERY_CAP", "fruits per delivery"),
        ("LARGE_DELIVERY_CAP", "fruits per Large donkey cart delivery"),
        ("FINCA_TILE_POINTS", "points per finca tile"),
        ("UNUSED_ACTION_TILE_POINTS", "points per unused action tile"),
    )
    rows = [(f"`{k}`", getattr(C, k), meaning) for k, meaning in names]
    return table(("constant", "value", "meaning"), rows)


def windmill_table() -> list[str]:
    """G-01/G-02: the blade multiset and the dividing lines."""
    per_fruit = {f: C.BLADE_FRUITS.count(f) for f in range(C.NUM_FRUITS)}
    rows = [
        (C.FRUITS[f], C.FRUIT_LETTERS[f], f, per_fruit[f]) for f in range(C.NUM_FRUITS)
    ]
    return table(("fruit", "letter", "index", "blades showing it"), rows)


def line_blades_text() -> list[str]:
    blades = ", ".join(str(b) for b in C.LINE_BLADES)
    return [f"Blades that earn a cart when entered (`LINE_BLADES`): **{blades}**."]


def fruit_tiles_table() -> list[str]:
    """G-04: the 42 published tiles; the requirement is FruitTile.label() without its value, beside
    the text of the published list it was parsed from."""
    printed = [text for texts in C.PUBLISHED_FRUIT_TILES.values() for text in texts]
    rows = []
    for t, text in zip(C.FRUIT_TILES, printed, strict=True):
        requirement = t.label().rsplit(" [", 1)[0]
        rows.append((t.tile_id, f"`{text}`", requirement, t.size, t.value, C.TILE_KIND[t.tile_id]))
    return table(("id", "published as", "requirement", "fruits asked", "value", "kind"), rows)


def fruit_tiles_by_value_table() -> list[str]:
    """G-04 summarised as the published list prints it: the tiles of each value."""
    rows = []
    for value, texts in C.PUBLISHED_FRUIT_TILES.items():
        wild = sum(1 for text in texts if "?" in text)
        rows.append((value, len(texts), wild, ", ".join(f"`{text}`" for text in texts)))
    return table(("value", "tiles", "of them wild", "published as"), rows)


def finca_tiles_table() -> list[str]:
    """G-06: the ten finca tiles."""
    rows = []
    for t in C.FINCA_TILES:
        if t.universal:
            decides = "sum of face values of each player's fruit tiles (FIN-39)"
        else:
            names = " + ".join(C.FRUITS[f] for f in t.fruits)
            decides = f"printed {names} symbols on each player's fruit tiles"
        rows.append((t.tile_id, t.label(), decides, C.FINCA_TILE_POINTS))
    return table(("id", "tile", "majority decided by", "points"), rows)


def scoring_table() -> list[str]:
    """FIN-43 and the bonus stack (FIN-10, FIN-40)."""
    bonus = ", ".join(str(v) for v in C.BONUS_VALUES_TOP_FIRST)
    rows = [
        ("fruit tiles won", "face value of each (1-6)"),
        ("finca tiles won", f"{C.FINCA_TILE_POINTS} each"),
        ("unused action tiles", f"{C.UNUSED_ACTION_TILE_POINTS} each"),
        ("bonus tiles", f"face value; the stack hands out {bonus} (top first)"),
        ("fruits and carts still held", "0 (they only break ties, FIN-45)"),
    ]
    return table(("source", "points"), rows)


# --- actions and phases -----------------------------------------------------------------------

_ACTION_KINDS: dict[str, tuple[str, str]] = {
    # kind: (phases where it can be legal, meaning with {x} for the argument)
    "BLADE": (
        ALL_PHASES,
        "INTRO: place a farmer on blade {x}; MAIN, DM_MOVE_1/2: move an own farmer from it; "
        "GUST_SOURCE: pick up an own farmer there; GUST_TARGET: put the Gust farmer there",
    ),
    "COMM": ("DELIVER_SELECT", "add community {x}'s face-up tile to the delivery"),
    "FRUIT": (
        "DELIVER_WILD, DELIVER_OMIT",
        "DELIVER_WILD: pay the pending tile's wild symbols with {x}; "
        "DELIVER_OMIT: leave one {x} out (One fruit less)",
    ),
    "DELIVER": ("MAIN", "start a delivery with a donkey cart (cap 6)"),
    "PLAY_DOUBLE": ("MAIN", "play Double move (two moves follow)"),
    "PLAY_GUST": ("MAIN", "play Gust of wind (pick a farmer, then its new blade)"),
    "PLAY_LARGE": ("MAIN", "play Large donkey cart: a delivery with cap 10 and no cart"),
    "PLAY_ONELESS": ("MAIN", "play One fruit less: a cart delivery, cap 6, one fruit omitted"),
    "CONFIRM": ("DELIVER_SELECT", "hand the selected tiles over and resolve the delivery"),
}


def action_kind(action: int) -> tuple[str, str]:
    """('BLADE', '3') for BLADE(3), ('CONFIRM', '') for CONFIRM."""
    name = action_name(action)
    m = re.fullmatch(r"(\w+)\((\w+)\)", name)
    return (m.group(1), m.group(2)) if m else (name, "")


def actions_table() -> list[str]:
    """One row per action id: the flat Discrete(34) space."""
    rows = []
    for a in range(N_ACTIONS):
        kind, arg = action_kind(a)
        phases, meaning = _ACTION_KINDS[kind]
        rows.append((a, f"`{action_name(a)}`", phases, meaning.format(x=arg)))
    return table(("id", "name", "legal in phases", "meaning"), rows)


_PHASES: dict[str, tuple[str, str]] = {
    # phase: (who decides, the ids that can be legal)
    "INTRO": ("each player in turn places a farmer", "all 12 BLADE ids"),
    "MAIN": (
        "the player whose turn it is picks the turn's option",
        "BLADE ids of blades holding an own farmer; DELIVER; the PLAY ids of unused tiles",
    ),
    "DM_MOVE_1": ("Double move, first move", "BLADE ids of blades holding an own farmer"),
    "DM_MOVE_2": ("Double move, second move", "BLADE ids of blades holding an own farmer"),
    "GUST_SOURCE": ("Gust of wind: which farmer", "BLADE ids of blades holding an own farmer"),
    "GUST_TARGET": ("Gust of wind: where to", "every BLADE id except the source blade"),
    "DELIVER_SELECT": (
        "delivery: next community or finish",
        "COMM ids of payable, not yet chosen communities; CONFIRM once a tile is chosen",
    ),
    "DELIVER_WILD": (
        "delivery: fruit for the wild symbols", "FRUIT ids that keep the tile payable"
    ),
    "DELIVER_OMIT": ("delivery: the fruit left out", "FRUIT ids that keep the tile payable"),
    "GAME_OVER": ("nobody (terminal)", "none"),
}


def phases_table() -> list[str]:
    """The Phase enum of actions.py."""
    rows = [(p.value, f"`{p.name}`", *_PHASES[p.name]) for p in Phase]
    return table(("value", "phase", "decision", "ids that can be legal"), rows)


TRANSITIONS: tuple[tuple[str, str, str, str], ...] = (
    ("INTRO", "BLADE", "INTRO", "farmers are left to place; the next seat places"),
    ("INTRO", "BLADE", "MAIN", "the last farmer is placed; seat 0 starts (FIN-15)"),
    ("MAIN", "BLADE", "MAIN", "the move resolves; the next seat's turn"),
    ("MAIN", "PLAY_DOUBLE", "DM_MOVE_1", "always"),
    ("DM_MOVE_1", "BLADE", "DM_MOVE_2", "always (same player)"),
    ("DM_MOVE_2", "BLADE", "MAIN", "the turn ends"),
    ("MAIN", "PLAY_GUST", "GUST_SOURCE", "always"),
    ("GUST_SOURCE", "BLADE", "GUST_TARGET", "always (same player)"),
    ("GUST_TARGET", "BLADE", "MAIN", "the turn ends"),
    ("MAIN", "DELIVER", "DELIVER_SELECT", "mode normal, cap 6"),
    ("MAIN", "PLAY_LARGE", "DELIVER_SELECT", "mode large, cap 10"),
    ("MAIN", "PLAY_ONELESS", "DELIVER_SELECT", "mode one-less, cap 6, reduction pending"),
    ("DELIVER_SELECT", "COMM", "DELIVER_WILD", "the tile has wild symbols"),
    ("DELIVER_SELECT", "COMM", "DELIVER_OMIT", "no wild symbols, reduction pending"),
    ("DELIVER_SELECT", "COMM", "DELIVER_SELECT", "no wild symbols, no reduction: tile committed"),
    ("DELIVER_WILD", "FRUIT", "DELIVER_OMIT", "reduction pending"),
    ("DELIVER_WILD", "FRUIT", "DELIVER_SELECT", "no reduction: tile committed"),
    ("DELIVER_OMIT", "FRUIT", "DELIVER_SELECT", "tile committed, reduction used"),
    ("DELIVER_SELECT", "CONFIRM", "MAIN", "delivery resolved; wooden fincas remain"),
    ("DELIVER_SELECT", "CONFIRM", "GAME_OVER", "the last wooden finca was placed (FIN-42)"),
)


def transitions_table() -> list[str]:
    """Every phase change an action can cause (checked against random play by the tests)."""
    rows = [(f"`{a}`", f"`{k}`", f"`{b}`", why) for a, k, b, why in TRANSITIONS]
    return table(("from", "action", "to", "when"), rows)


# --- observation ------------------------------------------------------------------------------

_BLOCKS: dict[str, str] = {
    "phase": "one-hot of the decision phase (INTRO ... DELIVER_OMIT); all zero once the game "
    "is over",
    "game_meta": (
        "player count one-hot 2/3/4 [3]; agent steps so far /2000 [1]; wooden fincas in reserve "
        "/6 [1]; intro placements left /12 [1]"
    ),
    "blade_fruit": "12 blades x fruit one-hot [6], blade order fixed (lines before blades 0 and 6)",
    "blade_farmers": "12 blades x [farmers of seat slots 0-3 (observer first) /12, total /12]",
    "bonus_stack": "1 for each of the bonus tiles 7, 6, 5, 4 still in the stack [4]",
    "supply": "fruit supply per type /18 [6]; carts in the centre /8 [1]",
    "communities": "10 communities x 23 values, see the community field table",
    "players": "4 seat slots x 30 values (slot 0 = observer, then clockwise; absent seats zero), "
    "see the player field table",
    "delivery": (
        "mode one-hot normal/large/one-less [3]; cap left /10 [1]; committed fruit per type /10 "
        "[6]; communities selected [10]; reduction applied [1]; pending community one-hot [10]; "
        "pending wild fruit one-hot [6]"
    ),
    "move_ctx": "Gust of wind source blade one-hot (set in GUST_TARGET only)",
    "unseen_tiles": "per kind of printed tile (the `kind` column of the fruit-tile table): the "
    "share of its copies never face-up (face-down or boxed), 0, 1/3, 2/3 or 1 for the three "
    "copies of `4?`, `5?`, `6?` and the 1-of-each tile; public, the same for every observer",
}


def obs_layout_table() -> list[str]:
    """OBS_LAYOUT of observation.py with a description per block."""
    rows = [(f"`{name}`", off, size, _BLOCKS[name]) for name, off, size in OBS_LAYOUT]
    rows.append(("**total**", "", OBS_SIZE, "float32, every value in [0, 1]"))
    return table(("block", "offset", "size", "contents"), rows)


_PLAYER_FIELD_TEXT: dict[str, str] = {
    "present": "1 if the seat exists at this player count",
    "fruits": "fruits held per type",
    "carts": "donkey carts held",
    "unused_action_tiles": "Double move, Gust of wind, Large donkey cart, One fruit less: "
    "1 = unused",
    "fruit_tiles_by_value": "fruit tiles won with face value 1 ... 6",
    "printed_symbols": "printed fruit symbols per type on the fruit tiles won (finca majorities)",
    "wild_symbols": "wild symbols on the fruit tiles won",
    "fruit_tile_points": "face values of the fruit tiles won",
    "finca_tiles": "finca tiles won",
    "bonus_points": "sum of bonus tiles held",
    "score": "current score (FIN-43), clipped at 1",
    "is_acting": "1 if this seat acts now",
}

_COMMUNITY_FIELD_TEXT: dict[str, str] = {
    "has_top": "1 while the stack holds a tile",
    "top_fixed": "face-up tile: printed symbols per fruit",
    "top_wild": "face-up tile: wild symbols",
    "top_value": "face-up tile: value one-hot 1 ... 6",
    "hidden_beneath": "face-down tiles under the top",
    "finca_fruits": "finca tile still on the community: fruit mask",
    "finca_universal": "finca tile still on the community: universal flag",
    "resolved": "1 once the community is emptied and its finca tile resolved",
}


def player_fields_table() -> list[str]:
    """PLAYER_FIELDS: one seat slot of the `players` block."""
    return fields_table(PLAYER_FIELDS, _PLAYER_FIELD_TEXT)


def community_fields_table() -> list[str]:
    """COMMUNITY_FIELDS: one community of the `communities` block."""
    return fields_table(COMMUNITY_FIELDS, _COMMUNITY_FIELD_TEXT)


def player_slots_text() -> list[str]:
    start = dict((n, o) for n, o, _ in OBS_LAYOUT)["players"]
    slots = ", ".join(f"slot {k} at {start + k * PLAYER_BLOCK}" for k in range(MAX_SEATS))
    return [f"Player slots start at: {slots}."]


def community_slots_text() -> list[str]:
    start = dict((n, o) for n, o, _ in OBS_LAYOUT)["communities"]
    return [f"Community c starts at offset {start} + {COMMUNITY_BLOCK} × c."]


TABLES: dict[str, Callable[[], list[str]]] = {
    "players": players_table,
    "numbers": numbers_table,
    "windmill": windmill_table,
    "line_blades": line_blades_text,
    "fruit_tiles_by_value": fruit_tiles_by_value_table,
    "fruit_tiles": fruit_tiles_table,
    "finca_tiles": finca_tiles_table,
    "scoring": scoring_table,
    "actions": actions_table,
    "phases": phases_table,
    "transitions": transitions_table,
    "obs_layout": obs_layout_table,
    "player_fields": player_fields_table,
    "player_slots": player_slots_text,
    "community_slots": community_slots_text,
    "community_fields": community_fields_table,
}

assert set(_ACTION_KINDS) == {action_kind(a)[0] for a in range(N_ACTIONS)}
assert {COMM0, FRUIT0, DELIVER, PLAY_DOUBLE, PLAY_GUST, PLAY_LARGE, PLAY_ONELESS, CONFIRM} < set(
    range(N_ACTIONS)
)


GENERATED = SpecTables.for_game("finca", TABLES, __doc__, doc_label="seeds/finca.md")
main = GENERATED.main


if __name__ == "__main__":
    sys.exit(main())
