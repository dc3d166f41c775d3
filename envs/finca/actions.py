"""Finca's flat action space (34 ids for every player count), the phases, and action meanings.

| ids   | name           | meaning (by phase)                                                    |
|-------|----------------|-----------------------------------------------------------------------|
| 0-11  | BLADE(b)       | INTRO: place a farmer on b; MAIN, DM_MOVE_1/2: move an own farmer     |
|       |                | from b; GUST_SOURCE: pick the own farmer on b; GUST_TARGET: put it on b|
| 12-21 | COMM(c)        | DELIVER_SELECT: add community c's face-up tile to the delivery        |
| 22-27 | FRUIT(f)       | DELIVER_WILD: pay the tile's wild symbols with f;                     |
|       |                | DELIVER_OMIT: leave one f out (One fruit less)                        |
| 28    | DELIVER        | MAIN: start a delivery with a donkey cart (cap 6)                     |
| 29    | PLAY_DOUBLE    | MAIN: play Double move                                                |
| 30    | PLAY_GUST      | MAIN: play Gust of wind                                               |
| 31    | PLAY_LARGE     | MAIN: play Large donkey cart (a delivery with cap 10, no cart)        |
| 32    | PLAY_ONELESS   | MAIN: play One fruit less (a cart delivery, one fruit omitted)        |
| 33    | CONFIRM        | DELIVER_SELECT: hand the selected tiles over and end the turn         |
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from . import components as C

if TYPE_CHECKING:
    from .state import FincaState


class Phase(IntEnum):
    """Who decides what next; a turn may pass through several phases of the same player."""

    INTRO = 0
    MAIN = 1
    DM_MOVE_1 = 2
    DM_MOVE_2 = 3
    GUST_SOURCE = 4
    GUST_TARGET = 5
    DELIVER_SELECT = 6
    DELIVER_WILD = 7
    DELIVER_OMIT = 8
    GAME_OVER = 9


NUM_DECISION_PHASES = 9  # GAME_OVER is not a decision phase


class DeliveryMode(IntEnum):
    """How the current delivery was started: its cap, whether it costs a cart, the reduction."""

    NONE = -1
    NORMAL = 0
    LARGE = 1
    ONE_LESS = 2


BLADE0 = 0
COMM0 = 12
FRUIT0 = 22
DELIVER = 28
PLAY_DOUBLE = 29
PLAY_GUST = 30
PLAY_LARGE = 31
PLAY_ONELESS = 32
CONFIRM = 33
N_ACTIONS = 34

PLAY_ACTIONS = {
    PLAY_DOUBLE: C.DOUBLE_MOVE,
    PLAY_GUST: C.GUST_OF_WIND,
    PLAY_LARGE: C.LARGE_CART,
    PLAY_ONELESS: C.ONE_FRUIT_LESS,
}


def blade(b: int) -> int:
    """Action id of BLADE(b)."""
    return BLADE0 + b


def comm(c: int) -> int:
    """Action id of COMM(c)."""
    return COMM0 + c


def fruit(f: int) -> int:
    """Action id of FRUIT(f)."""
    return FRUIT0 + f


def action_name(action: int) -> str:
    """The phase-independent name of an action id, e.g. 'BLADE(3)' or 'CONFIRM'."""
    if 0 <= action < COMM0:
        return f"BLADE({action})"
    if COMM0 <= action < FRUIT0:
        return f"COMM({action - COMM0})"
    if FRUIT0 <= action < DELIVER:
        return f"FRUIT({C.FRUITS[action - FRUIT0]})"
    names = {
        DELIVER: "DELIVER", PLAY_DOUBLE: "PLAY_DOUBLE", PLAY_GUST: "PLAY_GUST",
        PLAY_LARGE: "PLAY_LARGE", PLAY_ONELESS: "PLAY_ONELESS", CONFIRM: "CONFIRM",
    }
    return names.get(action, f"<unknown action {action}>")


def describe(state: FincaState, action: int) -> str:
    """What `action` would do for the current player in `state`'s phase, in words."""
    phase = state.phase
    if 0 <= action < COMM0:
        b = action
        where = f"blade {b} ({C.FRUITS[state.blades[b]]})"
        if phase == Phase.INTRO:
            return f"place a farmer on {where}"
        if phase == Phase.GUST_SOURCE:
            return f"Gust of wind: pick up the farmer on {where}"
        if phase == Phase.GUST_TARGET:
            return f"Gust of wind: put the farmer on {where}"
        steps = state.blade_total[b]
        dest = (b + steps) % C.NUM_BLADES
        return f"move a farmer from {where} {steps} step(s) to blade {dest}"
    if COMM0 <= action < FRUIT0:
        c = action - COMM0
        stack = state.stacks[c]
        top = state.catalogue[stack[-1]].label() if stack else "empty"
        return f"deliver to community {c} (tile {top})"
    if FRUIT0 <= action < DELIVER:
        f = C.FRUITS[action - FRUIT0]
        if phase == Phase.DELIVER_OMIT:
            return f"leave one {f} out (One fruit less)"
        return f"pay the wild symbols with {f}"
    texts = {
        DELIVER: "start a delivery with a donkey cart (up to 6 fruits)",
        PLAY_DOUBLE: "play Double move",
        PLAY_GUST: "play Gust of wind",
        PLAY_LARGE: "play Large donkey cart (deliver up to 10 fruits, no cart)",
        PLAY_ONELESS: "play One fruit less (deliver one fruit fewer)",
        CONFIRM: "hand the selected tiles over",
    }
    return texts.get(action, action_name(action))
