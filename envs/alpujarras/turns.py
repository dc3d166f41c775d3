"""The track: who acts (the rearmost piece, ALP-14, ALP-19), where a mule may stop (ALP-16, ALP-17,
ALP-18, ALP-19, ALP-20, ALP-21, ALP-22, ZARA-07, ZARA-08, ZARA-16), the 2-player die (ALP-68, G-24),
the start and end of a turn and of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from . import effects, zara
from .actions import Chain, Phase
from .effects import place_piece

if TYPE_CHECKING:
    from .state import AlpujarrasState

# plain ints for the hot paths (IntEnum attribute lookups are slow)
_P_ACTION = int(Phase.ACTION)
_P_GAME_OVER = int(Phase.GAME_OVER)
_P_MOVE = int(Phase.MOVE)
_C_NONE = int(Chain.NONE)
_K_STANDARD = C.K_STANDARD
_K_MARKET = C.K_MARKET
_K_HARVEST = C.K_HARVEST
_K_END = C.K_END

_SPOTS = 8  # more than the pieces that can share a space


def key(state: AlpujarrasState, piece: int) -> int:
    """A piece's place in turn order: smaller = further back (space first, then spot)."""
    return (state.pos[piece] + 1) * _SPOTS + state.spot[piece]


def on_end(state: AlpujarrasState, piece: int) -> bool:
    """Whether `piece` stands on the end track."""
    return state.track.is_end[state.pos[piece]]  # the table's last entry answers pos -1


def next_special(state: AlpujarrasState, space: int) -> int:
    """The first market or harvest space after `space`, or -1 if none is left."""
    return state.track.next_special[space]


def move_targets(state: AlpujarrasState, player: int) -> list[int]:
    """Every track space where `player`'s mule may end its move."""
    track = state.track
    here = state.pos[player]
    n_pieces = state.num_pieces
    occupied = {state.pos[i] for i in range(n_pieces) if i != player}
    if not state.solo:
        # ALP-16, ALP-17, ALP-63: forward; single spaces (standard and end) only when free
        return [
            s for s in range(here + 1, len(track))
            if s not in occupied or track[s].kind in (C.MARKET, C.HARVEST)
        ]
    die = state.die
    die_pos = state.pos[die]
    die_done = on_end(state, die)
    limit = next_special(state, here)  # ZARA-08, ZG-04: no market or harvest space skipped
    spare = state.double_turns > 0
    out = []
    for s in range(here + 1, len(track)):
        kind = track[s].kind
        if kind == C.END:
            # ZARA-16: with the die at the end every free end space passes it
            if (die_done or limit < 0) and s not in occupied:
                out.append(s)
            continue
        if limit >= 0 and s > limit:
            continue
        if kind == C.STANDARD and s in occupied:
            continue
        # ZARA-07, ZG-03: pass the die (joining its special space passes it) or spend a double
        # turn; with the die at the end every non-end space is behind it
        beyond = not die_done and s >= die_pos
        if beyond or spare:
            out.append(s)
    return out


_ONES = memoryview(bytes([1]) * 256)


def write_move_mask(state: AlpujarrasState, player: int, mask: memoryview) -> None:
    """Set mask[s] = 1 for every space `move_targets` lists (the mask's fast path: slices of the
    track, then the occupied single spaces cleared); `mask` is a byte view (format 'B') that
    starts all 0. Relies on the end spaces closing the track, as in every valid layout (G-11)."""
    track = state.track
    pos = state.pos
    here = pos[player]
    length = len(track)
    single = track.single
    if not state.solo:
        # ALP-16, ALP-17, ALP-63: forward; single spaces (standard and end) only when free
        mask[here + 1:length] = _ONES[here + 1:length]
        for i in range(len(pos)):
            s = pos[i]
            if s > here and single[s] and i != player:
                mask[s] = 0
        return
    die_pos = pos[state.num_players]
    end = track.end_start
    die_done = die_pos >= end
    limit = track.next_special[here]  # ZARA-08, ZG-04: no market or harvest space skipped
    # ZARA-07, ZG-03: pass the die (joining its special space passes it) or spend a double
    # turn; with the die at the end every non-end space is behind it
    if state.double_turns > 0:
        low = here + 1
    elif not die_done:
        low = max(here + 1, die_pos)
    else:
        low = end
    high = limit + 1 if limit >= 0 else end
    if low < high:
        mask[low:high] = _ONES[low:high]
        if low <= die_pos < high and single[die_pos]:
            mask[die_pos] = 0
    # ZARA-16: with the die at the end every free end space passes it
    if die_done or limit < 0:
        low = max(end, here + 1)
        mask[low:length] = _ONES[low:length]
        if die_pos >= end and die_pos > here:
            mask[die_pos] = 0


def passes_die(state: AlpujarrasState, space: int) -> bool:
    """Solo: whether stopping on `space` puts the mule ahead of the die (ZARA-07, ZG-03)."""
    die_pos = state.pos[state.num_players]
    is_end = state.track.is_end
    if is_end[die_pos]:
        return is_end[space]
    return space >= die_pos


def rearmost(state: AlpujarrasState) -> int:
    """ALP-14, ALP-19, ZARA-06: the piece furthest back among those not on the end track, or -1."""
    best, best_key = -1, 1 << 30
    pos = state.pos
    spot = state.spot
    is_end = state.track.is_end
    for i in range(len(pos)):  # every piece: the mules and the die where it is in play
        s = pos[i]
        if is_end[s]:
            continue
        k = (s + 1) * _SPOTS + spot[i]
        if k < best_key:
            best, best_key = i, k
    return best


def die_turn(state: AlpujarrasState) -> int:
    """ALP-68, G-24: the 2-player die rolls and moves to the roll-th free standard space ahead,
    skipping market and harvest spaces and spaces with a mule; short of that many it enters the
    furthest free end space. Returns the roll."""
    roll = state.rolls.pop()
    pos = state.pos
    n = state.num_players
    track = state.track
    mules = pos[:n]
    steps = roll
    target = -1
    standard = track.standard
    for k in range(track.standard_after[pos[n]], len(standard)):
        s = standard[k]
        if s in mules:
            continue
        steps -= 1
        if steps == 0:
            target = s
            break
    if target < 0:
        target = zara.furthest_free_end(state)
    pos[n] = target  # a standard or end space: spot 0 (place_piece)
    state.spot[n] = 0
    return roll


def clear_visit(state: AlpujarrasState) -> None:
    """Forget the icons, duties and sub-decision memory of the visit."""
    state.pend_place = 0
    state.place_target = -1
    state.place_p2 = False
    state.pend_move = 0
    state.pend_irrigate = 0
    state.pend_norias = 0
    state.pend_fruit = 0
    state.market_left = False
    state.card_left = False
    state.harvest_left = False
    state.p2_first_farmland = -1
    state.p2_first_fruit = -1
    # clear_chain, inlined
    state.chain = _C_NONE
    state.sel_farmland = -1
    state.move_src = -1
    state.forced_dst = -1
    state.swap_return = -1
    state.pending_card = -1
    state.spend_k = 0
    state.p2_second = False


def clear_chain(state: AlpujarrasState) -> None:
    """Back to the ACTION phase's choice after a sub-decision chain completes."""
    state.chain = _C_NONE
    state.sel_farmland = -1
    state.move_src = -1
    state.forced_dst = -1
    state.swap_return = -1
    state.pending_card = -1
    state.spend_k = 0
    state.p2_second = False


def arrive(state: AlpujarrasState, player: int, space: int) -> None:
    """The mule stops on `space` (ALP-15): a solo double turn is spent if it stays behind the die;
    the visit's icons and duties are set up; dirhem icons pay at once (G-18)."""
    track = state.track
    if state.solo and not passes_die(state, space):
        state.double_turns -= 1  # ZARA-07
    kind = track.kinds[space]
    if track.single[space]:
        state.pos[player] = space  # a standard or end space: spot 0 (place_piece)
        state.spot[player] = 0
    else:
        place_piece(state, player, space)
    if kind == _K_STANDARD:
        # clear_visit, with the icon fields set from the space's icons in place of the zeros
        (state.pend_place, state.place_target, state.place_p2, state.pend_move,
         state.pend_irrigate, state.pend_norias, state.pend_fruit, dirhems) = \
            track.icon_values[space]
        state.market_left = False
        state.card_left = False
        state.harvest_left = False
        state.p2_first_farmland = -1
        state.p2_first_fruit = -1
        state.chain = _C_NONE
        state.sel_farmland = -1
        state.move_src = -1
        state.forced_dst = -1
        state.swap_return = -1
        state.pending_card = -1
        state.spend_k = 0
        state.p2_second = False
        if dirhems:
            state.dirhems[player] += dirhems  # ALP-36
        state.phase = _P_ACTION
        return
    clear_visit(state)
    if kind == _K_MARKET:
        state.market_left = state.markets_used[player] < C.MAX_MARKET_ACTIONS  # ALP-37, ALP-41
    elif kind == _K_HARVEST:
        state.harvest_left = True  # ALP-44
        state.card_left = True
    else:  # ALP-63, ZARA-18
        state.market_left = state.markets_used[player] < C.MAX_MARKET_ACTIONS
        state.card_left = True
    state.phase = _P_ACTION


def end_turn(state: AlpujarrasState) -> None:
    """END_TURN: solo duties left undone lose at once (ZARA-09, ZARA-10, ZG-10, ZG-13); a skipped
    multiplayer harvest is applied (G-18); the end track sells the fruit (ALP-64); then the next
    piece acts."""
    p = state.current_player
    track = state.track
    here = state.pos[p]
    final = track.is_end[here]
    if state.solo:
        if state.market_left:
            finish(state, "final_delivery" if final else "delivery")
            return
        if state.card_left:
            finish(state, "final_zakat" if final else "zakat")
            return
    elif state.harvest_left:
        effects.harvest(state, p)
    if final:
        effects.sell_fruit(state, p, track[here].ratio)
    clear_visit(state)
    state.turns += 1
    advance(state)


def advance(state: AlpujarrasState) -> None:
    """Hand the turn to the rearmost piece: the die's turns (2-player die, Zara) resolve here;
    the game ends when every mule is on the end track (ALP-65, ZARA-19)."""
    n = state.num_players
    pos = state.pos
    spot = state.spot
    pieces = len(pos)  # the mules, then the die where it is in play
    is_end = state.track.is_end
    while True:
        # rearmost(state), inlined, and whether a mule is still off the end track
        piece, best = -1, 1 << 30
        for i in range(pieces):
            s = pos[i]
            if is_end[s]:
                continue
            k = (s + 1) * _SPOTS + spot[i]
            if k < best:
                piece, best = i, k
        if piece < 0 or (piece >= n and all([is_end[pos[i]] for i in range(n)])):
            if state.solo and not is_end[pos[n]]:
                zara.final_turn(state)  # ZARA-17
            finish(state, "")
            return
        if piece < n:
            state.current_player = piece
            state.phase = _P_MOVE
            return
        if state.solo:
            zara.take_turn(state)
        else:
            die_turn(state)


def finish(state: AlpujarrasState, loss: str) -> None:
    """The game is over; a solo game records why the player lost (ZARA-19, ZARA-20)."""
    if state.solo and not loss:
        if not effects.solo_conditions_met(state):
            loss = "conditions"
        elif effects.score(state, 0) <= effects.zara_score(state):
            loss = "score"
    state.lost = loss
    state.terminal = True
    state.phase = _P_GAME_OVER
    clear_visit(state)
