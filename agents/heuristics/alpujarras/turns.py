"""The complete turns the Alpujarras heuristic considers (`complete_turns`, `spend_turns`) and
the afterstate agent's search over them (`afterstate_turn`).

**The search** takes human shortcuts: the harvest comes first on a harvest space; free icons
(place, irrigate, norias, fruit) are always resolved; a gained fruit is one of the two kinds
needed most (a swap gives back one of the two needed least; the need is measured with the norias
set aside, since the value counts on them for exactly such swaps); the mule considers the six
nearest free standard spaces, the next two market or harvest spaces and the furthest free end
space; icons resolved in another order reach the same position once (transpositions), and in the
multiplayer game orders that reach no new position are not followed at all: the fruit icon is
taken after the other free icons, a place icon before the move icon, and a farmer placed right
after an irrigation only in a farmland the channel touches (the solo search keeps every order).
Norias are spent after the icons, or before them when the icons would overflow the cap; a
placement spends as many norias as it can; a turn spends at most twice on a standard space and
three times elsewhere, with one farmer move and two fruit swaps (swaps only where a delivery, goal
or zakat can use them). Multiplayer turns are searched without noria spends first, then the
spends are added to the three best turns; a decision expands at most `MAX_NODES` positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import (
    CHANNEL0,
    DELIVER0,
    DO_HARVEST,
    DO_MOVE,
    DO_PLACE,
    DO_TAKE_NORIAS,
    END_TURN,
    FARMLAND0,
    FRUIT0,
    SPEND0,
    Phase,
)
from huerta.envs.alpujarras.state import AlpujarrasState

from .solo import solo_value
from .value import position_value

MAX_NODES = 5000  # states expanded per decision, a bound for pathological positions
NEAR_TARGETS = 6  # nearest free standard spaces the mule considers
SPECIAL_TARGETS = 2  # next market/harvest spaces the mule considers
FRUIT_CHOICES = 2  # fruit kinds considered for each gain or swap
SPEND_BEAM = 3  # multiplayer: best turns that noria spends are added to
ROLL_SAMPLES = 6  # solo: Zara's futures each turn is judged over
MAX_SPENDS = 2  # noria spends per turn on a standard space
MAX_SPENDS_SPECIAL = 3  # on a market or harvest space or the end track
MAX_SWAPS = 2  # fruit swaps per turn (only where a delivery, goal or zakat can use them)

_P_MOVE = int(Phase.MOVE)
_P_ACTION = int(Phase.ACTION)
_P_PLACE_FARMLAND = int(Phase.PLACE_FARMLAND)
_P_GAIN_FRUIT = int(Phase.GAIN_FRUIT)
_P_SWAP_RETURN = int(Phase.SWAP_RETURN)
_P_SWAP_GAIN = int(Phase.SWAP_GAIN)
_SPEND_SWAP = SPEND0
_SPEND_MOVE = SPEND0 + 1
_F = range(C.NUM_FARMLANDS)
_T = range(C.NUM_FRUITS)


def _move_targets(state: AlpujarrasState, legal: list[int]) -> list[int]:
    """The mule's candidate stops: the nearest free standard spaces, the next market and harvest
    spaces, and the furthest free end space."""
    track = state.track
    near, special, ends = [], [], []
    for s in legal:
        kind = track[s].kind
        if kind == C.STANDARD:
            if len(near) < NEAR_TARGETS:
                near.append(s)
        elif kind == C.END:
            ends.append(s)
        elif len(special) < SPECIAL_TARGETS:
            special.append(s)
    return near + special + ends[-1:]


def _key(s: AlpujarrasState, me: int, spends: int, swaps: int, moved: bool) -> tuple:
    """What distinguishes two ACTION-phase states of the same turn (transpositions)."""
    return (
        s.pos[me], s.double_turns, s.pend_place, s.pend_move, s.pend_irrigate, s.pend_norias,
        s.pend_fruit, s.market_left, s.card_left, s.harvest_left, s.p2_first_farmland,
        s.p2_first_fruit, spends, swaps, moved,
        tuple(s.farmers[me]), tuple(s.fruit[me]), s.norias[me], s.dirhems[me], s.supply[me],
        tuple(s.channels), tuple(s.tokens[me]), tuple(s.goals_done[me]), tuple(s.zakat_paid),
    )


def _action_choices(s: AlpujarrasState, legal: list[int], spends: int, swaps: int,
                    moved: bool, spend: bool) -> list[int]:
    """The ACTION-phase choices worth searching among the `legal` actions (see the module
    docstring); without `spend` norias are spent only where the icons would overflow the cap."""
    if DO_HARVEST in legal:
        return [DO_HARVEST]
    me = s.current_player
    icons = s.pend_place or s.pend_move or s.pend_irrigate or s.pend_norias or s.pend_fruit
    # free icons left: placing, norias, channels (and the fruit icon, taken after the others:
    # earlier it reaches no new position)
    others = fruit = False
    for a in legal:
        if a in (DO_PLACE, DO_TAKE_NORIAS) or CHANNEL0 <= a < DELIVER0:
            others = True
            break
        if FRUIT0 <= a < CHANNEL0:
            fruit = True
    free = others or fruit
    multi = not s.solo  # the solo search keeps every order (its documented figures)
    fruit_later = multi and others and s.pend_fruit
    special = s.track.kinds[s.pos[me]] != C.K_STANDARD  # markets, harvests, the end track
    out = []
    for a in legal:
        if a == END_TURN:
            if not free:
                out.append(a)
        elif a == DO_MOVE:
            if not multi or DO_PLACE not in legal:  # placing first can move the one placed
                out.append(a)
        elif a in (DO_PLACE, DO_TAKE_NORIAS) or a >= CHANNEL0:
            out.append(a)
        elif a >= FRUIT0:
            if not fruit_later:
                out.append(a)
        elif SPEND0 <= a < END_TURN:
            if spends >= (MAX_SPENDS_SPECIAL if special else MAX_SPENDS):
                continue
            norias = s.norias[me]
            overflow = norias + s.pend_norias > C.NORIA_CAP or (s.pend_irrigate and norias >= 4)
            if (icons or not spend) and not overflow:
                continue
            if a == _SPEND_SWAP:
                if not special or swaps >= MAX_SWAPS:
                    continue
            elif a == _SPEND_MOVE:
                if moved:
                    continue
            elif a > _SPEND_MOVE and a + 1 < END_TURN and a + 1 in legal:
                continue  # a placement spends as many norias as it can
            out.append(a)
    return out


# per channel: the farmlands whose farmers or fields it touches (its norias, its crop)
_TOUCHING = tuple(
    frozenset(ch.farmlands) | (frozenset() if ch.field is None else frozenset((ch.field[0],)))
    for ch in C.CHANNELS
)
_FRUIT_PHASES = (_P_GAIN_FRUIT, _P_SWAP_RETURN, _P_SWAP_GAIN)


def _spent(a: int, phase: int, spends: int, swaps: int, moved: bool) -> tuple[int, int, bool]:
    """The turn's (noria spends, swaps, farmer moved) after action `a` in `phase`."""
    if SPEND0 <= a < END_TURN and phase == _P_ACTION:
        return spends + 1, swaps + (a == _SPEND_SWAP), moved or a == _SPEND_MOVE
    return spends, swaps, moved


def _fruit_choices(s: AlpujarrasState, legal: list[int], need: list[float]) -> list[int]:
    """The two fruit kinds needed most (to gain) or least (to give back in a swap)."""
    kinds = [a - FRUIT0 for a in legal]
    kinds.sort(key=lambda t: need[t], reverse=s.phase != _P_SWAP_RETURN)
    return [FRUIT0 + t for t in kinds[:FRUIT_CHOICES if s.solo else 1]]


def fruit_need(state: AlpujarrasState, me: int, value) -> list[float]:
    """How much one more fruit of each kind is worth to `me` now, by `value(state, me)`. The
    norias are set aside while it is measured: the value counts on them to swap a missing fruit
    in, and the swap's gain is among the choices this ranking makes."""
    norias = state.norias[me]
    state.norias[me] = 0
    base = value(state, me)
    out = []
    for t in _T:
        if state.fruit[me][t] >= C.FRUIT_CAP:
            out.append(-1.0)
            continue
        state.fruit[me][t] += 1
        out.append(value(state, me) - base)
        state.fruit[me][t] -= 1
    state.norias[me] = norias
    return out


def complete_turns(
    state: AlpujarrasState, me: int, limit: int = MAX_NODES, before_end: bool = False,
    need: list[float] | None = None, spend: bool = True,
) -> Iterator[tuple[list[int], AlpujarrasState]]:
    """The sensible ways to finish `me`'s current turn: (actions, resulting state). A turn ends
    when the turn counter moves on or the game ends; the mule's move is the first action when the
    turn has not started yet. With `before_end` the states are given just before the final
    END_TURN (the last action), so that its chance (the die, Zara) can be sampled. With `need`
    (a value per fruit kind) a fruit gained is one of the two kinds needed most, and a fruit
    swapped away one of the two needed least. Without `spend` norias are spent only where the
    icons would overflow the cap (the agent adds spends to the best turns afterwards).

    The states yielded may be the caller's `state` itself for a turn with one way to finish;
    callers that keep `state` pass a copy."""
    start = state.turns
    nodes = 0
    seen: set[tuple] = set()
    stack: list[tuple[list[int], AlpujarrasState, int, int, bool]] = [([], state, 0, 0, False)]
    while stack:
        actions, s, spends, swaps, moved = stack.pop()
        while True:  # a node with one choice goes on to its child at once
            if s.terminal or s.turns != start:
                yield actions, s
                break
            nodes += 1
            if nodes > limit:
                return
            legal = s.legal_mask().nonzero()[0].tolist()
            phase = s.phase
            if phase == _P_MOVE:
                choices = _move_targets(s, legal)
            elif phase == _P_ACTION:
                key = _key(s, me, spends, swaps, moved)
                if key in seen:
                    break
                seen.add(key)
                choices = _action_choices(s, legal, spends, swaps, moved, spend)
            elif phase in _FRUIT_PHASES and need is not None:
                choices = _fruit_choices(s, legal, need)
            elif phase == _P_PLACE_FARMLAND and len(actions) > 1 and actions[-1] == DO_PLACE \
                    and CHANNEL0 <= actions[-2] < DELIVER0 and not s.solo:
                # a placement right after an irrigation reaches a new position only where the
                # channel touches the farmland (placing first reaches the others)
                touching = _TOUCHING[actions[-2] - CHANNEL0]
                choices = [a for a in legal if a - FARMLAND0 in touching]
            else:
                choices = legal
            last = len(choices) - 1
            if last == 0 and not (before_end and phase == _P_ACTION and choices[0] == END_TURN):
                a = choices[0]
                s.apply(a)
                actions = [*actions, a]
                spends, swaps, moved = _spent(a, phase, spends, swaps, moved)
                continue
            for k, a in enumerate(reversed(choices)):
                if before_end and a == END_TURN and phase == _P_ACTION:
                    yield [*actions, a], s
                    continue
                child = s if k == last else s.clone()  # the parent is not needed after its children
                child.apply(a)
                stack.append(([*actions, a], child, *_spent(a, phase, spends, swaps, moved)))
            break


def spend_turns(
    state: AlpujarrasState, actions: list[int], me: int, need: list[float],
) -> Iterator[tuple[list[int], AlpujarrasState]]:
    """The turns that add optional noria spends to `actions` (a turn of `me` from `state`
    ended by END_TURN, where `me` still holds norias in the action phase), as `complete_turns`
    gives them (the state before the final END_TURN); none for another turn. The multiplayer
    searches add these to their best turns without spends."""
    if actions[-1] != END_TURN:
        return
    pre = state.clone()
    for a in actions[:-1]:
        pre.apply(a)
    if pre.phase != _P_ACTION or not pre.norias[me]:
        return
    for more, result in complete_turns(pre, me, before_end=True, need=need,
                                       limit=MAX_NODES // SPEND_BEAM):
        yield actions[:-1] + more, result



def afterstate_turn(
    state: AlpujarrasState, me: int, judge: Callable[[list[AlpujarrasState]], np.ndarray],
    rng: np.random.Generator,
) -> list[int]:
    """The turn of `me` whose resulting position `judge` (positions -> a value each) rates
    best, searched as `AlpujarrasHeuristic.best_turn` searches (the same turns, the noria spends
    added to the `SPEND_BEAM` best), each turn judged once it has ended: the learned afterstate
    agent's search (`huerta.agents.afterstate`). A solo turn is judged by the mean over
    `ROLL_SAMPLES` of Zara's futures (die rolls drawn with `rng`). Returns the plan up to the
    first irrigation that draws a hidden crop token (`until_chance`); empty when there is
    nothing to choose."""
    state = state.clone()
    state.invalidate()
    solo = state.solo
    samples = ([rng.integers(1, C.DIE_SIDES + 1, size=len(state.rolls)).tolist()
                for _ in range(ROLL_SAMPLES)] if solo and state.rolls else [[]])

    def ended(actions: list[int], result: AlpujarrasState) -> list[AlpujarrasState]:
        if actions[-1] != END_TURN or result.terminal or result.phase != _P_ACTION:
            return [result]
        futures = []
        for rolls in samples:
            after = result.clone()
            if rolls:
                after.rolls = list(rolls)
            after.apply(END_TURN)
            futures.append(after)
        return futures

    def rate(found: Iterator[tuple[list[int], AlpujarrasState]],
             ) -> tuple[list[list[int]], np.ndarray]:
        # each turn is ended as it is found: `complete_turns` goes on to play other actions
        # on the state it yields before END_TURN
        turns, positions = [], []
        for actions, result in found:
            turns.append(actions)
            positions.append(ended(actions, result))
        if not turns:
            return [], np.zeros(0)
        values = judge([p for group in positions for p in group])
        sizes = np.array([len(group) for group in positions])
        return turns, np.add.reduceat(values, np.cumsum(sizes) - sizes) / sizes

    value = solo_value if solo else position_value
    need = fruit_need(state, me, (lambda s, _: value(s)) if solo else value)
    turns, values = rate(complete_turns(state.clone(), me, before_end=True, need=need,
                                        spend=solo))
    if not turns:
        return []
    if not solo:  # the spends, added to the best turns without them
        for k in np.argsort(-values, kind="stable")[:SPEND_BEAM]:
            more, more_values = rate(spend_turns(state, turns[k], me, need))
            turns += more
            values = np.concatenate([values, more_values])
    return until_chance(state, turns[int(np.argmax(values))])


def until_chance(state: AlpujarrasState, actions: list[int]) -> list[int]:
    """The plan up to and including the first irrigation that draws a crop token (its kind is
    hidden, so the rest of the turn is planned again once it is known)."""
    for k, a in enumerate(actions):
        if CHANNEL0 <= a < DELIVER0 and C.CHANNELS[a - CHANNEL0].field is not None \
                and len(set(state.bag)) > 1:
            return actions[:k + 1]
    return actions


