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
other games' scripts in scripts/spec_tables.py; this script holds only the Finca
tables and their descriptions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from spec_tables import (  # scripts/ is not a package: see scripts/spec_tables.py
    SpecTables,
    block_fields_table,
    call_parts,
    check_described,
    observation_fields_table,
    observation_layout_table,
    slots_text,
    table,
    transitions_table,
)

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
from huerta.envs.finca.observation_spec import MAX_SEATS, SPEC

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
    return call_parts(action_name(action))


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


def transitions() -> list[str]:
    """Every phase change an action can cause (checked against random play by the tests)."""
    return transitions_table(TRANSITIONS)


# --- observation (every text and number from the declaration, observation_spec.py) ------------

def obs_layout_table() -> list[str]:
    """The blocks of the observation, as declared."""
    return observation_layout_table(SPEC)


def obs_fields_table() -> list[str]:
    """Every field of the blocks that have no table of their own."""
    return observation_fields_table(
        SPEC, [name for name, _, _ in SPEC.layout if name not in ("players", "communities")]
    )


def player_fields_table() -> list[str]:
    """The fields of one seat slot of the `players` block."""
    return block_fields_table(SPEC, "players")


def community_fields_table() -> list[str]:
    """The fields of one community of the `communities` block."""
    return block_fields_table(SPEC, "communities")


def player_slots_text() -> list[str]:
    """Where each seat slot of the `players` block starts."""
    return slots_text(SPEC, "players", MAX_SEATS)


def community_slots_text() -> list[str]:
    width = SPEC.block("communities").width
    return [f"Community c starts at offset {SPEC.offset('communities')} + {width} × c."]


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
    "transitions": transitions,
    "obs_layout": obs_layout_table,
    "obs_fields": obs_fields_table,
    "player_fields": player_fields_table,
    "player_slots": player_slots_text,
    "community_slots": community_slots_text,
    "community_fields": community_fields_table,
}

check_described(_ACTION_KINDS, (action_kind(a)[0] for a in range(N_ACTIONS)), "action kinds")
assert {COMM0, FRUIT0, DELIVER, PLAY_DOUBLE, PLAY_GUST, PLAY_LARGE, PLAY_ONELESS, CONFIRM} < set(
    range(N_ACTIONS)
)


GENERATED = SpecTables.for_game("finca", TABLES, __doc__, doc_label="seeds/finca.md")
main = GENERATED.main


if __name__ == "__main__":
    sys.exit(main())
