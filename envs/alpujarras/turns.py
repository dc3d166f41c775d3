"""The track: who acts (the rearmost piece, ALP-14, ALP-19), where a mule may stop (ALP-16 …
ALP-22, ZARA-07, ZARA-08, ZARA-16), the 2-player die (ALP-68, G-24), the start and end of a turn
and of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from . import effects, zara
from .actions import Chain, Phase

if TYPE_CHECKING:
    from .state import AlpujarrasState

# plain ints for the hot paths (IntEnum attribute lookups are slow)
_P_ACTION = int(Phase.ACTION)
_P_GAME_OVER = int(Phase.GAME_OVER)
_P_MOVE = int(Phase.MOVE)
_C_NONE = int(Chain.NONE)

_SPOTS = 8  # more than the pieces that can share a space


def key(state: AlpujarrasState, piece: int) -> int:
    """A piece's place in turn order: smaller = further back (space first, then spot)."""
    return (state.pos[piece] + 1) * _SPOTS + state.spot[piece]


def on_end(state: AlpujarrasState, piece: int) -> bool:
    """Whether `piece` stands on the end track."""
    s = state.pos[piece]
    return s >= 0 and state.track[s].kind == C.END


def place_piece(state: AlpujarrasState, piece: int, space: int) -> None:
    """Put `piece` on `space`; in a market or harvest space it takes the leftmost open spot
    (ALP-18)."""
    spot = 0
    if state.track[space].kind in (C.MARKET, C.HARVEST):
        taken = {state.spot[i] for i in range(state.num_pieces)
                 if i != piece and state.pos[i] == space}
        while spot in taken:
            spot += 1
    state.pos[piece] = space
    state.spot[piece] = spot


def next_special(state: AlpujarrasState, space: int) -> int:
    """The first market or harvest space after `space`, or -1 if none is left."""
    track = state.track
    for s in range(space + 1, len(track)):
        if track[s].kind in (C.MARKET, C.HARVEST):
            return s
    return -1


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


def passes_die(state: AlpujarrasState, space: int) -> bool:
    """Solo: whether stopping on `space` puts the mule ahead of the die (ZARA-07, ZG-03)."""
    if on_end(state, state.die):
        return state.track[space].kind == C.END
    return space >= state.pos[state.die]


def rearmost(state: AlpujarrasState) -> int:
    """ALP-14, ALP-19, ZARA-06: the piece furthest back among those not on the end track, or -1."""
    best, best_key = -1, 1 << 30
    for i in range(state.num_pieces):
        if on_end(state, i):
            continue
        k = key(state, i)
        if k < best_key:
            best, best_key = i, k
    return best


def die_turn(state: AlpujarrasState) -> int:
    """ALP-68, G-24: the 2-player die rolls and moves to the roll-th free standard space ahead,
    skipping market and harvest spaces and spaces with a mule; short of that many it enters the
    furthest free end space. Returns the roll."""
    roll = state.rolls.pop()
    track = state.track
    mules = {state.pos[i] for i in range(state.num_players)}
    steps = roll
    target = -1
    for s in range(state.pos[state.die] + 1, len(track)):
        kind = track[s].kind
        if kind == C.END:
            break
        if kind != C.STANDARD or s in mules:
            continue
        steps -= 1
        if steps == 0:
            target = s
            break
    if target < 0:
        target = zara.furthest_free_end(state)
    place_piece(state, state.die, target)
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
    clear_chain(state)


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
    if state.solo and not passes_die(state, space):
        state.double_turns -= 1  # ZARA-07
    place_piece(state, player, space)
    clear_visit(state)
    sp = state.track[space]
    kind = sp.kind
    if kind == C.STANDARD:
        icons = sp.icons
        state.pend_place = icons.place
        state.place_target = icons.place_farmland
        state.place_p2 = icons.p2
        state.pend_move = icons.move
        state.pend_irrigate = icons.irrigate
        state.pend_norias = icons.norias
        state.pend_fruit = icons.fruit
        state.dirhems[player] += icons.dirhems  # ALP-36
    elif kind == C.MARKET:
        state.market_left = state.markets_used[player] < C.MAX_MARKET_ACTIONS  # ALP-37, ALP-41
    elif kind == C.HARVEST:
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
    sp = state.track[state.pos[p]]
    final = sp.kind == C.END
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
        effects.sell_fruit(state, p, sp.ratio)
    clear_visit(state)
    state.turns += 1
    advance(state)


def advance(state: AlpujarrasState) -> None:
    """Hand the turn to the rearmost piece: the die's turns (2-player die, Zara) resolve here;
    the game ends when every mule is on the end track (ALP-65, ZARA-19)."""
    n = state.num_players
    while True:
        if all(on_end(state, i) for i in range(n)):
            if state.solo and not on_end(state, state.die):
                zara.final_turn(state)  # ZARA-17
            finish(state, "")
            return
        piece = rearmost(state)
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
