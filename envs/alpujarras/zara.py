"""Zara, the scripted opponent of the solo game (ZARA-11, ZARA-12, ZARA-13, ZARA-14, ZARA-15,
ZARA-16, ZARA-17, ZG-05, ZG-06, ZG-07, ZG-08, ZG-14, ZG-15).

Zara is part of the game, not an agent: when the die is the rearmost piece the engine plays her
turn inside `apply`: roll, move the die, move her mule round the farmlands, act by the die's space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from .effects import place_piece

if TYPE_CHECKING:
    from .state import AlpujarrasState


def furthest_free_end(state: AlpujarrasState) -> int:
    """The furthest end space no piece occupies (G-24, ZARA-16, ZG-14)."""
    taken = set(state.pos)
    for s in range(len(state.track) - 1, -1, -1):
        if state.track[s].kind != C.END:
            break
        if s not in taken:
            return s
    raise AssertionError("no free end space: the end track has one space per piece (G-10)")


def die_target(state: AlpujarrasState, roll: int) -> int:
    """ZARA-11, ZG-05, ZG-06: the die steps forward `roll` spaces, not counting the standard
    space of the player's mule; it halts on reaching a market or harvest space; a step onto the
    end track takes it to the furthest free end space."""
    track = state.track
    mule = state.pos[0]
    steps = roll
    for s in range(state.pos[state.die] + 1, len(track)):
        kind = track[s].kind
        if kind == C.END:
            return furthest_free_end(state)
        if kind == C.STANDARD and s == mule:
            continue
        steps -= 1
        if kind != C.STANDARD or steps == 0:
            return s
    return furthest_free_end(state)


def find_token(state: AlpujarrasState, highest: bool) -> tuple[int, int] | None:
    """ZARA-14, ZG-07: (town, slot) of the token Zara takes (lowest value) or discards (highest).

    The primary fruit of her mule's farmland is looked for in that town, then in the other towns
    clockwise; with none of that fruit anywhere, the first non-empty town clockwise gives its
    lowest (highest) token, ties by fruit id. None when no token is left at all.
    """
    start = state.zara_farmland
    kind = C.PRIMARY[start]
    towns = state.towns
    for k in range(C.NUM_TOWNS):
        w = (start + k) % C.NUM_TOWNS
        slots = [i for i, t in enumerate(towns[w]) if t // 10 == kind]
        if slots:
            pick = max if highest else min
            return w, pick(slots, key=lambda i, w=w: towns[w][i] % 10)
    for k in range(C.NUM_TOWNS):
        w = (start + k) % C.NUM_TOWNS
        if towns[w]:
            if highest:
                key = lambda i, w=w: (-(towns[w][i] % 10), towns[w][i] // 10)  # noqa: E731
            else:
                key = lambda i, w=w: (towns[w][i] % 10, towns[w][i] // 10)  # noqa: E731
            return w, min(range(len(towns[w])), key=key)
    return None


def market_action(state: AlpujarrasState) -> None:
    """ZARA-14: Zara takes a token into her supply."""
    found = find_token(state, highest=False)
    if found is not None:
        w, slot = found
        state.zara_tokens.append(state.towns[w].pop(slot))
        state.zara_tokens.sort()


def harvest_action(state: AlpujarrasState) -> None:
    """ZARA-15: discard the highest token found by the same search, then one dirhem per farmland
    where Zara has strictly more farmers than the player."""
    found = find_token(state, highest=True)
    if found is not None:
        w, slot = found
        state.removed_tokens.append(state.towns[w].pop(slot))
    mine = state.farmers[0]
    state.zara_dirhems += sum(
        1 for f in range(C.NUM_FARMLANDS) if state.zara_farmers[f] > mine[f]
    )


def place_farmer(state: AlpujarrasState) -> None:
    """ZARA-13, ZG-08: one of Zara's farmers into her mule's farmland; nothing if none are left."""
    if state.zara_supply > 0:
        state.zara_supply -= 1
        state.zara_farmers[state.zara_farmland] += 1


def take_turn(state: AlpujarrasState) -> int:
    """ZARA-11, ZARA-12, ZARA-13, ZARA-14, ZARA-15, ZARA-16: one full Zara turn; returns the
    roll."""
    roll = state.rolls.pop()
    target = die_target(state, roll)
    place_piece(state, state.die, target)
    state.zara_farmland = (state.zara_farmland + roll) % C.NUM_FARMLANDS  # ZARA-12
    kind = state.track[target].kind
    if kind == C.STANDARD:
        place_farmer(state)
    elif kind == C.HARVEST:
        harvest_action(state)
    else:  # a market space, or the end track reached first (ZARA-16)
        market_action(state)
    return roll


def final_turn(state: AlpujarrasState) -> None:
    """ZARA-17, ZG-14, ZG-15: the player reached the end first; the die goes straight to the
    furthest free end space, with no roll and no mule move, and Zara makes one market action."""
    place_piece(state, state.die, furthest_free_end(state))
    market_action(state)
