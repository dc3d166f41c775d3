"""Alpujarras's flat action space (111 ids for every player count and the solo game), the phases
that give an id its meaning, and action names and descriptions.

| ids     | name            | meaning                                                          |
|---------|-----------------|------------------------------------------------------------------|
| 0-45    | MOVE_TO(s)      | MOVE: end the mule's move on track space s                       |
| 46      | DO_PLACE        | ACTION: resolve one place icon (with an empty supply: a move)    |
| 47      | DO_MOVE         | ACTION: resolve the move icon                                    |
| 48      | DO_TAKE_NORIAS  | ACTION: take the space's norias                                  |
| 49      | DO_HARVEST      | ACTION: harvest (harvest space)                                  |
| 50-54   | SPEND_NORIA(k)  | ACTION: spend k = 1 … 5 norias (ALP-61)                          |
| 55      | END_TURN        | ACTION: finish the turn                                          |
| 56-60   | FARMLAND(f)     | the farmland of a place, a move source/target, a farmer returned |
| 61-65   | FRUIT(t)        | ACTION: a take-fruit icon; GAIN/SWAP phases: the fruit kind      |
| 66-80   | CHANNEL(c)      | ACTION: irrigate channel space c                                 |
| 81-105  | DELIVER(w, k)   | ACTION: deliver the token in slot k of town w                    |
| 106-110 | CARD(i)         | ACTION: complete goal card i (solo: pay zakat card i)            |
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from . import components as C

if TYPE_CHECKING:
    from .state import AlpujarrasState


class Phase(IntEnum):
    """Which sub-decision is due; a turn passes through several phases of the same player."""

    MOVE = 0
    ACTION = 1
    PLACE_FARMLAND = 2
    MOVE_SOURCE = 3
    MOVE_TARGET = 4
    GOAL_FARMER = 5
    ZAKAT_FARMER = 6
    GAIN_FRUIT = 7
    SWAP_RETURN = 8
    SWAP_GAIN = 9
    GAME_OVER = 10


NUM_DECISION_PHASES = 10  # GAME_OVER is not a decision phase


class Chain(IntEnum):
    """What started the sub-decision chain in progress (the turn context)."""

    NONE = 0
    PLACE_ICON = 1
    MOVE_ICON = 2
    NORIA_PLACE = 3
    NORIA_MOVE = 4
    NORIA_SWAP = 5
    GOAL = 6
    ZAKAT = 7


MOVE0 = 0
DO_PLACE = C.MAX_SPACES  # 46
DO_MOVE = DO_PLACE + 1
DO_TAKE_NORIAS = DO_PLACE + 2
DO_HARVEST = DO_PLACE + 3
SPEND0 = DO_PLACE + 4  # SPEND_NORIA(k) = SPEND0 + k - 1
END_TURN = SPEND0 + 5
FARMLAND0 = END_TURN + 1
FRUIT0 = FARMLAND0 + C.NUM_FARMLANDS
CHANNEL0 = FRUIT0 + C.NUM_FRUITS
DELIVER0 = CHANNEL0 + C.NUM_CHANNELS
CARD0 = DELIVER0 + C.NUM_TOWNS * C.MAX_TOKENS_PER_TOWN
N_ACTIONS = CARD0 + C.NUM_GOAL_CARDS
assert N_ACTIONS == 111


def move_to(space: int) -> int:
    """Action id of MOVE_TO(space)."""
    return MOVE0 + space


def spend(k: int) -> int:
    """Action id of SPEND_NORIA(k), k = 1 … 5."""
    return SPEND0 + k - 1


def farmland(f: int) -> int:
    """Action id of FARMLAND(f)."""
    return FARMLAND0 + f


def fruit(t: int) -> int:
    """Action id of FRUIT(t)."""
    return FRUIT0 + t


def channel(c: int) -> int:
    """Action id of CHANNEL(c)."""
    return CHANNEL0 + c


def deliver(town: int, slot: int) -> int:
    """Action id of DELIVER(town, slot)."""
    return DELIVER0 + town * C.MAX_TOKENS_PER_TOWN + slot


def card(i: int) -> int:
    """Action id of CARD(i)."""
    return CARD0 + i


def action_name(action: int) -> str:
    """The phase-independent name of an action id, e.g. 'MOVE_TO(7)' or 'DELIVER(red,2)'."""
    if 0 <= action < DO_PLACE:
        return f"MOVE_TO({action})"
    names = {
        DO_PLACE: "DO_PLACE", DO_MOVE: "DO_MOVE", DO_TAKE_NORIAS: "DO_TAKE_NORIAS",
        DO_HARVEST: "DO_HARVEST", END_TURN: "END_TURN",
    }
    if action in names:
        return names[action]
    if SPEND0 <= action < END_TURN:
        return f"SPEND_NORIA({action - SPEND0 + 1})"
    if FARMLAND0 <= action < FRUIT0:
        return f"FARMLAND({C.FARMLANDS[action - FARMLAND0]})"
    if FRUIT0 <= action < CHANNEL0:
        return f"FRUIT({C.FRUITS[action - FRUIT0]})"
    if CHANNEL0 <= action < DELIVER0:
        return f"CHANNEL({action - CHANNEL0})"
    if DELIVER0 <= action < CARD0:
        town, slot = divmod(action - DELIVER0, C.MAX_TOKENS_PER_TOWN)
        return f"DELIVER({C.FARMLANDS[town]},{slot})"
    if CARD0 <= action < N_ACTIONS:
        return f"CARD({action - CARD0})"
    return f"<unknown action {action}>"


def describe(state: AlpujarrasState, action: int) -> str:
    """What `action` would do for the current player in `state`'s phase, in words."""
    phase = state.phase
    if 0 <= action < DO_PLACE:
        track = state.track
        if action >= len(track):
            return f"move to space {action} (not on this side of the tracks)"
        space = track[action]
        what = space.kind if space.kind != C.STANDARD else space.icons.label()
        if space.kind == C.END:
            what = f"end {space.ratio}:1"
        return f"move the mule to space {action} ({what})"
    if FARMLAND0 <= action < FRUIT0:
        f = C.FARMLANDS[action - FARMLAND0]
        return {
            Phase.PLACE_FARMLAND: f"place a farmer in the {f} farmland",
            Phase.MOVE_SOURCE: f"move a farmer out of the {f} farmland",
            Phase.MOVE_TARGET: f"move the farmer into the {f} farmland",
            Phase.GOAL_FARMER: f"put a farmer from the {f} farmland on the goal card",
            Phase.ZAKAT_FARMER: f"return a farmer from the {f} farmland to your supply (zakat)",
        }.get(phase, f"farmland {f}")
    if FRUIT0 <= action < CHANNEL0:
        t = C.FRUITS[action - FRUIT0]
        return {
            Phase.ACTION: f"take one {t} (fruit icon)",
            Phase.GAIN_FRUIT: f"gain one {t}",
            Phase.SWAP_RETURN: f"return one {t} (noria swap)",
            Phase.SWAP_GAIN: f"take one {t} (noria swap)",
        }.get(phase, f"fruit {t}")
    if CHANNEL0 <= action < DELIVER0:
        ch = C.CHANNELS[action - CHANNEL0]
        a, b = (C.FARMLANDS[f] for f in ch.farmlands)
        reward = "a dirhem" if ch.dirhem else f"a field in {C.FARMLANDS[ch.field[0]]}"
        return f"irrigate channel {ch.cid} ({a}|{b}, {ch.shape}, leads to {reward})"
    if DELIVER0 <= action < CARD0:
        town, slot = divmod(action - DELIVER0, C.MAX_TOKENS_PER_TOWN)
        tokens = state.towns[town]
        tok = C.token_label(tokens[slot]) if slot < len(tokens) else "no token"
        return f"deliver to the {C.FARMLANDS[town]} town for {tok}"
    if CARD0 <= action < N_ACTIONS:
        i = action - CARD0
        if state.solo:
            side = C.ZAKAT_CARDS[i][int(state.zakat_star[i])]
            return f"pay zakat card {i}: {side.label()}"
        side = state.goal_sides[i]
        goal = C.card_goal(i, side)
        return f"complete goal card {i}: {C.GOALS[goal]} (+{C.GOAL_REWARDS[goal]} dirhems)"
    if SPEND0 <= action < END_TURN:
        k = action - SPEND0 + 1
        kind, dirhems = C.NORIA_SPEND[k]
        text = {"place": "place a farmer", "move": "move a farmer",
                "swap": "swap one fruit for another"}[kind]
        extra = f" and earn {dirhems} dirhem{'s' if dirhems > 1 else ''}" if dirhems else ""
        return f"spend {k} noria{'s' if k > 1 else ''} to {text}{extra}"
    texts = {
        DO_PLACE: "resolve a place-a-farmer icon",
        DO_MOVE: "resolve the move-a-farmer icon",
        DO_TAKE_NORIAS: "take the space's norias",
        DO_HARVEST: "harvest the farmlands where you have the most farmers",
        END_TURN: "end the turn",
    }
    return texts.get(action, action_name(action))
