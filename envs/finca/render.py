"""Finca as text (the `ansi` render): the windmill, supply, communities and every player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.legend import fruit_codes, legend_lines
from . import components as C
from .actions import DeliveryMode, Phase

if TYPE_CHECKING:
    from .state import FincaState

# the action tiles by short name (Double move, Gust of wind, Large cart, One fruit less); words,
# not letters, so that no letter means a fruit here and an action tile there
ACTION_TILE_WORDS = ("double", "gust", "large", "less")
PHASE_TEXT = {
    Phase.INTRO: "placing the first farmers", Phase.MAIN: "main action",
    Phase.DM_MOVE_1: "Double move, first move", Phase.DM_MOVE_2: "Double move, second move",
    Phase.GUST_SOURCE: "Gust of wind, which farmer", Phase.GUST_TARGET: "Gust of wind, to where",
    Phase.DELIVER_SELECT: "delivery, choosing tiles", Phase.DELIVER_WILD: "delivery, paying '?'",
    Phase.DELIVER_OMIT: "delivery, the fruit left out", Phase.GAME_OVER: "game over",
}
MODE_TEXT = {DeliveryMode.NORMAL: "donkey cart", DeliveryMode.LARGE: "Large cart",
             DeliveryMode.ONE_LESS: "One fruit less"}
assert fruit_codes(C.FRUITS) == C.FRUIT_LETTERS  # the codes every game shares (core.legend)
LEGEND = (
    ("F A O R G L", "fig, almond, olive, orange, grape, lemon (A3 = 3 almonds)"),
    ("B0-B11", "windmill blades, clockwise"),
    ("|", "a dividing line: entering the blade after it earns a cart"),
    ("P1x2", "two farmers of player_1"),
    ("*", "the player to act"),
    ("C0-C9", "communities"),
    ("2F+1A [3]", "a fruit tile asking two figs and an almond, worth 3 points"),
    ("4?", "four fruits of any one kind"),
    ("finca A+F", "5 points to the most almonds and figs printed on a player's tiles"),
    ("ALL", "5 points to the most fruit-tile points"),
    ("tiles", "values of the fruit tiles won"),
    ("actions", "action tiles still unused (2 points each): double = Double move, gust = Gust of "
                "wind, large = Large cart, less = One fruit less"),
)


def _fruit_counts(counts: list[int]) -> str:
    return " ".join(f"{C.FRUIT_LETTERS[f]}{n}" for f, n in enumerate(counts))


def render_text(state: FincaState) -> str:
    """A multi-line text picture of the whole public state."""
    n = state.num_players
    phase = Phase(state.phase)
    head = ("game over" if state.terminal
            else f"player_{state.current_player} to act ({PHASE_TEXT[phase]})")
    lines = [f"Finca, {n} players, turn {state.turns}, step {state.steps}: {head}"]
    lines.append("Windmill (clockwise; '|' is a dividing line, entering its blade earns a cart):")
    for b in range(C.NUM_BLADES):
        line = "  |" if b in C.LINE_BLADES else "   "
        farmers = " ".join(
            f"P{p}x{state.farmers[p][b]}" for p in range(n) if state.farmers[p][b]
        )
        lines.append(f"{line}B{b:<2} {C.FRUITS[state.blades[b]]:<7} {farmers}")
    bonus = " ".join(str(v) for v in reversed(state.bonus_stack)) or "-"
    lines.append(
        f"Supply: {_fruit_counts(state.supply)} | carts in centre {state.centre_carts}"
        f"/{state.carts_in_play} | bonus stack (top first) {bonus} | wooden fincas left "
        f"{state.wooden_reserve}"
    )
    lines.append("Communities (top tile [value], tiles beneath, finca tile):")
    for c in range(C.NUM_COMMUNITIES):
        stack = state.stacks[c]
        top = state.catalogue[stack[-1]].label() if stack else "(empty)"
        finca = state.finca_tile[c]
        finca_text = C.FINCA_TILES[finca].label() if finca >= 0 else "resolved"
        wooden = " + wooden finca" if state.wooden[c] else ""
        beneath = max(len(stack) - 1, 0)
        lines.append(f"  C{c}: {top:<24} {beneath} beneath  finca {finca_text}{wooden}")
    scores = state.scores()
    lines.append("Players (* acts):")
    for p in range(n):
        mark = "*" if p == state.current_player and not state.terminal else " "
        tiles = ",".join(str(state.catalogue[t].value) for t in state.displays[p]) or "-"
        fincas = ",".join(C.FINCA_TILES[f].label() for f in state.fincas_won[p]) or "-"
        unused = ",".join(
            word for word, free in zip(ACTION_TILE_WORDS, state.unused[p], strict=True) if free
        ) or "none"
        bonuses = ",".join(map(str, state.bonuses[p])) or "-"
        lines.append(
            f" {mark}P{p}: fruit {_fruit_counts(state.fruits[p])} | carts {state.carts[p]} | "
            f"tiles {tiles} | fincas {fincas} | bonus {bonuses} | actions {unused} | "
            f"score {scores[p]}"
        )
    if state.mode != DeliveryMode.NONE:
        chosen = ", ".join(
            f"C{c}" + (f" wild={C.FRUITS[w]}" if w >= 0 else "")
            + (f" omit={C.FRUITS[o]}" if o >= 0 else "")
            for c, w, o in state.selected
        ) or "nothing yet"
        lines.append(
            f"Delivery ({MODE_TEXT[DeliveryMode(state.mode)]}): {chosen}; committed "
            f"{_fruit_counts(state.committed)}; cap left {state.cap_left}"
            + ("; one fruit still to omit" if state.reduce_pending else "")
        )
    if state.terminal:
        winners = state.winners()
        names = ", ".join(f"P{w}" for w in winners)
        lines.append(("Shared victory: " if len(winners) > 1 else "Winner: ") + names)
    lines.extend(legend_lines(LEGEND))
    return "\n".join(lines)
