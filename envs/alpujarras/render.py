"""Alpujarras as text (the `ansi` render): track, farmlands, towns, channels, cards, players and,
in the solo game, Zara. Only public information: the crop bag shows its composition."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.legend import fruit_codes, legend_lines
from . import components as C
from . import effects
from .actions import Phase
from .goals import zakat_side

if TYPE_CHECKING:
    from .state import AlpujarrasState

# The fruit codes every game shares (core.legend): apple is Ap and orange R, so that A stays
# Finca's almond and O its olive.
FRUIT_CODES = fruit_codes(C.FRUITS)
LEGEND = (
    ("Ap Ch L R G", "apple, cherry, lemon, orange, grape (Ch3 = 3 cherries)"),
    ("P0-P3", "the players (* = to act)"),
    ("GO MA MB MC MD HA HB HC HD END", "track segments: go, markets A-D, harvests A-D, end"),
    ("space icons: P", "place a farmer"), ("P2", "place 2 farmers"),
    ("P:red", "place a farmer in the red farmland"), ("M", "move a farmer"),
    ("I", "irrigate"), ("N", "take a noria"), ("F", "take a fruit"), ("D", "take a dirhem"),
    ("F2 D2", "a digit repeats the icon (2 fruit, 2 dirhems)"), ("P+F", "both icons"),
    ("MARKET", "deliver a token"),
    ("HARVEST", "harvest and complete a goal"),
    ("END 5:1", "end space where leftover fruit sells 5 for a dirhem"),
    ("[P1,die]", "the pieces on a space, rearmost first"),
    ("fields Ap2", "two apple fields (printed or irrigated)"),
    ("cherry-4", "a delivery token asking 4 cherries"),
)
AWARD_LEGEND = (
    ("award green 2", "the town's award token: its first delivery earns the green side (2 "
                      "dirhems), the second the red side (1), then it is gone (-)"),
    ("cards", "farmers on goal cards"),
)
SOLO_LEGEND = (
    ("Zara-die", "Zara's die on the track"),
    ("[star]", "a zakat card's harder side"),
)
PHASE_TEXT = {
    Phase.MOVE: "move the mule", Phase.ACTION: "the space's actions",
    Phase.PLACE_FARMLAND: "place a farmer, which farmland", Phase.MOVE_SOURCE:
    "move a farmer, from where", Phase.MOVE_TARGET: "move a farmer, to where",
    Phase.GOAL_FARMER: "a farmer for the goal card", Phase.ZAKAT_FARMER: "a farmer for the zakat",
    Phase.GAIN_FRUIT: "which fruit to take", Phase.SWAP_RETURN: "noria swap, fruit to return",
    Phase.SWAP_GAIN: "noria swap, fruit to take", Phase.GAME_OVER: "game over",
}


def fruit_counts(counts: list[int]) -> str:
    """'Ap0 Ch1 L0 R2 G0': a count for every fruit, by the shared fruit codes."""
    return " ".join(f"{FRUIT_CODES[t]}{n}" for t, n in enumerate(counts))


_fruit = fruit_counts


def _piece_name(state: AlpujarrasState, i: int) -> str:
    if i < state.num_players:
        return f"P{i}"
    return "Zara-die" if state.solo else "die"


def _space_text(space: C.Space) -> str:
    if space.kind == C.STANDARD:
        return space.icons.label()
    if space.kind == C.END:
        return f"END {space.ratio}:1"
    return space.kind.upper()


def render_text(state: AlpujarrasState) -> str:
    """A multi-line text picture of the whole public state."""
    n = state.num_players
    title = "solo game against Zara" if state.solo else f"{n} players"
    if state.terminal:
        head = "game over"
    else:
        head = f"player_{state.current_player} to act ({PHASE_TEXT[Phase(state.phase)]})"
    lines = [f"Alpujarras, {title}, turn {state.turns}, step {state.steps}: {head}"]
    segs = " ".join(C.SEGMENT_NAMES[s] for s in state.layout)
    lines.append(f"Track ({segs}); pieces listed rearmost first on each space:")
    at: dict[int, list[int]] = {}
    for i in range(state.num_pieces):
        at.setdefault(state.pos[i], []).append(i)
    start = sorted(at.get(-1, []), key=lambda i: state.spot[i])
    lines.append("  start: " + (" ".join(_piece_name(state, i) for i in start) or "-"))
    row = []
    for s, space in enumerate(state.track):
        here = sorted(at.get(s, []), key=lambda i: state.spot[i])
        who = ",".join(_piece_name(state, i) for i in here)
        row.append(f"{s}:{_space_text(space)}" + (f"[{who}]" if who else ""))
    for k in range(0, len(row), 8):
        lines.append("  " + "  ".join(row[k:k + 8]))
    lines.append("Farmlands (fields: printed + crops; farmers per player):")
    for f in range(C.NUM_FARMLANDS):
        counts = effects.field_counts(state, f)
        fields = " ".join(
            f"{FRUIT_CODES[t]}{counts[t]}" for t in range(C.NUM_FRUITS) if counts[t]
        )
        empty = sum(1 for k in state.fields[f] if k < 0)
        farmers = " ".join(f"P{p}:{state.farmers[p][f]}" for p in range(n))
        extra = ""
        if state.solo:
            extra = f" Zara:{state.zara_farmers[f]}" + (
                " <- Zara's mule" if state.zara_farmland == f else ""
            )
        lines.append(
            f"  {C.FARMLANDS[f]:<7} primary {C.FRUITS[C.PRIMARY[f]]:<7} fields {fields}"
            f" (+{empty} empty) | {farmers}{extra}"
        )
    lines.append("Towns (tokens fruit-value; award; farmers in town):" if not state.solo
                 else "Towns (tokens fruit-value; farmers in town):")
    award_text = {C.AWARD_GREEN: "green", C.AWARD_RED: "red", C.AWARD_GONE: "-"}
    for w in range(C.NUM_TOWNS):
        toks = " ".join(C.token_label(t) for t in state.towns[w]) or "(none)"
        award = state.awards[w]
        green, red = C.AWARDS[state.award_ids[w]]
        reward = {C.AWARD_GREEN: f" {green}", C.AWARD_RED: f" {red}"}.get(award, "")
        farmers = " ".join(f"P{p}:{state.town_farmers[p][w]}" for p in range(n))
        award_part = "" if state.solo else f" | award {award_text[award]}{reward}"
        lines.append(f"  {C.FARMLANDS[w]:<7} {toks}{award_part} | {farmers}")
    filled = [str(c) for c in range(C.NUM_CHANNELS) if state.channels[c]]
    lines.append(
        f"Channels filled: {', '.join(filled) or 'none'} | crop bag {_fruit(_bag(state))}"
    )
    if state.solo:
        cards = []
        for i in range(C.NUM_ZAKAT_CARDS):
            mark = "paid" if state.zakat_paid[i] else ("star" if state.zakat_star[i] else "plain")
            cards.append(f"  card {i} [{mark}]: {zakat_side(state, i).label()}")
        lines.append("Zakat cards:")
        lines.extend(cards)
        lines.append(
            f"Zara: supply {state.zara_supply}, dirhems {state.zara_dirhems}, tokens "
            f"{' '.join(C.token_label(t) for t in state.zara_tokens) or '-'}, score "
            f"{effects.zara_score(state)} | double turns left {state.double_turns}"
        )
    else:
        goals = []
        for i in range(C.NUM_GOAL_CARDS):
            goal = C.card_goal(i, state.goal_sides[i])
            done = ",".join(f"P{p}" for p in range(n) if state.goals_done[p][i]) or "-"
            goals.append(f"  card {i}: {C.GOALS[goal]}, +{C.GOAL_REWARDS[goal]} dirhems [{done}]")
        lines.append("Goal cards (reward [players who completed it]):")
        lines.extend(goals)
    lines.append("Players (* acts):")
    for p in range(n):
        mark = "*" if p == state.current_player and not state.terminal else " "
        toks = " ".join(C.token_label(t) for t in state.tokens[p]) or "-"
        cards = "" if state.solo else f" | cards {state.card_farmers[p]}"
        lines.append(
            f" {mark}P{p}: fruit {_fruit(state.fruit[p])} | norias {state.norias[p]} | dirhems "
            f"{state.dirhems[p]} | supply {state.supply[p]} | towns "
            f"{sum(state.town_farmers[p])}{cards} | tokens {toks} | "
            f"score {effects.score(state, p)}"
        )
    if not state.terminal and state.phase != Phase.MOVE:
        lines.append("Turn: " + turn_text(state))
    if state.terminal:
        if state.solo:
            result = "the player beats Zara" if not state.lost else f"Zara wins ({state.lost})"
            lines.append(f"Result: {result}")
        else:
            lines.append("Winner: " + ", ".join(f"P{w}" for w in state.winners()))
    lines.extend(legend_lines(LEGEND + (SOLO_LEGEND if state.solo else AWARD_LEGEND)))
    return "\n".join(lines)


def _bag(state: AlpujarrasState) -> list[int]:
    counts = [0] * C.NUM_FRUITS
    for k in state.bag:
        counts[k] += 1
    return counts


def turn_text(state: AlpujarrasState) -> str:
    """What the turn under way still asks of the player, in one line (shared with the picture)."""
    parts = []
    if state.pend_place:
        where = C.FARMLANDS[state.place_target] if state.place_target >= 0 else "any"
        parts.append(f"place x{state.pend_place} ({where})")
    for name, count in (("move", state.pend_move), ("irrigate", state.pend_irrigate),
                        ("norias", state.pend_norias), ("fruit", state.pend_fruit)):
        if count:
            parts.append(f"{name} x{count}")
    if state.market_left:
        parts.append("delivery open")
    if state.harvest_left:
        parts.append("harvest open")
    if state.card_left:
        parts.append("zakat due" if state.solo else "goal open")
    return ", ".join(parts) or "nothing left but noria spends"
