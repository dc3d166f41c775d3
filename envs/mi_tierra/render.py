"""Mi Tierra as text (the `ansi` render): round, markets, board, display and every player.

Only public information is drawn: the market pile appears as its size (and how many positions each
player has peeked), never its order, so a rendered game can be shown to every player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.legend import legend_lines
from . import components as C
from .actions import STAGE_ZONE, Decision, Stage
from .farm import farm_items

if TYPE_CHECKING:
    from .state import MiTierraState

# A farm cell's code: the crop fields by their goods' codes, so that no single letter names a fruit
# other games spell differently (A is Finca's almond); barnyards by their capacity.
TILE_CODES = (".", C.GOOD_ABBREV[C.APPLE], C.GOOD_ABBREV[C.WHEAT], C.GOOD_ABBREV[C.GRAPE], "B2",
              "B3")
STAGE_TEXT = {
    Stage.TURN_ORDER: "phase 1: turn order", Stage.UPKEEP: "phase 2: upkeep",
    Stage.MARKET_MAINTENANCE: "phase 2: market maintenance", Stage.PLACEMENT: "phase 3: placement",
    Stage.FARMS: "step 13: farms", Stage.EST_MARKET: "step 14: Established market",
    Stage.BLACK_MARKET: "step 15: Black Market", Stage.LOWER_ROAD: "step 16: lower road",
    Stage.GAME_OVER: "game over",
}
_DECISION_WORDS = {
    Decision.PLACE: "place a worker", Decision.FOREST_PAIR: "the pair picks a barnyard",
    Decision.CROPS_PAIR: "the pair picks a field", Decision.ANIMAL_PRODUCTS: "use the factory?",
    Decision.BAKERY: "bake a cake?", Decision.FLOUR_WINE: "make flour or wine?",
    Decision.CLOTH: "make cloth?", Decision.MILL: "use the Mill?",
    Decision.WINE_CELLAR: "use the Wine Cellar?", Decision.MARKET_TURN: "a market turn",
    Decision.BLACK_MARKET: "at the Black Market",
}
LEGEND = (
    (" ".join(C.GOOD_ABBREV), ", ".join(C.GOODS) + " (Ap4 = 4 apples)"),
    ("P0-P3", "the players (* = to act)"),
    ("A01-B21", "market card codes (deck A or B)"),
    ("apple $5 x4", "buys up to 4 apples at $5 each"),
    ("2Eg+1Fl $32", "buys 2 eggs and 1 flour together for $32"),
    ("generic $3/$4", "buys anything: $3 a resource, $4 an animal"),
    ("(out)", "moves to the Closing row at the next market maintenance"),
    ("TL TR BL BR", "development display slots (top/bottom, left/right)"),
    ("developments", ", ".join(f"{d.numeral} {d.name}" for d in C.DEV_CARDS)),
    ("forest[0]=P1x2", "a pair of player_1's workers on the Forest's first space"),
    ("developments[N]", "development spot N (N W C E S)"),
    ("hut", "workers still to place"),
    ("farm cells 0-11", "row by row, as the CELL_0 ... CELL_11 actions name them"),
    (" ".join(TILE_CODES[1:4]), "apple, wheat, grape field"),
    ("B2 B3", "barnyard for 2 or 3 animals"), ("B3:2Co", "holding 2 cows"),
    ("*", "a worker on the cell"), (".", "empty"),
)


def _goods(goods: list[int]) -> str:
    return " ".join(f"{C.GOOD_ABBREV[g]}{n}" for g, n in enumerate(goods) if n) or "-"


def _card(card: int) -> str:
    return f"{C.MARKET_CARDS[card].code} {C.MARKET_CARDS[card].label()}" if card >= 0 else "-"


def _farm_rows(state: MiTierraState, p: int) -> list[str]:
    """The 3 x 4 farm, every cell numbered as its CELL_k action: ' 5 Ap*' (cell 5, an apple
    field with a worker), ' 6 B3:2Co' (a barnyard for 3 holding 2 cows)."""
    rows = []
    for r in range(C.FARM_ROWS):
        cells = []
        for k in range(C.FARM_COLS):
            c = r * C.FARM_COLS + k
            text = TILE_CODES[state.tiles[p][c]]
            if state.barn_count[p][c]:
                kind = C.SHEEP if state.barn_kind[p][c] == C.SHEEP else C.COW
                text += f":{state.barn_count[p][c]}{C.GOOD_ABBREV[kind]}"
            if state.farm_workers[p][c]:
                text += "*"
            cells.append(f"{c:>2} {text:<9}")
        rows.append("".join(cells).rstrip())
    return rows


def player_summary(state: MiTierraState, p: int) -> str:
    """One line of what player `p` holds (used by transcripts)."""
    return (
        f"P{p} ${state.money[p]} goods {_goods(state.goods[p])} cake {state.cake[p]} "
        f"cloth {state.cloth[p]} workers {state.owned[p]} score {_score(state, p)}"
    )


def _score(state: MiTierraState, p: int) -> int:
    return (state.money[p] + C.CAKE_VALUE * state.cake[p] + C.CLOTH_VALUE * state.cloth[p]
            + farm_items(state, p) // C.EXCHANGE_RATE)


def render_text(state: MiTierraState) -> str:
    """A multi-line text picture of the whole public state."""
    n = state.num_players
    if state.terminal:
        head = "game over"
    elif state.chance_pending:
        head = "a die roll is pending"
    else:
        head = f"player_{state.current_player} to act ({stage_text(state)}; {decision_text(state)})"
    lines = [f"Mi Tierra, {n} players, round {state.round}, step {state.steps}: {head}"]
    event = state.event_in_force()
    lines.append(
        f"Turn order: {' '.join(f'P{p}' for p in state.order)} | event in force: "
        f"{C.EVENT_NAMES[event] if event >= 0 else 'none'} | permanent events seen "
        f"{state.perms_seen}/3{' (last round)' if state.end_triggered else ''} | market pile "
        f"{len(state.pile)} cards | development deck {len(state.dev_deck)}"
    )
    lines.append("Established: " + " | ".join(_card(c) for c in state.est))
    closing = [c for c in state.closing if c >= 0]
    lines.append("Closing: " + (" | ".join(_card(c) for c in closing) if closing else "-"))
    display = " | ".join(
        f"{C.DEV_SLOTS[s]} {C.DEV_CARDS[d].numeral} {C.DEV_CARDS[d].name}" if d >= 0
        else f"{C.DEV_SLOTS[s]} -" for s, d in enumerate(state.display)
    )
    lines.append(f"Development display: {display}")
    occupied = []
    for i in range(C.NUM_SPACES):
        owner = state.space_owner[i]
        if owner >= 0:
            zone = C.SPACE_ZONE[i]
            k = i - C.ZONE_FIRST_SPACE[zone]
            spot = C.DEV_SPOTS[k] if zone == C.Z_DEV else k
            pair = "x2" if state.space_pair[i] else ""
            occupied.append(f"{C.ZONES[zone].key}[{spot}]=P{owner}{pair}")
    if state.bm_workers:
        occupied.append("black_market=" + ",".join(f"P{p}" for p in state.bm_workers))
    lines.append("Board: " + (" ".join(occupied) if occupied else "no workers"))
    lines.append("Players (* acts) and their farms (cells numbered as CELL_0 ... CELL_11):")
    for p in range(n):
        mark = "*" if p == state.current_player and not state.terminal else " "
        devs = ",".join(C.DEV_CARDS[d].numeral for d in range(C.NUM_DEV_CARDS)
                        if state.devs[p][d]) or "-"
        peek = ""
        if state.known[p] or state.known_set[p]:
            peek = f" | peeked {len(state.known[p]) or len(state.known_set[p])} cards"
        lines.append(
            f" {mark}P{p}: ${state.money[p]} | goods {_goods(state.goods[p])} | cake "
            f"{state.cake[p]} cloth {state.cloth[p]} | workers {state.owned[p]} (hut "
            f"{state.hut[p]}) | devs {devs} | score {_score(state, p)}{peek}"
        )
        for row in _farm_rows(state, p):
            lines.append(f"      {row}")
    if state.terminal:
        winners = state.winners()
        names = ", ".join(f"P{w}" for w in winners)
        lines.append(("Shared victory: " if len(winners) > 1 else "Winner: ") + names)
    lines.extend(legend_lines(LEGEND))
    return "\n".join(lines)


def stage_text(state: MiTierraState) -> str:
    """Where the round is, in words: 'phase 3: placement', 'step 4: Crops'."""
    stage = Stage(state.stage)
    where = STAGE_TEXT.get(stage)
    if where is None:  # activation steps 1-12 follow the stages in order
        where = f"step {stage - Stage.FOREST + 1}: {C.ZONES[STAGE_ZONE[stage]].name}"
    return where


def decision_text(state: MiTierraState) -> str:
    """The acting player's decision, in words (public facts only)."""
    d = Decision(state.decision)
    p = state.current_player
    if d == Decision.MARKET_SALE:
        units = " ".join(f"{n} {C.GOODS[g]}" for g, n in enumerate(state.sale_units) if n)
        return f"a sale, so far: {units or 'nothing'}"
    if d == Decision.TILE and state.pending_tile >= 0:
        return f"where to put a new {C.TILE_NAMES[state.pending_tile]}"
    if d == Decision.DEVELOPMENT:
        return f"a development card for ${state.dev_cost}"
    if d == Decision.UPKEEP:
        due = max(0, state.owned[p] - C.FREE_WORKERS) * C.UPKEEP_PER_EXTRA
        return f"upkeep ${due} or release a worker"
    if d == Decision.REROLL:
        return f"rolled {state.die_face}: keep it or re-roll (Studies)"
    if d == Decision.CLOCK_ORDER:
        return "reordering the market pile"
    return _DECISION_WORDS.get(d, d.name.lower().replace("_", " "))
