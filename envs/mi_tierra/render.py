"""Mi Tierra as text (the `ansi` render): round, markets, board, display and every player.

Only public information is drawn: the market pile appears as its size (and how many positions each
player has peeked), never its order, so a rendered game can be shown to every player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from .actions import Decision, Stage
from .farm import farm_items

if TYPE_CHECKING:
    from .state import MiTierraState


def _goods(goods: list[int]) -> str:
    return " ".join(f"{C.GOOD_ABBREV[g]}{n}" for g, n in enumerate(goods) if n) or "-"


def _card(card: int) -> str:
    return f"{C.MARKET_CARDS[card].code} {C.MARKET_CARDS[card].label()}" if card >= 0 else "-"


def _farm_rows(state: MiTierraState, p: int) -> list[str]:
    rows = []
    for r in range(C.FARM_ROWS):
        cells = []
        for k in range(C.FARM_COLS):
            c = r * C.FARM_COLS + k
            tile = state.tiles[p][c]
            text = C.TILE_LETTERS[tile]
            if state.barn_count[p][c]:
                kind = "s" if state.barn_kind[p][c] == C.SHEEP else "c"
                text += f"{kind}{state.barn_count[p][c]}"
            if state.farm_workers[p][c]:
                text += "*"
            cells.append(f"{text:<4}")
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
        head = (f"player_{state.current_player} to act "
                f"({Stage(state.stage).name}: {Decision(state.decision).name})")
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
            zone = C.ZONES[C.SPACE_ZONE[i]].key
            k = i - C.ZONE_FIRST_SPACE[C.SPACE_ZONE[i]]
            pair = "x2" if state.space_pair[i] else ""
            occupied.append(f"{zone}[{k}]=P{owner}{pair}")
    if state.bm_workers:
        occupied.append("black_market=" + ",".join(f"P{p}" for p in state.bm_workers))
    lines.append("Board: " + (" ".join(occupied) if occupied else "no workers"))
    lines.append("Players (* acts; farm: A/W/G fields, 2/3 barnyards with s/c animals, "
                 "* a worker):")
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
    return "\n".join(lines)
