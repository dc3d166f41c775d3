"""Print (or rewrite) the generated tables of seeds/alpujarras.md from the Alpujarras code.

Every table in seeds/alpujarras.md that restates a number of the code sits between two markers,

    <!-- generated: NAME (scripts/alpujarras_tables.py) -->
    ...the table...
    <!-- end: NAME -->

and is produced by one function below. tests/alpujarras/test_alp_spec_document.py fails when a
block differs from this script's output, so after changing components.py, actions.py or
observation.py a maintainer runs

    .venv/bin/python scripts/alpujarras_tables.py            # print every table
    .venv/bin/python scripts/alpujarras_tables.py actions    # print one table
    .venv/bin/python scripts/alpujarras_tables.py --write    # rewrite the blocks in the document
    .venv/bin/python scripts/alpujarras_tables.py --check    # exit 1 if the document is stale

Descriptions the code cannot supply (what an action means, what a phase decides) live here, keyed
by name: a new action kind or phase without a description makes this script fail, so the document
cannot silently fall behind. The observation tables come whole from the declaration
(envs/alpujarras/observation_spec.py), which states every block's and field's meaning itself.

The markers, the markdown helpers, --write/--check and the command line are shared with the
other games' scripts in scripts/spec_tables.py; this script holds only the Alpujarras
tables and their descriptions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from spec_tables import (  # scripts/ is not a package: see scripts/spec_tables.py
    SpecTables,
    call_parts,
    check_described,
    observation_fields_table,
    observation_layout_table,
    table,
    transitions_table,
)

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import N_ACTIONS, Phase, action_name
from huerta.envs.alpujarras.game import DEFAULT_MAX_STEPS
from huerta.envs.alpujarras.observation_spec import SPEC, STEP_SCALE


def _fruits(kinds: tuple[int, ...]) -> str:
    return ", ".join(C.FRUITS[k] for k in kinds)


# --- component data ---------------------------------------------------------------------------

def players_table() -> list[str]:
    """ALP-03, ALP-05, ALP-06, ALP-13, ZARA-01: what depends on the player count."""
    layout = (C.GO_SEGMENT, *C.MARKET_SEGMENTS, *C.HARVEST_SEGMENTS, C.END_SEGMENT)
    rows = []
    for n in C.PLAYER_COUNTS:
        four = C.four_player_side(n)
        track = C.build_track(layout, four)
        standard = sum(1 for s in track if s.kind == C.STANDARD)
        ends = sum(1 for s in track if s.kind == C.END)
        per_town = C.TOKENS_PER_TOWN[n]
        rows.append((
            "1 (solo)" if n == 1 else n, "4-player (green)" if four else "2-3 player (blue)",
            standard, ends, len(track), per_town, per_town * C.NUM_TOWNS,
            "yes" if n <= 2 else "no", "zakat cards" if n == 1 else "goal cards",
            "no" if n == 1 else "yes",
        ))
    header = ("players", "track side", "standard spaces", "end spaces", "target spaces",
              "tokens per town", "tokens in play", "die", "cards", "award tokens")
    return table(header, rows)


def numbers_table() -> list[str]:
    """The fixed numbers of components.py."""
    names = (
        ("FARMERS_PER_PLAYER", "farmers per colour (and Zara's)"),
        ("FRUIT_PER_KIND", "fruit of each of the 5 kinds"),
        ("FRUIT_CAP", "most fruit of one kind a player may hold"),
        ("NORIA_CAP", "most norias a player may hold"),
        ("CROPS_PER_KIND", "crop tokens of each kind in the bag"),
        ("NUM_CHANNEL_TOKENS", "channel tokens (one per channel space)"),
        ("EMPTY_FIELDS", "irrigable (empty) fields per farmland"),
        ("MAX_MARKET_ACTIONS", "market actions per player and game"),
        ("MIN_KINDS_PER_TOWN", "fruit kinds every town shows after the deal"),
        ("REMOVED_FOR_SMALL_GAMES", "token value removed once per fruit with 1-3 players"),
        ("DIE_SIDES", "sides of the die"),
        ("DOUBLE_TURNS_DEFAULT", "solo: double turns at the start (variant 0-5)"),
        ("SOLO_CONDITION_PENALTY", "solo score_margin reward: penalty for unmet conditions"),
        ("SOLO_DUTY_POTENTIAL", "solo reward shaping: potential per duty met (G-29)"),
        ("MAX_SPACES", "MOVE_TO ids (target spaces on the 4-player side)"),
    )
    rows = [(f"`{k}`", getattr(C, k), meaning) for k, meaning in names]
    return table(("constant", "value", "meaning"), rows)


def farmlands_table() -> list[str]:
    """G-01, G-02, G-03: farmlands in clockwise order, primary fruit and printed fields."""
    rows = []
    for f in range(C.NUM_FARMLANDS):
        rows.append((f, C.FARMLANDS[f], C.FRUITS[C.PRIMARY[f]], _fruits(C.PRINTED_FIELDS[f]),
                     C.EMPTY_FIELDS))
    header = ("id", "farmland (and town)", "primary fruit", "printed fields", "empty fields")
    return table(header, rows)


def channels_table() -> list[str]:
    """G-04, G-05: the 15 channel spaces."""
    rows = []
    for ch in C.CHANNELS:
        lands = "/".join(C.FARMLANDS[f] for f in ch.farmlands)
        follows = "water (start channel)" if ch.requires < 0 else f"channel {ch.requires}"
        if ch.dirhem:
            reward = "covers a dirhem"
        else:
            f, slot = ch.field
            reward = f"leads to {C.FARMLANDS[f]} empty field {slot}"
        rows.append((ch.cid, ch.shape, lands, follows, reward))
    return table(("id", "shape", "farmlands", "touches", "reward"), rows)


def segments_table() -> list[str]:
    """G-07: the ten segments; spaces marked (4) exist on the 4-player side only."""
    rows = []
    for i, seg in enumerate(C.SEGMENTS):
        if seg.kind == C.END:
            spaces = "end spaces (see the end ratios)"
        else:
            parts = [text + (" (4)" if four else "") for text, four in seg.spaces]
            if seg.kind in (C.MARKET, C.HARVEST):
                parts.append(seg.kind.upper())
            spaces = " · ".join(parts)
        rows.append((i, seg.name, seg.kind, spaces))
    return table(("id", "segment", "type", "spaces in track order"), rows)


def end_ratios_table() -> list[str]:
    """G-10: fruit per dirhem on the end spaces, nearest first."""
    rows = []
    for four in (False, True):
        side = "4-player" if four else "1-3 player"
        rows.append((side, ", ".join(f"{r}:1" for r in C.END_RATIOS[four])))
    return table(("side", "end spaces, nearest first"), rows)


def tokens_table() -> list[str]:
    """G-12, ALP-05: delivery-token values per fruit."""
    four = list(C.TOKEN_VALUES)
    small = list(C.TOKEN_VALUES)
    small.remove(C.REMOVED_FOR_SMALL_GAMES)
    rows = [
        (C.FRUITS[f], ", ".join(map(str, four)), ", ".join(map(str, small)),
         ", ".join(str(v - 1) for v in four))
        for f in range(C.NUM_FRUITS)
    ]
    return table(("fruit", "values (4 players)", "values (1-3 players)", "dirhem sides"), rows)


def awards_table() -> list[str]:
    """G-14: the award tokens."""
    rows = [(i, g, r) for i, (g, r) in enumerate(C.AWARDS)]
    return table(("award token", "green side (first delivery)", "red side (second)"), rows)


def goals_table() -> list[str]:
    """G-15: card k shows goal 2k or 2k + 1."""
    rows = []
    for card in range(C.NUM_GOAL_CARDS):
        for side in (0, 1):
            goal = C.card_goal(card, side)
            rows.append((card, "AB"[side], goal, C.GOALS[goal], C.GOAL_REWARDS[goal],
                         f"ALP-{51 + goal}"))
    return table(("card", "side", "goal id", "goal", "dirhems", "clause"), rows)


def zakats_table() -> list[str]:
    """ZG-09: the zakat cards."""
    rows = [(i, plain.label(), star.label()) for i, (plain, star) in enumerate(C.ZAKAT_CARDS)]
    return table(("card", "plain side", "star side"), rows)


def norias_table() -> list[str]:
    """ALP-61: what norias buy."""
    what = {"place": "place a farmer (fruit as usual)", "move": "move a farmer (fruit as usual)",
            "swap": "return 1 fruit, take 1 of a different kind"}
    rows = [(k, what[kind], d) for k, (kind, d) in sorted(C.NORIA_SPEND.items(), reverse=True)]
    return table(("norias spent", "buys", "dirhems"), rows)


# --- actions and phases -----------------------------------------------------------------------

_ACTION_KINDS: dict[str, tuple[str, str]] = {
    "MOVE_TO": ("MOVE", "end the mule's move on track space {x}"),
    "DO_PLACE": ("ACTION", "resolve one place-a-farmer icon (with an empty supply it is a move, "
                 "ALP-28)"),
    "DO_MOVE": ("ACTION", "resolve the move-a-farmer icon"),
    "DO_TAKE_NORIAS": ("ACTION", "take all the space's noria icons (capped at 5)"),
    "DO_HARVEST": ("ACTION", "harvest (harvest space)"),
    "SPEND_NORIA": ("ACTION", "spend {x} noria(s) (ALP-61)"),
    "END_TURN": ("ACTION", "end the turn (unresolved icons are forfeited)"),
    "FARMLAND": (
        "PLACE_FARMLAND, MOVE_SOURCE, MOVE_TARGET, GOAL_FARMER, ZAKAT_FARMER",
        "the {x} farmland: where a farmer is placed, which farmer moves, where it goes, which "
        "farmer goes on a goal card or back to supply for a zakat",
    ),
    "FRUIT": (
        "ACTION, GAIN_FRUIT, SWAP_RETURN, SWAP_GAIN",
        "ACTION: take a {x} (fruit icon); GAIN_FRUIT: the {x} gained; SWAP_RETURN / SWAP_GAIN: "
        "the {x} returned / taken",
    ),
    "CHANNEL": ("ACTION", "irrigate channel space {x}"),
    "DELIVER": ("ACTION", "deliver the token in slot {s} of the {x} town"),
    "CARD": ("ACTION", "complete goal card {x} (solo: pay zakat card {x})"),
}


def action_kind(action: int) -> tuple[str, str]:
    """('MOVE_TO', '3') for MOVE_TO(3), ('END_TURN', '') for END_TURN."""
    return call_parts(action_name(action))


def _legal_phases(action: int) -> str:
    kind, arg = action_kind(action)
    if kind == "MOVE_TO" and int(arg) >= C.track_length(False):
        return "MOVE (4 players only)"
    if kind == "DELIVER" and int(arg.split(",")[1]) >= C.TOKENS_PER_TOWN[3]:
        return "ACTION (4 players only)"
    return _ACTION_KINDS[kind][0]


def actions_table() -> list[str]:
    """One row per action id: the flat Discrete(111) space."""
    rows = []
    for a in range(N_ACTIONS):
        kind, arg = action_kind(a)
        town, _, slot = arg.partition(",")
        meaning = _ACTION_KINDS[kind][1].format(x=town, s=slot)
        rows.append((a, f"`{action_name(a)}`", _legal_phases(a), meaning))
    return table(("id", "name", "legal in phases", "meaning"), rows)


_PHASES: dict[str, tuple[str, str]] = {
    "MOVE": ("where the mule stops", "MOVE_TO ids of legal targets"),
    "ACTION": (
        "the next thing to do on the space, a noria spend, or the end of the turn",
        "DO_*, SPEND_NORIA, END_TURN, FRUIT (fruit icons), CHANNEL, DELIVER, CARD",
    ),
    "PLACE_FARMLAND": ("where the farmer is placed", "FARMLAND (only the named one on a "
                       "coloured space)"),
    "MOVE_SOURCE": ("which farmland a farmer leaves", "FARMLAND ids holding an own farmer"),
    "MOVE_TARGET": ("where the moving farmer goes", "FARMLAND ids except the source"),
    "GOAL_FARMER": ("which farmland gives the farmer for the goal card (empty supply)",
                    "FARMLAND ids holding an own farmer"),
    "ZAKAT_FARMER": ("which farmland's farmer returns to supply (zakat)",
                     "FARMLAND ids holding an own farmer"),
    "GAIN_FRUIT": ("the fruit for a placement or move", "FRUIT ids grown there, below the "
                   "cap, ALP-27 respected"),
    "SWAP_RETURN": ("the fruit returned for 1 noria", "FRUIT ids held"),
    "SWAP_GAIN": ("the fruit taken for 1 noria", "FRUIT ids of another kind below the cap"),
    "GAME_OVER": ("nobody (terminal)", "none"),
}


def phases_table() -> list[str]:
    """The Phase enum of actions.py."""
    rows = [(p.value, f"`{p.name}`", *_PHASES[p.name]) for p in Phase]
    return table(("value", "phase", "decision", "ids that can be legal"), rows)


TRANSITIONS: tuple[tuple[str, str, str, str], ...] = (
    ("MOVE", "MOVE_TO", "ACTION", "the mule arrives; the space's icons or duties are set up"),
    ("ACTION", "DO_PLACE", "PLACE_FARMLAND", "a farmer is in supply"),
    ("ACTION", "DO_PLACE", "MOVE_SOURCE", "the supply is empty: the place icon is a move"),
    ("ACTION", "DO_MOVE", "MOVE_SOURCE", "always"),
    ("ACTION", "DO_TAKE_NORIAS", "ACTION", "always"),
    ("ACTION", "DO_HARVEST", "ACTION", "always"),
    ("ACTION", "SPEND_NORIA", "PLACE_FARMLAND", "3, 4 or 5 norias"),
    ("ACTION", "SPEND_NORIA", "MOVE_SOURCE", "2 norias"),
    ("ACTION", "SPEND_NORIA", "SWAP_RETURN", "1 noria"),
    ("ACTION", "FRUIT", "ACTION", "a fruit icon resolved"),
    ("ACTION", "CHANNEL", "ACTION", "the irrigation resolved (crop draw included)"),
    ("ACTION", "DELIVER", "ACTION", "the delivery resolved"),
    ("ACTION", "CARD", "ACTION", "goal with a farmer from supply, or a zakat without a farmer"),
    ("ACTION", "CARD", "GOAL_FARMER", "goal with an empty supply"),
    ("ACTION", "CARD", "ZAKAT_FARMER", "zakat card with the crossed-out farmer"),
    ("ACTION", "END_TURN", "MOVE", "the next turn (die and Zara turns resolved in between)"),
    ("ACTION", "END_TURN", "GAME_OVER", "the last mule is on the end track, or a solo duty "
     "was impossible"),
    ("PLACE_FARMLAND", "FARMLAND", "GAIN_FRUIT", "a fruit can be taken"),
    ("PLACE_FARMLAND", "FARMLAND", "ACTION", "no fruit can be taken (skipped)"),
    ("MOVE_SOURCE", "FARMLAND", "MOVE_TARGET", "the destination is free to choose"),
    ("MOVE_SOURCE", "FARMLAND", "GAIN_FRUIT", "a coloured place icon fixes the destination"),
    ("MOVE_SOURCE", "FARMLAND", "ACTION", "fixed destination, no fruit can be taken"),
    ("MOVE_TARGET", "FARMLAND", "GAIN_FRUIT", "a fruit can be taken"),
    ("MOVE_TARGET", "FARMLAND", "ACTION", "no fruit can be taken (skipped)"),
    ("GOAL_FARMER", "FARMLAND", "ACTION", "the goal is completed"),
    ("ZAKAT_FARMER", "FARMLAND", "ACTION", "the zakat is paid"),
    ("GAIN_FRUIT", "FRUIT", "ACTION", "always"),
    ("SWAP_RETURN", "FRUIT", "SWAP_GAIN", "always"),
    ("SWAP_GAIN", "FRUIT", "ACTION", "always"),
)


def transitions() -> list[str]:
    """Every phase change an action can cause (checked against play by the tests)."""
    return transitions_table(TRANSITIONS)


# --- observation (every text and number from the declaration, observation_spec.py) ------------

def obs_layout_table() -> list[str]:
    """The blocks of the observation, as declared."""
    return observation_layout_table(SPEC)


def obs_fields_table() -> list[str]:
    """Every field of every block, with its offset (first copy + stride per copy), size, divisor,
    encoding and meaning, as declared."""
    return observation_fields_table(SPEC, [name for name, _, _ in SPEC.layout])


TABLES: dict[str, Callable[[], list[str]]] = {
    "players": players_table,
    "numbers": numbers_table,
    "farmlands": farmlands_table,
    "channels": channels_table,
    "segments": segments_table,
    "end_ratios": end_ratios_table,
    "tokens": tokens_table,
    "awards": awards_table,
    "goals": goals_table,
    "zakats": zakats_table,
    "norias": norias_table,
    "actions": actions_table,
    "phases": phases_table,
    "transitions": transitions,
    "obs_layout": obs_layout_table,
    "obs_fields": obs_fields_table,
}

check_described(_ACTION_KINDS, (action_kind(a)[0] for a in range(N_ACTIONS)), "action kinds")
check_described(_PHASES, (p.name for p in Phase), "phases")
# game_meta.steps's meaning names the default truncation as its scale
assert STEP_SCALE == DEFAULT_MAX_STEPS


GENERATED = SpecTables.for_game("alpujarras", TABLES, __doc__)
main = GENERATED.main


if __name__ == "__main__":
    sys.exit(main())
