"""Alpujarras's rules: the exact legal-action mask and the transitions of every decision.

`apply` checks the mask first and raises `IllegalActionError` (naming the action and the reason)
before touching anything, so a refused action loses nothing. Every compound choice is unmasked
only when its whole chain of sub-decisions can be completed, and a sub-decision with no option
(a fruit gain with every grown kind at the cap) is skipped, so a live player never faces an
empty mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import numpy as np

from ..core.errors import IllegalActionError
from ..core.validation import check_action
from . import components as C
from . import effects, turns
from .actions import (
    CARD0,
    CHANNEL0,
    DELIVER0,
    DO_HARVEST,
    DO_MOVE,
    DO_PLACE,
    DO_TAKE_NORIAS,
    END_TURN,
    FARMLAND0,
    FRUIT0,
    N_ACTIONS,
    SPEND0,
    Chain,
    Phase,
    action_name,
    describe,
)
from .goals import can_pay_zakat, goal_met, zakat_side
from .groups import G_CHAN, G_FARM, G_POS, G_SEAT, G_TOWN, G_ZARA

if TYPE_CHECKING:
    from .state import AlpujarrasState

# plain ints for the hot paths (IntEnum attribute lookups are slow)
_P_ACTION = int(Phase.ACTION)
_P_GAIN_FRUIT = int(Phase.GAIN_FRUIT)
_P_GOAL_FARMER = int(Phase.GOAL_FARMER)
_P_MOVE = int(Phase.MOVE)
_P_MOVE_SOURCE = int(Phase.MOVE_SOURCE)
_P_MOVE_TARGET = int(Phase.MOVE_TARGET)
_P_PLACE_FARMLAND = int(Phase.PLACE_FARMLAND)
_P_SWAP_GAIN = int(Phase.SWAP_GAIN)
_P_SWAP_RETURN = int(Phase.SWAP_RETURN)
_P_ZAKAT_FARMER = int(Phase.ZAKAT_FARMER)
_C_GOAL = int(Chain.GOAL)
_C_MOVE_ICON = int(Chain.MOVE_ICON)
_C_NORIA_MOVE = int(Chain.NORIA_MOVE)
_C_NORIA_PLACE = int(Chain.NORIA_PLACE)
_C_NORIA_SWAP = int(Chain.NORIA_SWAP)
_C_PLACE_ICON = int(Chain.PLACE_ICON)
_C_ZAKAT = int(Chain.ZAKAT)

_F = range(C.NUM_FARMLANDS)
_T = range(C.NUM_FRUITS)
_SLOTS = C.MAX_TOKENS_PER_TOWN

score = effects.score
zara_score = effects.zara_score


def solo_won(state: AlpujarrasState) -> bool:
    """ZARA-20: the game is over and no loss was recorded."""
    return state.solo and state.terminal and state.lost == ""


def solo_margin(state: AlpujarrasState) -> int:
    """The solo `score_margin` reward: player minus Zara when the zakat and token conditions hold,
    else min(that, 0) - SOLO_CONDITION_PENALTY."""
    margin = effects.score(state, 0) - effects.zara_score(state)
    if state.lost in ("", "score"):
        return margin
    return min(margin, 0) - C.SOLO_CONDITION_PENALTY


# --- small legality facts -------------------------------------------------------------------

def _has_farmland_farmer(state: AlpujarrasState, p: int) -> bool:
    return any(state.farmers[p])


def _swap_possible(fruit: list[int]) -> bool:
    """ALP-61 (1 noria): some fruit to return and a different kind below the cap."""
    held = [t for t in _T if fruit[t] >= 1]
    if not held:
        return False
    below = [t for t in _T if fruit[t] < C.FRUIT_CAP]
    # two different kinds exist unless both lists are the same single kind
    return bool(below) and (len(held) > 1 or len(below) > 1 or held[0] != below[0])


def _place_possible(state: AlpujarrasState, p: int) -> bool:
    """A pending place icon can be resolved: with farmers in supply always; with none it is a
    move (ALP-28), into the named farmland for a coloured space (G-20)."""
    if state.supply[p] > 0:
        return True
    target = state.place_target
    farmers = state.farmers[p]
    return any(farmers[f] for f in _F if f != target)


def gain_options(state: AlpujarrasState, p: int, f: int) -> list[int]:
    """Fruit kinds p may take after placing or moving into farmland f: grown there (ALP-25),
    below the cap (ALP-26), and not a forbidden second same fruit of a 'place 2' icon (ALP-27)."""
    counts = effects.field_counts(state, f)
    fruit = state.fruit[p]
    forbidden = -1
    first = state.p2_first_fruit
    if state.p2_second and f == state.p2_first_farmland and first >= 0 and counts[first] < 2:
        forbidden = first
    return [t for t in _T if counts[t] and fruit[t] < C.FRUIT_CAP and t != forbidden]


def deliverable_tokens(state: AlpujarrasState, p: int) -> list[tuple[int, int]]:
    """ALP-38, ZARA-10: the (town, slot) tokens p can deliver now: a farmer in the town's
    farmland, enough fruit of the token's kind, and in the solo game a kind not delivered
    before."""
    farmers = state.farmers[p]
    fruit = state.fruit[p]
    delivered = {t // 10 for t in state.tokens[p]} if state.solo else ()
    found = []
    for town, tokens in enumerate(state.towns):
        if farmers[town]:
            for slot, token in enumerate(tokens):
                kind = token // 10
                if fruit[kind] >= token % 10 and kind not in delivered:
                    found.append((town, slot))
    return found


def completable_goals(state: AlpujarrasState, p: int) -> list[int]:
    """ALP-48, ALP-49: the goal cards p can complete now: not yet completed by p, its goal met,
    and a farmer to put on it (from the supply or a farmland)."""
    if not state.supply[p] and not _has_farmland_farmer(state, p):
        return []
    sides = state.goal_sides
    done = state.goals_done[p]
    return [card for card in range(C.NUM_GOAL_CARDS)
            if sides[card] >= 0 and not done[card]
            and goal_met(state, p, C.card_goal(card, sides[card]))]


def payable_zakats(state: AlpujarrasState) -> list[int]:
    """ZARA-09, ZG-16: the zakat cards the solo player can pay now: not paid yet and affordable,
    and only once the harvest is done."""
    if state.harvest_left:
        return []
    paid = state.zakat_paid
    return [card for card in range(C.NUM_GOAL_CARDS)
            if not paid[card] and can_pay_zakat(state, card)]


# --- the mask ---------------------------------------------------------------------------------

_CAP = C.FRUIT_CAP
_CHANNEL_REQUIRES = tuple(ch.requires for ch in C.CHANNELS)
_NO_ACTIONS = memoryview(bytes(N_ACTIONS))
_ONES = memoryview(bytes([1]) * N_ACTIONS)
_FARMLANDS = slice(FARMLAND0, FARMLAND0 + C.NUM_FARMLANDS)


def mask_view(mask: np.ndarray) -> memoryview:
    """A byte view (format 'B') of a bool mask, which the mask functions write through."""
    return memoryview(mask.view(np.uint8))


def write_legal_mask(state: AlpujarrasState, m: memoryview) -> None:
    """Write the exact legal-action mask of the current player through `m`, the `mask_view` of a
    bool array of N_ACTIONS. The caller owns the array, its view and when to refresh them (the
    state keeps both as its mask cache), so the rules hold no cache."""
    m[:] = _NO_ACTIONS
    if state.terminal:
        return
    p = state.current_player
    phase = state.phase
    if phase == _P_MOVE:
        if state.solo:
            turns.write_move_mask(state, p, m)
        else:
            # turns.write_move_mask, inlined for the multiplayer game (ALP-16, ALP-17, ALP-63):
            # forward; single spaces (standard and end) only when free
            pos = state.pos
            here = pos[p]
            track = state.track
            length = len(track)
            m[here + 1:length] = _ONES[here + 1:length]
            single = track.single
            for i in range(len(pos)):
                s = pos[i]
                if s > here and single[s] and i != p:
                    m[s] = 0
    elif phase == _P_ACTION:
        _action_mask(state, p, m)
    elif phase == _P_PLACE_FARMLAND:
        if state.forced_dst >= 0:
            m[FARMLAND0 + state.forced_dst] = 1
        else:
            m[_FARMLANDS] = _ONES[_FARMLANDS]
    elif phase == _P_MOVE_SOURCE:
        farmers = state.farmers[p]
        for f in _F:
            if farmers[f] and f != state.forced_dst:
                m[FARMLAND0 + f] = 1
    elif phase == _P_MOVE_TARGET:
        m[_FARMLANDS] = _ONES[_FARMLANDS]
        m[FARMLAND0 + state.move_src] = 0
    elif phase in (_P_GOAL_FARMER, _P_ZAKAT_FARMER):
        farmers = state.farmers[p]
        for f in _F:
            if farmers[f]:
                m[FARMLAND0 + f] = 1
    elif phase == _P_GAIN_FRUIT:
        for t in gain_options(state, p, state.sel_farmland):
            m[FRUIT0 + t] = 1
    elif phase == _P_SWAP_RETURN:
        fruit = state.fruit[p]
        for t in _T:
            if fruit[t] and any(fruit[b] < C.FRUIT_CAP for b in _T if b != t):
                m[FRUIT0 + t] = 1
    elif phase == _P_SWAP_GAIN:
        fruit = state.fruit[p]
        for t in _T:
            if t != state.swap_return and fruit[t] < C.FRUIT_CAP:
                m[FRUIT0 + t] = 1


def _action_mask(state: AlpujarrasState, p: int, m: memoryview) -> None:
    """The ACTION phase: the visit's icons and duties, the noria spends and END_TURN."""
    farmers = state.farmers[p]
    has_farmer = any(farmers)
    if state.pend_place and _place_possible(state, p):
        m[DO_PLACE] = 1
    if state.pend_move and has_farmer:
        m[DO_MOVE] = 1
    if state.pend_norias:
        m[DO_TAKE_NORIAS] = 1
    fruit = state.fruit[p]
    if state.pend_fruit:
        for t in _T:
            if fruit[t] < _CAP:
                m[FRUIT0 + t] = 1
    if state.pend_irrigate:
        channels = state.channels
        for c in range(C.NUM_CHANNELS):
            if not channels[c]:
                req = _CHANNEL_REQUIRES[c]
                if req < 0 or channels[req]:
                    m[CHANNEL0 + c] = 1
    if state.harvest_left:
        m[DO_HARVEST] = 1
    solo = state.solo
    duty = False
    if state.market_left and has_farmer:
        for town, slot in deliverable_tokens(state, p):
            m[DELIVER0 + town * _SLOTS + slot] = 1
            duty = True
    if state.card_left:
        if solo:
            for card in payable_zakats(state):
                m[CARD0 + card] = 1
                duty = True
        else:
            for card in completable_goals(state, p):
                m[CARD0 + card] = 1
    norias = state.norias[p]
    if norias:
        if state.supply[p]:
            for k in (3, 4, 5):
                if norias >= k:
                    m[SPEND0 + k - 1] = 1
        if norias >= 2 and has_farmer:
            m[SPEND0 + 1] = 1
        if _swap_possible(fruit):
            m[SPEND0] = 1
    # ZG-13, ZG-16: a solo duty that can be met now must be met; the harvest comes first
    if not solo or not (state.harvest_left or duty):
        m[END_TURN] = 1


# --- transitions ------------------------------------------------------------------------------

def apply(state: AlpujarrasState, action: int) -> int:
    """Carry out `action` for the current player and return the groups it changed (as
    `carry_out`), or raise `IllegalActionError` (no change). The legality check goes through
    the public `state.legal_mask()`; the rules keep no cache, so the state's own caches are
    stale afterwards: play through `state.apply`, which keeps them, or call
    `state.invalidate()`."""
    if type(action) is not int:  # numpy integers pass; bools, floats, strings... are refused
        action = check_action(action, N_ACTIONS)
    if not 0 <= action < N_ACTIONS or not state.legal_mask()[action]:
        refuse(state, action)
    return carry_out(state, action)


def refuse(state: AlpujarrasState, action: int) -> NoReturn:
    """Raise `IllegalActionError` for an action the mask refuses, naming it and saying why; the
    state is left as it was. Shared by `apply` and `state.apply` so both refuse alike."""
    raise IllegalActionError(action, why_illegal(state, action), _safe_name(state, action))


def carry_out(state: AlpujarrasState, action: int) -> int:
    """`apply` for an action the caller found legal: carry it out for the current player and
    return the groups of the game it changed (groups.py: positions, farmlands, towns, channels,
    Zara, each seat's holdings; a superset). It checks nothing (an illegal action may corrupt the
    state) and touches no cache: the caller keeps the mask key and the dirty groups, so the rules
    stay free of the speed layer (issue 16)."""
    phase = state.phase
    p = state.current_player
    state.steps += 1
    # the two commonest decisions take a short way (the same groups as `_touched` names)
    if phase == _P_MOVE:
        # the mule moves; a dirhem icon pays at once; a solo double turn may be spent
        bits = G_POS | G_SEAT[p] if state.track.pays[action] else G_POS
        if state.solo:
            bits |= G_ZARA
        turns.arrive(state, p, action)
    elif action == END_TURN and phase == _P_ACTION:
        # the next piece to act and the die move; the actor's holdings change only by the end-
        # track sale or (multiplayer) the automatic harvest; Zara's turns change her farmers,
        # the towns and her holdings
        if state.solo:
            bits = G_POS | G_FARM | G_TOWN | G_ZARA
            if state.track.is_end[state.pos[p]]:
                bits |= G_SEAT[p]
        elif state.harvest_left or state.track.is_end[state.pos[p]]:
            bits = G_POS | G_SEAT[p]
        else:
            bits = G_POS
        turns.end_turn(state)
    else:
        bits = _touched(state, phase, action, p)
        _transition(state, phase, p, action)
    if state.terminal:
        bits |= G_FARM  # the harvest hints go to zero once the game is over
    return bits


def _transition(state: AlpujarrasState, phase: int, p: int, action: int) -> None:
    if phase == _P_MOVE:
        turns.arrive(state, p, action)
    elif phase == _P_ACTION:
        _apply_action(state, p, action)
    elif phase == _P_PLACE_FARMLAND:
        f = action - FARMLAND0
        state.supply[p] -= 1
        state.farmers[p][f] += 1
        _start_gain(state, p, f)
    elif phase == _P_MOVE_SOURCE:
        f = action - FARMLAND0
        state.move_src = f
        if state.forced_dst >= 0:
            _move_farmer(state, p, f, state.forced_dst)
        else:
            state.phase = _P_MOVE_TARGET
    elif phase == _P_MOVE_TARGET:
        _move_farmer(state, p, state.move_src, action - FARMLAND0)
    elif phase == _P_GOAL_FARMER:
        effects.complete_goal(state, p, state.pending_card, action - FARMLAND0)
        turns.clear_chain(state)
        state.phase = _P_ACTION
    elif phase == _P_ZAKAT_FARMER:
        effects.pay_zakat(state, state.pending_card, action - FARMLAND0)
        turns.clear_chain(state)
        state.phase = _P_ACTION
    elif phase == _P_GAIN_FRUIT:
        t = action - FRUIT0
        effects.gain_fruit(state, p, t)
        if state.chain == _C_PLACE_ICON and state.place_p2 and not state.p2_second:
            state.p2_first_fruit = t
        _end_chain(state)
    elif phase == _P_SWAP_RETURN:
        state.swap_return = action - FRUIT0
        state.phase = _P_SWAP_GAIN
    elif phase == _P_SWAP_GAIN:
        effects.return_fruit(state, p, state.swap_return)
        effects.gain_fruit(state, p, action - FRUIT0)
        _end_chain(state)


def _touched(state: AlpujarrasState, phase: int, action: int, p: int) -> int:
    """The groups `action` can change, judged before it is carried out (a superset). Only
    END_TURN reaches other seats, the die and Zara."""
    bits = 0
    if phase == _P_ACTION:
        if action == END_TURN:
            # the next piece to act and the die move; the actor's holdings change only by the
            # automatic harvest or the end-track sale; Zara's turns change her farmers, the towns
            # and her holdings; the end of the game is marked after the transition
            bits = G_POS
            if state.solo:
                bits |= G_FARM | G_TOWN | G_ZARA
            elif not state.harvest_left and not state.track.is_end[state.pos[p]]:
                return bits
        if action in (DO_PLACE, DO_MOVE):
            return bits  # only the turn context changes
        if CHANNEL0 <= action < DELIVER0:
            bits |= G_FARM | G_CHAN
        elif DELIVER0 <= action < CARD0:
            bits |= G_FARM | G_TOWN
        elif action >= CARD0:
            bits |= G_ZARA
    elif phase == _P_MOVE:
        bits = G_POS
        if state.solo:
            bits |= G_ZARA  # a double turn
        elif not state.track.pays[action]:
            return bits  # nothing is paid on arrival
    elif phase == _P_SWAP_RETURN or (phase == _P_MOVE_SOURCE and state.forced_dst < 0):
        return 0  # only the turn context changes
    elif phase in (_P_PLACE_FARMLAND, _P_MOVE_SOURCE, _P_MOVE_TARGET,
                   _P_GOAL_FARMER, _P_ZAKAT_FARMER):
        bits = G_FARM | G_ZARA
    return bits | G_SEAT[p]


def _apply_action(state: AlpujarrasState, p: int, action: int) -> None:
    if action == END_TURN:
        turns.end_turn(state)
    elif action == DO_PLACE:
        first_of_two = state.place_p2 and state.pend_place == 2
        state.pend_place -= 1
        state.chain = _C_PLACE_ICON
        state.p2_second = state.place_p2 and not first_of_two
        state.forced_dst = state.place_target
        # ALP-28: with an empty supply the place icon is a move
        state.phase = int(_P_PLACE_FARMLAND if state.supply[p] else _P_MOVE_SOURCE)
    elif action == DO_MOVE:
        state.pend_move -= 1
        state.chain = _C_MOVE_ICON
        state.phase = _P_MOVE_SOURCE
    elif action == DO_TAKE_NORIAS:
        effects.gain_norias(state, p, state.pend_norias)  # G-25: the whole icon at once
        state.pend_norias = 0
    elif action == DO_HARVEST:
        effects.harvest(state, p)
        state.harvest_left = False
    elif SPEND0 <= action < END_TURN:
        k = action - SPEND0 + 1
        kind, dirhems = C.NORIA_SPEND[k]
        state.norias[p] -= k
        state.dirhems[p] += dirhems
        state.spend_k = k
        if kind == "place":
            state.chain = _C_NORIA_PLACE
            state.phase = _P_PLACE_FARMLAND
        elif kind == "move":
            state.chain = _C_NORIA_MOVE
            state.phase = _P_MOVE_SOURCE
        else:
            state.chain = _C_NORIA_SWAP
            state.phase = _P_SWAP_RETURN
    elif FRUIT0 <= action < CHANNEL0:
        state.pend_fruit -= 1
        effects.gain_fruit(state, p, action - FRUIT0)  # ALP-35
    elif CHANNEL0 <= action < DELIVER0:
        state.pend_irrigate -= 1
        effects.irrigate(state, p, action - CHANNEL0)
    elif DELIVER0 <= action < CARD0:
        town, slot = divmod(action - DELIVER0, _SLOTS)
        effects.deliver(state, p, town, slot)
        state.market_left = False  # ALP-37: one delivery per visit
    else:  # CARD
        i = action - CARD0
        state.card_left = False  # ALP-49: one goal per visit; one zakat per visit
        if state.solo:
            if zakat_side(state, i).farmer:
                state.chain = _C_ZAKAT
                state.pending_card = i
                state.phase = _P_ZAKAT_FARMER
            else:
                effects.pay_zakat(state, i, -1)
        elif state.supply[p]:
            effects.complete_goal(state, p, i, -1)
        else:
            state.chain = _C_GOAL
            state.pending_card = i
            state.phase = _P_GOAL_FARMER


def _move_farmer(state: AlpujarrasState, p: int, src: int, dst: int) -> None:
    """ALP-29: a farmer goes from farmland src to farmland dst, then the fruit for dst."""
    state.farmers[p][src] -= 1
    state.farmers[p][dst] += 1
    _start_gain(state, p, dst)


def _start_gain(state: AlpujarrasState, p: int, f: int) -> None:
    """After a place or a move into f: choose the fruit, or skip when no kind can be taken."""
    state.sel_farmland = f
    if state.chain == _C_PLACE_ICON and state.place_p2 and not state.p2_second:
        state.p2_first_farmland = f
        state.p2_first_fruit = -1
    if gain_options(state, p, f):
        state.phase = _P_GAIN_FRUIT
    else:
        _end_chain(state)


def _end_chain(state: AlpujarrasState) -> None:
    turns.clear_chain(state)
    state.phase = _P_ACTION


# --- error messages ---------------------------------------------------------------------------

def _safe_name(state: AlpujarrasState, action: int) -> str:
    if 0 <= action < N_ACTIONS and not state.terminal:
        try:
            return f"{action_name(action)}: {describe(state, action)}"
        except (IndexError, ValueError):
            return action_name(action)
    return action_name(action) if 0 <= action < N_ACTIONS else "unknown"


_EXPECTED = {
    _P_MOVE: "a MOVE_TO id of a space where the mule may stop",
    _P_PLACE_FARMLAND: "a FARMLAND id (where to place the farmer)",
    _P_MOVE_SOURCE: "a FARMLAND id holding one of your farmers (the farmer to move)",
    _P_MOVE_TARGET: "a FARMLAND id other than the source (where the farmer goes)",
    _P_GOAL_FARMER: "a FARMLAND id holding one of your farmers (it goes on the goal card)",
    _P_ZAKAT_FARMER: "a FARMLAND id holding one of your farmers (it returns to supply)",
    _P_GAIN_FRUIT: "a FRUIT id of a kind grown there that you may still take",
    _P_SWAP_RETURN: "a FRUIT id of a kind you hold (to return)",
    _P_SWAP_GAIN: "a FRUIT id of a different kind below the cap of 5",
}


def why_illegal(state: AlpujarrasState, action: int) -> str:
    """The reason a masked `action` is refused, for error messages (not used on the hot path)."""
    if state.terminal:
        return "the game is over"
    if not 0 <= action < N_ACTIONS:
        return f"valid action ids are 0-{N_ACTIONS - 1}"
    phase = Phase(state.phase)
    p = state.current_player
    if phase == _P_MOVE:
        return _why_move(state, p, action)
    if phase != _P_ACTION:
        if phase == _P_GAIN_FRUIT and FRUIT0 <= action < CHANNEL0:
            t = action - FRUIT0
            if state.fruit[p][t] >= C.FRUIT_CAP:
                return f"you already hold {C.FRUIT_CAP} {C.FRUITS[t]} (ALP-26)"
            if not effects.field_counts(state, state.sel_farmland)[t]:
                return f"no field of the {C.FARMLANDS[state.sel_farmland]} farmland grows it"
            return "a 'place 2' icon may not give the same fruit twice from one farmland " \
                "unless two fields grow it (ALP-27)"
        return f"in phase {phase.name} the move must be {_EXPECTED[phase]}"
    return _why_action(state, p, action)


def _why_move(state: AlpujarrasState, p: int, s: int) -> str:
    if s >= DO_PLACE:
        return "the mule must move first: choose a MOVE_TO id"
    track = state.track
    if s >= len(track):
        return f"this side of the tracks has spaces 0-{len(track) - 1} only"
    if s <= state.pos[p]:
        return "mules move forward only (ALP-16)"
    if state.solo:
        limit = turns.next_special(state, state.pos[p])
        if limit >= 0 and s > limit and not (
            track[s].kind == C.END and turns.on_end(state, state.die)
        ):
            return f"you must stop at the market or harvest space {limit} (ZARA-08, ZG-04)"
        if not turns.passes_die(state, s) and state.double_turns == 0:
            return "you must pass the die: no double turns are left (ZARA-07)"
    return "that space is taken: standard and end spaces hold one piece (ALP-17)"


def _why_action(state: AlpujarrasState, p: int, action: int) -> str:
    kind = state.track[state.pos[p]].kind
    if action < DO_PLACE:
        return "the mule has already moved this turn"
    if action == END_TURN:
        if state.harvest_left:
            return "in the solo game you must harvest first (ZARA-09, ZG-16)"
        return "a solo duty you can meet now is still due: deliver a new fruit kind or pay a " \
            "zakat (ZARA-09, ZARA-10)"
    if action == DO_PLACE:
        if not state.pend_place:
            return "this space has no place-a-farmer icon left"
        return "your supply is empty and no farmer can be moved there instead (ALP-28, G-20)"
    if action == DO_MOVE:
        if not state.pend_move:
            return "this space has no move-a-farmer icon left"
        return "you have no farmer in a farmland (ALP-29)"
    if action == DO_TAKE_NORIAS:
        return "this space has no noria icon left"
    if action == DO_HARVEST:
        if kind != C.HARVEST:
            return "harvesting needs a harvest space"
        return "you have already harvested on this visit"
    if SPEND0 <= action < END_TURN:
        k = action - SPEND0 + 1
        if state.norias[p] < k:
            return f"you hold {state.norias[p]} norias, fewer than {k}"
        if k >= 3:
            return "a noria placement needs a farmer in your supply (G-20)"
        if k == 2:
            return "you have no farmer in a farmland to move"
        return "no fruit can be swapped (nothing held, or every other kind at the cap)"
    if FARMLAND0 <= action < FRUIT0:
        return "no farmland is being chosen now"
    if FRUIT0 <= action < CHANNEL0:
        if not state.pend_fruit:
            return "this space has no take-fruit icon left"
        return f"you already hold {C.FRUIT_CAP} of that fruit (ALP-26)"
    if CHANNEL0 <= action < DELIVER0:
        c = action - CHANNEL0
        if not state.pend_irrigate:
            return "this space has no irrigate icon left"
        if state.channels[c]:
            return f"channel space {c} already holds a channel token"
        return f"channel space {c} does not touch the water yet (ALP-30)"
    if DELIVER0 <= action < CARD0:
        town, slot = divmod(action - DELIVER0, _SLOTS)
        if kind not in (C.MARKET, C.END):
            return "deliveries need a market space or the end track (ALP-37)"
        if not state.market_left:
            return "only one delivery per visit (ALP-37)"
        if slot >= len(state.towns[town]):
            return f"the {C.FARMLANDS[town]} town has no token in slot {slot}"
        if not state.farmers[p][town]:
            return f"you need a farmer in the {C.FARMLANDS[town]} farmland (ALP-38)"
        tok = state.towns[town][slot]
        if state.fruit[p][tok // 10] < tok % 10:
            return f"you need {tok % 10} {C.FRUITS[tok // 10]} (ALP-38)"
        return "in the solo game every delivery must be a new fruit kind (ZARA-10)"
    i = action - CARD0
    if state.solo:
        if kind not in (C.HARVEST, C.END) or (not state.card_left and not state.zakat_paid[i]):
            return "a zakat is paid once on a harvest space or at the end (ZARA-09, ZARA-18)"
        if state.harvest_left:
            return "harvest before paying the zakat (ZG-16)"
        if state.zakat_paid[i]:
            return f"zakat card {i} is already paid"
        return f"you cannot pay zakat card {i} with what you hold"
    if kind not in (C.HARVEST, C.END) or not state.card_left:
        return "one goal per harvest visit or end arrival (ALP-49)"
    if state.goals_done[p][i]:
        return f"you have already completed goal card {i} (ALP-49)"
    if state.supply[p] == 0 and not _has_farmland_farmer(state, p):
        return "you have no farmer to put on the card (ALP-48)"
    return f"you do not meet goal card {i}'s requirement now"
