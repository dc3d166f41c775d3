"""Print (or rewrite) the generated tables of seeds/mi_tierra.md from the Mi Tierra code.

Every table in seeds/mi_tierra.md that restates a number of the code sits between two markers,

    <!-- generated: NAME (scripts/mi_tierra_tables.py) -->
    ...the table...
    <!-- end: NAME -->

and is produced by one function below. tests/mi_tierra/test_mt_spec_document.py fails when a block
in the document differs from this script's output, so after changing components.py, actions.py
or observation_spec.py a maintainer runs

    .venv/bin/python scripts/mi_tierra_tables.py            # print every table
    .venv/bin/python scripts/mi_tierra_tables.py actions    # print one table
    .venv/bin/python scripts/mi_tierra_tables.py --write    # rewrite the blocks in the document
    .venv/bin/python scripts/mi_tierra_tables.py --check    # exit 1 if the document is stale

Descriptions the code cannot supply (what an action kind means, what a decision or stage is) live
here, keyed by name: a new action kind, decision or stage without a description makes this
script fail, so the document cannot silently fall behind. The observation tables come whole from
the declaration, envs/mi_tierra/observation_spec.py, where every block and field states its
meaning.

The markers, the markdown helpers, --write/--check and the command line are shared with the
other games' scripts in scripts/spec_tables.py; this script holds only the Mi Tierra
tables and their descriptions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from spec_tables import (  # scripts/ is not a package: see scripts/spec_tables.py
    SpecTables,
    block_fields_table,
    check_described,
    observation_fields_table,
    observation_layout_table,
    slots_text,
    table,
)

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import N_ACTIONS, Decision, Stage, action_name
from huerta.envs.mi_tierra.game import DEFAULT_MAX_STEPS
from huerta.envs.mi_tierra.observation_spec import MAX_SEATS, SPEC

# --- component data ------------------------------------------------------------------------------

def setup_table() -> list[str]:
    """MIT-01, MIT-06, MIT-19, MIT-22 per player count."""
    rows = []
    for n in C.PLAYER_COUNTS:
        money = ", ".join(f"${m}" for m in C.START_MONEY[:n])
        blocked = "one space of every zone (below)" if n == 2 else "none"
        rows.append((n, money, C.START_WORKERS, C.MAX_WORKERS - C.START_WORKERS, n, blocked))
    header = ("players", "starting money by seat", "workers each", "workers to hire each",
              "Established markets", "blocked spaces")
    return table(header, rows)


_NUMBERS = (
    ("START_WORKERS", "workers each player starts with"),
    ("MAX_WORKERS", "workers of a colour (3 + 2 to hire)"),
    ("FREE_WORKERS", "workers that cost no upkeep"),
    ("UPKEEP_PER_EXTRA", "upkeep per worker beyond 3, paid in Phase 2"),
    ("MARKET_A_REMOVED", "deck A cards set aside unseen at setup"),
    ("MAX_ROUNDS", "the game ends after this round at the latest (G-56)"),
    ("CLOCK_PEEK", "cards a Clock Tower worker looks at"),
    ("DEV_COST_PER_CARD", "price per development card a spot touches"),
    ("HENHOUSE_CAPACITY", "hens the henhouse holds"),
    ("HARVEST_CAP", "most a farm worker harvests"),
    ("TRACTOR_CAP", "most a farm worker harvests with the Tractor"),
    ("APF_COST", "Animal Products Factory, per worker"),
    ("BAKERY_COST", "Bakery, per cake"),
    ("FLOUR_WINE_COST", "Flour and Wine Factory, per worker (flour, wine or both)"),
    ("CLOTH_COST", "Cloth Factory, per cloth"),
    ("BM_BUYS_PER_WORKER", "Black Market purchases per worker per round"),
    ("INFLATION_BONUS", "extra dollars per unit of milk, flour, wine under Inflation"),
    ("GENERIC_RESOURCE_PRICE", "generic market, per resource card"),
    ("GENERIC_ANIMAL_PRICE", "generic market, per animal"),
    ("CAKE_VALUE", "the bank pays per cake at the end"),
    ("CLOTH_VALUE", "the bank pays per cloth at the end"),
    ("EXCHANGE_RATE", "leftover goods per $1 at the end (rounded down)"),
    ("PERMANENTS_TO_END", "the permanent event that ends the game"),
)


def numbers_table() -> list[str]:
    rows = [(f"`{k}`", getattr(C, k), meaning) for k, meaning in _NUMBERS]
    return table(("constant", "value", "meaning"), rows)


def goods_table() -> list[str]:
    """G-52, G-57, G-59: goods, their class, the Black Market chart."""
    rows = []
    for g, name in enumerate(C.GOODS):
        kind = "animal" if g in C.ANIMALS else "resource card"
        buy = C.BM_BUY[g] if C.BM_BUY[g] is not None else "-"
        rows.append((g, name, C.GOOD_ABBREV[g], kind, C.BM_SELL[g], buy,
                     "yes" if g in C.INFLATED_GOODS else "no"))
    header = ("index", "good", "short", "class", "Black Market pays", "Black Market sells for",
              "Inflation +$1")
    return table(header, rows)


_ZONE_STEP = {
    "forest": 1, "sheep": 2, "square": 3, "crops": 4, "cow": 5, "henhouse": 6,
    "animal_products": 7, "clock_tower": 8, "bakery": 9, "developments": 10, "flour_wine": 11,
    "cloth": 12, "est_market": 14, "lower_road": 16,
}


def zones_table() -> list[str]:
    """G-01, G-02, G-03, G-04, G-05, G-33: the board's worker zones."""
    rows = []
    for z, zone in enumerate(C.ZONES):
        first = C.ZONE_FIRST_SPACE[z]
        spaces = f"{first}-{first + zone.spaces - 1}"
        rows.append((z, zone.key, zone.name, zone.spaces, spaces,
                     first + zone.blocked_2p, "yes" if zone.pairs else "no",
                     "yes" if zone.factory else "no", _ZONE_STEP[zone.key]))
    header = ("zone", "key", "name", "spaces", "board space ids", "blocked with 2 players",
              "pairs", "factory", "activation step")
    return table(header, rows)


def dice_table() -> list[str]:
    """G-10, G-11, G-12, G-13: every roll is a fair d6 read through its zone's table."""
    rows = []
    for f in range(C.DIE_FACES):
        rows.append((f + 1, C.FOREST_CAPACITY[f], C.SHEEP_ROLL[f], C.COW_ROLL[f], C.HEN_ROLL[f],
                     C.GOODS[C.CROP_ROLL[f]]))
    header = ("face", "Forest: barnyard capacity", "Sheep: sheep", "Cow: cows",
              "Henhouse (white die): hens", "Crops: field")
    return table(header, rows)


def farm_text() -> list[str]:
    grid = []
    for r in range(C.FARM_ROWS):
        cells = []
        for k in range(C.FARM_COLS):
            c = r * C.FARM_COLS + k
            cells.append(f"[{c:>2}{'*' if c == C.PRINTED_APPLE_CELL else ' '}]")
        grid.append("    " + "".join(cells))
    return [
        f"The farm is a grid of {C.FARM_ROWS} rows × {C.FARM_COLS} columns (cell id = "
        f"{C.FARM_COLS} × row + column); `*` marks the printed apple field (cell "
        f"**{C.PRINTED_APPLE_CELL}**). The henhouse (**{C.HENHOUSE_CAPACITY}** hens) and the hut "
        "lie outside the grid.",
        "",
        "```",
        *grid,
        "```",
    ]


def factories_table() -> list[str]:
    """MIT-43, MIT-44, MIT-45, MIT-46, MIT-47, MIT-48, MIT-49, MIT-50, MIT-51, MIT-52, MIT-53,
    MIT-54, MIT-55, G-31."""
    apf = "; ".join(f"≥{need} {C.GOODS[animal]} → 1 {C.GOODS[product]}"
                    for product, animal, need in C.APF_PRODUCTS)
    bakery = " + ".join(f"{n} {C.GOODS[g]}" for g, n in C.BAKERY_INPUTS)
    cloth = " + ".join(f"{n} {C.GOODS[g]}" for g, n in C.CLOTH_INPUTS)
    flour = f"{C.FLOUR_RECIPE[1]} {C.GOODS[C.FLOUR_RECIPE[0]]} → 1 flour"
    wine = f"{C.WINE_RECIPE[1]} {C.GOODS[C.WINE_RECIPE[0]]} → 1 wine"
    rows = [
        ("Animal Products Factory", f"${C.APF_COST} per worker for every product that "
         f"qualifies", apf + "; the animals stay"),
        ("Bakery", f"${C.BAKERY_COST}", f"{bakery} → 1 cake (at most one per worker)"),
        ("Flour and Wine Factory", f"${C.FLOUR_WINE_COST} per worker", f"{flour}; {wine}; "
         "at most one of each per worker"),
        ("Cloth Factory", f"${C.CLOTH_COST}", f"{cloth} → 1 cloth (at most one per worker)"),
    ]
    return table(("factory", "cost", "recipe"), rows)


def _dev_effect(card: C.DevCard) -> str:
    if card.kind == "product":
        return (f"at step 13, with ≥{card.need} {C.GOODS[card.animal]}: +1 "
                f"{C.GOODS[card.gain]} (animals kept)")
    if card.kind == "breed":
        return f"at step 13, with ≥{card.need} {C.GOODS[card.animal]}: +1 {C.GOODS[card.gain]}"
    if card.kind == "upgrade":
        base = C.DEV_CARDS[card.requires]
        return (f"with {base.numeral} {base.name}: its threshold becomes {card.need} "
                f"{C.GOODS[card.animal]} (alone: nothing)")
    if card.card_id == C.MILL:
        return "step 13, once: " + " or ".join(f"{w} wheat → {f} flour" for w, f in
                                               C.MILL_OPTIONS)
    if card.card_id == C.WINE_CELLAR:
        g, w = C.WINE_CELLAR_OPTION
        return f"step 13, once: {g} grape → {w} wine"
    if card.card_id == C.INSURANCE:
        return "unaffected by Frost and Fruit Fly"
    if card.card_id == C.POLICE:
        return "unaffected by Animal Thieves"
    if card.kind == "reroll":
        return "once per round, roll one own die again; the new roll is final"
    if card.kind == "harvest_cap":
        return f"a farm worker harvests up to {C.TRACTOR_CAP} connected fields"
    if card.kind == "income":
        return f"+${card.money} at step 13 every round"
    raise ValueError(card)


def dev_cards_table() -> list[str]:
    """MIT-63, MIT-64, MIT-65, MIT-66, MIT-67, MIT-68, MIT-69, MIT-70, MIT-71, MIT-72, MIT-73,
    MIT-74, MIT-75, MIT-76, MIT-77 as the engine reads them."""
    rows = [(d.card_id, d.numeral, d.name, d.kind, _dev_effect(d)) for d in C.DEV_CARDS]
    return table(("id", "card", "name", "kind", "effect"), rows)


def dev_spots_table() -> list[str]:
    """G-36: which display slots each development spot touches."""
    dev_first = C.ZONE_FIRST_SPACE[C.Z_DEV]
    rows = []
    for k, spot in enumerate(C.DEV_SPOTS):
        touched = ", ".join(C.DEV_SLOTS[s] for s in C.DEV_SPOT_TOUCHES[k])
        blocked = "yes" if dev_first + k in C.BLOCKED_2P else "no"
        rows.append((spot, dev_first + k, touched, f"${len(C.DEV_SPOT_TOUCHES[k])}", blocked))
    return table(("spot", "board space", "touches", "price with a full display",
                   "blocked with 2 players"), rows)


def _market_rows(designs: tuple) -> list[tuple[object, ...]]:
    rows = []
    for code, kind, what, price, limit, outgoing, copies in designs:
        if kind == "simple":
            buys, pays, most = C.GOODS[what], f"${price} each", limit
        elif kind == "pack":
            buys = " + ".join(f"{n} {C.GOODS[g]}" for g, n in enumerate(what) if n)
            pays, most = f"${price} for the bundle", "1 bundle"
        elif kind == "generic":
            buys = "any resource or animal"
            pays = f"${C.GENERIC_RESOURCE_PRICE} per resource, ${C.GENERIC_ANIMAL_PRICE} per animal"
            most = "no limit"
        else:
            kind_text = "permanent" if what in C.PERMANENT_EVENTS else "instant"
            rows.append((code, copies, f"event ({kind_text})", C.EVENT_NAMES[what], "-", "-",
                         "-"))
            continue
        rows.append((code, copies, kind, buys, pays, most, "yes" if outgoing else "no"))
    return rows


def market_a_table() -> list[str]:
    """G-47, G-48, G-49, G-50: deck A (7 cards removed unseen at setup)."""
    return table(_MARKET_HEADER, _market_rows(C.DECK_A_DESIGNS))


def market_b_table() -> list[str]:
    """G-47, G-48, G-49, G-50: deck B, under deck A's remainder."""
    return table(_MARKET_HEADER, _market_rows(C.DECK_B_DESIGNS))


_MARKET_HEADER = ("code", "copies", "kind", "buys", "pays", "at most", "outgoing")

_EVENT_EFFECT = {
    "animal_thieves": "every player loses half of each animal kind, rounded down",
    "frost": "every player loses half of their apples, wheat and grapes, rounded down",
    "inflation": "milk, flour and wine pay $1 more per unit everywhere, Black Market included "
                 "(buying too)",
    "strike": "the four factories of the board are closed to placement",
    "fruit_fly": "farm workers on apple and grape fields harvest nothing",
}


def events_table() -> list[str]:
    """MIT-103, MIT-104, MIT-105, MIT-106, G-60, G-61, G-62, G-63."""
    rows = []
    for e, key in enumerate(C.EVENTS):
        kind = "permanent" if e in C.PERMANENT_EVENTS else "instant"
        immune = C.DEV_CARDS[C.EVENT_IMMUNITY[e]].name if e in C.EVENT_IMMUNITY else "-"
        copies = sum(1 for c in C.MARKET_CARDS if c.event == e)
        decks = "/".join(sorted({c.deck for c in C.MARKET_CARDS if c.event == e}))
        rows.append((C.EVENT_NAMES[e], kind, copies, decks, _EVENT_EFFECT[key], immune))
    return table(("event", "type", "copies", "deck", "effect", "immune"), rows)


# --- actions, decisions, stages -------------------------------------------------------------------

# kind: meaning with {x} for the argument
_ACTION_KINDS: dict[str, str] = {
    "PASS": "decline / stop / keep / confirm (see the decision table)",
    "PLACE": "put a worker on the next free space of {x}",
    "PLACE_DEV": "put a worker on development spot {x}",
    "PLACE_PAIR": "put two workers together on one {x} space (they choose the result)",
    "CELL": "PLACE: a worker on own crop field {x}; TILE: the new tile on cell {x}",
    "CHOICE": "option {x} of the decision (see the decision table)",
    "EST_SLOT": "sell to Established market {x}",
    "CLOSE_SLOT": "sell to Closing-row market {x}",
    "MOVE_TO_BLACK_MARKET": "leave the Established market for the Black Market",
    "SELL": "MARKET_SALE: one more {x} in the sale; BLACK_MARKET: sell one {x}",
    "BUY": "buy one {x}",
}

# How many CHOICE_k options each decision has (CHOICE_0 … CHOICE_{count-1}).
CHOICE_COUNTS = {
    "UPKEEP": 1, "FOREST_PAIR": len(C.FOREST_PAIR_CHOICES), "CROPS_PAIR": len(C.CROPS_PAIR_CHOICES),
    "REROLL": 1, "ANIMAL_PRODUCTS": 1, "CLOCK_ORDER": C.CLOCK_PEEK, "BAKERY": 1,
    "DEVELOPMENT": len(C.DEV_SLOTS), "FLOUR_WINE": 3, "CLOTH": 1, "MILL": len(C.MILL_OPTIONS),
    "WINE_CELLAR": 1,
}
_NO_PASS = {"NONE", "FOREST_PAIR", "CROPS_PAIR"}


def legal_in(action: int) -> list[str]:
    """The decisions in which `action` can be legal (tests compare this with random play)."""
    kind, arg = action_kind(action)
    if kind == "PASS":
        return [d.name for d in Decision if d.name not in _NO_PASS]
    if kind in ("PLACE", "PLACE_DEV", "PLACE_PAIR"):
        return ["PLACE"]
    if kind == "CELL":  # the printed apple field is never a tile target (G-17)
        return ["PLACE"] if int(arg) == C.PRINTED_APPLE_CELL else ["PLACE", "TILE"]
    if kind == "CHOICE":
        return [d.name for d in Decision if CHOICE_COUNTS.get(d.name, 0) > int(arg)]
    if kind in ("EST_SLOT", "CLOSE_SLOT", "MOVE_TO_BLACK_MARKET"):
        return ["MARKET_TURN"]
    if kind == "SELL":
        return ["MARKET_SALE", "BLACK_MARKET"]
    return ["BLACK_MARKET"]


def action_kind(action: int) -> tuple[str, str]:
    """('PLACE', 'SHEEP') for PLACE_SHEEP, ('CHOICE', '2') for CHOICE_2, ('PASS', '')."""
    name = action_name(action)
    for kind in ("PLACE_DEV", "PLACE_PAIR", "EST_SLOT", "CLOSE_SLOT", "CELL", "CHOICE", "SELL",
                 "BUY", "PLACE"):
        if name.startswith(kind + "_") and name != "MOVE_TO_BLACK_MARKET":
            return kind, name[len(kind) + 1:]
    return name, ""


def actions_table() -> list[str]:
    """One row per action id: the flat Discrete(64) space."""
    rows = []
    for a in range(N_ACTIONS):
        kind, arg = action_kind(a)
        meaning = _ACTION_KINDS[kind].format(x=arg.lower())
        rows.append((a, f"`{action_name(a)}`", ", ".join(legal_in(a)), meaning))
    return table(("id", "name", "legal in decisions", "meaning"), rows)


_DECISIONS: dict[str, tuple[str, str, str]] = {
    # name: (who decides, PASS means, CHOICE_k / other ids)
    "NONE": ("nobody (the game is over, or a die roll is pending)", "-", "-"),
    "UPKEEP": ("each player with more than 3 workers, in turn order, repeatedly",
               "pay the upkeep on the workers kept (legal iff affordable)",
               "CHOICE_0: release one more worker to the supply"),
    "PLACE": ("players in turn order, one worker (or pair) at a time",
              "retire the remaining workers for this round",
              "PLACE_*, PLACE_DEV_*, PLACE_PAIR_*, CELL_i"),
    "FOREST_PAIR": ("the owner of a Forest pair", "-",
                    "CHOICE_0/1: a barnyard of capacity 2 / 3"),
    "CROPS_PAIR": ("the owner of a Crops pair", "-",
                   "CHOICE_0/1/2: an apple / wheat / grape field"),
    "REROLL": ("the owner of Studies, after its own roll", "keep the roll",
               "CHOICE_0: roll again (final)"),
    "TILE": ("the owner of a new barnyard or field",
             "discard the tile (legal iff no cell is empty)",
             "CELL_i: put it on cell i (empty, or replacing a tile without a worker)"),
    "ANIMAL_PRODUCTS": ("a factory worker's owner", "skip",
                        "CHOICE_0: pay $5, take every qualifying product"),
    "CLOCK_ORDER": ("the only player in the Clock Tower", "keep the remaining cards in order",
                    "CHOICE_k: the k-th remaining peeked card goes next (CHOICE_0 only while "
                    "3+ remain)"),
    "BAKERY": ("a Bakery worker's owner", "skip", "CHOICE_0: bake one cake"),
    "DEVELOPMENT": ("a development worker's owner, in turn order", "take nothing, pay nothing",
                    "CHOICE_k: pay the spot's price and take the card in display slot k"),
    "FLOUR_WINE": ("a factory worker's owner", "skip",
                   "CHOICE_0 flour, CHOICE_1 wine, CHOICE_2 both (one $5)"),
    "CLOTH": ("a Cloth Factory worker's owner", "skip", "CHOICE_0: make one cloth"),
    "MILL": ("the owner of the Mill, step 13", "do not convert",
             "CHOICE_0: 2 wheat → 1 flour; CHOICE_1: 5 wheat → 2 flour"),
    "WINE_CELLAR": ("the owner of the Wine Cellar, step 13", "do not convert",
                    "CHOICE_0: 1 grape → 1 wine"),
    "MARKET_TURN": ("the owner of the Established-market worker whose turn it is",
                    "sell nothing: the worker goes home, out for the round",
                    "EST_SLOT_m, CLOSE_SLOT_m (a card it can sell to), MOVE_TO_BLACK_MARKET"),
    "MARKET_SALE": ("the seller", "confirm the sale (legal iff a unit is chosen)",
                    "SELL_g: one more unit the card buys"),
    "BLACK_MARKET": ("the owner of the Black Market worker whose turn it is",
                     "this worker is done", "SELL_g (held), BUY_g (3 per worker, affordable)"),
}


def decisions_table() -> list[str]:
    """The Decision enum of actions.py."""
    rows = [(d.value, f"`{d.name}`", *_DECISIONS[d.name]) for d in Decision]
    return table(("value", "decision", "who decides", "PASS", "other legal ids"), rows)


_STAGES: dict[str, str] = {
    "TURN_ORDER": "phase 1: lower-road workers come home; the new turn order is set",
    "UPKEEP": "phase 2: worker upkeep (UPKEEP decisions)",
    "MARKET_MAINTENANCE": "phase 2: Closing row discarded, outgoing markets to Closing, refill "
                          "(events resolved), development display refilled",
    "PLACEMENT": "phase 3: worker placement (PLACE decisions)",
    "FOREST": "step 1: barnyards (roll or pair choice; TILE)",
    "SHEEP": "step 2: sheep (roll)",
    "SQUARE": "step 3: hire a worker",
    "CROPS": "step 4: fields (roll or pair choice; TILE)",
    "COW": "step 5: cows (roll)",
    "HENHOUSE": "step 6: hens (white die)",
    "ANIMAL_PRODUCTS": "step 7: wool, milk, eggs for $5",
    "CLOCK_TOWER": "step 8: peek at the market pile; a sole player reorders",
    "BAKERY": "step 9: cakes",
    "DEVELOPMENTS": "step 10: development cards, in turn order",
    "FLOUR_WINE": "step 11: flour and wine",
    "CLOTH": "step 12: cloth",
    "FARMS": "step 13: harvests and development cards, players in turn order",
    "EST_MARKET": "step 14: Established-market turns, pass after pass",
    "BLACK_MARKET": "step 15: Black Market workers in order of arrival",
    "LOWER_ROAD": "step 16: (acts next phase 1); the round ends",
    "GAME_OVER": "the game is over",
}


def stages_table() -> list[str]:
    rows = [(s.value, f"`{s.name}`", _STAGES[s.name]) for s in Stage]
    return table(("value", "stage", "what happens"), rows)


# --- observation (every text and number from the declaration, observation_spec.py) -----------

def obs_layout_table() -> list[str]:
    """The blocks of the observation, as declared."""
    return observation_layout_table(SPEC)


def game_fields_table() -> list[str]:
    """The fields of the `game` block."""
    return block_fields_table(SPEC, "game")


def space_fields_table() -> list[str]:
    """The fields of one board space (one copy of `board`)."""
    return block_fields_table(SPEC, "board")


def obs_fields_table() -> list[str]:
    """The fields of the smaller blocks, with their places in the vector."""
    return observation_fields_table(
        SPEC, ["black_market", "display", "revealed", "knowledge", "stage", "decision"]
    )


def player_fields_table() -> list[str]:
    """The fields of one seat slot (one copy of `players`)."""
    return block_fields_table(SPEC, "players")


def card_fields_table() -> list[str]:
    """The fields of one market slot (one copy of `markets`)."""
    return block_fields_table(SPEC, "markets")


def context_fields_table() -> list[str]:
    """The fields of the `context` block."""
    return block_fields_table(SPEC, "context")


def player_slots_text() -> list[str]:
    """Where each seat slot of the `players` block starts."""
    return slots_text(SPEC, "players", MAX_SEATS)


def truncation_text() -> list[str]:
    return [f"Episodes are truncated after `max_steps` = **{DEFAULT_MAX_STEPS}** agent steps by "
            f"default; the rules end every game after round **{C.MAX_ROUNDS}** at the latest."]


TABLES: dict[str, Callable[[], list[str]]] = {
    "setup": setup_table,
    "numbers": numbers_table,
    "goods": goods_table,
    "zones": zones_table,
    "dice": dice_table,
    "farm": farm_text,
    "factories": factories_table,
    "dev_cards": dev_cards_table,
    "dev_spots": dev_spots_table,
    "market_a": market_a_table,
    "market_b": market_b_table,
    "events": events_table,
    "actions": actions_table,
    "decisions": decisions_table,
    "stages": stages_table,
    "obs_layout": obs_layout_table,
    "game_fields": game_fields_table,
    "space_fields": space_fields_table,
    "obs_fields": obs_fields_table,
    "player_fields": player_fields_table,
    "player_slots": player_slots_text,
    "card_fields": card_fields_table,
    "context_fields": context_fields_table,
    "truncation": truncation_text,
}

check_described(_ACTION_KINDS, (action_kind(a)[0] for a in range(N_ACTIONS)), "action kinds")
check_described(_DECISIONS, (d.name for d in Decision), "decisions")
check_described(_STAGES, (s.name for s in Stage), "stages")


GENERATED = SpecTables.for_game("mi_tierra", TABLES, __doc__)
main = GENERATED.main


if __name__ == "__main__":
    sys.exit(main())
