"""What the actions do to the pieces: a piece placed on the track (the player's mule or Zara's
die), gains under the caps, irrigation, harvest, deliveries and awards, goals, zakats, the
end-track sale and scores.

These helpers assume legality was checked by the mask (rules.py); they never look at the phase.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import components as C
from .goals import zakat_side

if TYPE_CHECKING:
    from .state import AlpujarrasState

_PRINTED_COUNTS = tuple(
    tuple(fields.count(t) for t in range(C.NUM_FRUITS)) for fields in C.PRINTED_FIELDS
)


def place_piece(state: AlpujarrasState, piece: int, space: int) -> None:
    """Put `piece` on `space`; in a market or harvest space it takes the leftmost open spot
    (ALP-18)."""
    spot = 0
    pos = state.pos
    if state.track.special[space]:
        spots = state.spot
        taken = [spots[i] for i in range(len(pos)) if i != piece and pos[i] == space]
        while spot in taken:
            spot += 1
    pos[piece] = space
    state.spot[piece] = spot


def field_counts(state: AlpujarrasState, f: int) -> list[int]:
    """Fields per fruit kind in farmland `f`: printed fields plus drawn crop tokens (ALP-25,
    ALP-32, G-03). A kind with a count above zero is 'grown' there."""
    counts = list(_PRINTED_COUNTS[f])
    for k in state.fields[f]:
        if k >= 0:
            counts[k] += 1
    return counts


def gain_fruit(state: AlpujarrasState, p: int, t: int) -> bool:
    """One fruit of kind `t` for `p` unless they already hold 5 (ALP-26); True if gained."""
    held = state.fruit[p]
    if held[t] >= C.FRUIT_CAP:
        return False
    held[t] += 1
    state.fruit_supply[t] -= 1
    return True


def return_fruit(state: AlpujarrasState, p: int, t: int, count: int = 1) -> None:
    """`count` fruit of kind `t` go from `p` back to the supply."""
    state.fruit[p][t] -= count
    state.fruit_supply[t] += count


def gain_norias(state: AlpujarrasState, p: int, count: int) -> None:
    """ALP-62: norias above 5 are lost."""
    state.norias[p] = min(C.NORIA_CAP, state.norias[p] + count)


def channel_open(state: AlpujarrasState, c: int) -> bool:
    """ALP-30: channel space `c` is empty and touches the water (a start channel or a filled
    space)."""
    if state.channels[c]:
        return False
    req = C.CHANNELS[c].requires
    return req < 0 or state.channels[req]


def irrigate(state: AlpujarrasState, p: int, c: int) -> None:
    """ALP-30, ALP-31, ALP-32, ALP-33: fill channel `c`; norias = the fewer of p's farmers in its
    two farmlands; a field-leading space draws a crop token onto that field (fruit for p with a
    farmer there), a dirhem space pays one dirhem."""
    ch = C.CHANNELS[c]
    state.channels[c] = True
    a, b = ch.farmlands
    farmers = state.farmers[p]
    gain_norias(state, p, min(farmers[a], farmers[b]))
    if ch.dirhem:
        state.dirhems[p] += 1
    if ch.field is not None and state.bag:
        f, slot = ch.field
        kind = state.bag.pop()
        state.fields[f][slot] = kind
        if farmers[f] >= 1:
            gain_fruit(state, p, kind)


def ties_count(state: AlpujarrasState) -> bool:
    """ALP-46, ZG-11: whether a tie for the most farmers wins a harvest: yes with 3-4 players and
    in the solo game (Zara only out-harvests you where she has strictly more), no with 2."""
    return state.num_players >= 3 or state.solo


def harvest(state: AlpujarrasState, p: int) -> None:
    """ALP-45, ALP-46, ALP-47, G-21, ZG-11: one primary fruit per farmland where p has the most
    farmers (at least one; ties count with 3-4 players and against Zara, strictly more with 2
    players: `harvest_farmlands`); a sixth fruit becomes a noria."""
    for f, pays in enumerate(harvest_farmlands(state, p)):
        if pays and not gain_fruit(state, p, C.PRIMARY[f]):
            gain_norias(state, p, 1)


def harvest_farmlands(state: AlpujarrasState, p: int) -> list[bool]:
    """Per farmland, whether a harvest by p now would pay it (the harvest itself, the
    observation and the heuristic read it)."""
    n = state.num_players
    ties = ties_count(state)
    out = []
    for f in range(C.NUM_FARMLANDS):
        count = state.farmers[p][f]
        if count == 0:
            out.append(False)
            continue
        if state.solo:
            other = state.zara_farmers[f]
        else:
            other = max((state.farmers[q][f] for q in range(n) if q != p), default=0)
        out.append(count > other or (ties and count == other))
    return out


def deliver(state: AlpujarrasState, p: int, town: int, slot: int) -> None:
    """ALP-39, ALP-42, ALP-43: a farmer moves from farmland `town` into the town, the token's
    fruit goes back to the supply, the token to p; the town's award pays green, then red, then
    nothing."""
    tok = state.towns[town].pop(slot)
    kind, value = tok // 10, tok % 10
    return_fruit(state, p, kind, value)
    state.farmers[p][town] -= 1
    state.town_farmers[p][town] += 1
    state.tokens[p].append(tok)
    state.tokens[p].sort()
    state.markets_used[p] += 1
    award = state.awards[town]
    if award == C.AWARD_GREEN:
        state.dirhems[p] += C.AWARDS[state.award_ids[town]][0]
        state.awards[town] = C.AWARD_RED
    elif award == C.AWARD_RED:
        state.dirhems[p] += C.AWARDS[state.award_ids[town]][1]
        state.awards[town] = C.AWARD_GONE


def complete_goal(state: AlpujarrasState, p: int, card: int, from_farmland: int) -> None:
    """ALP-48: a farmer goes onto the card (from supply, or from `from_farmland` when the supply
    is empty) and the goal pays its dirhems."""
    if from_farmland < 0:
        state.supply[p] -= 1
    else:
        state.farmers[p][from_farmland] -= 1
    state.card_farmers[p] += 1
    state.goals_done[p][card] = True
    state.dirhems[p] += C.GOAL_REWARDS[C.card_goal(card, state.goal_sides[card])]


def pay_zakat(state: AlpujarrasState, card: int, from_farmland: int) -> None:
    """ZARA-09: return everything the card shows (a farmland farmer back to supply for the
    crossed-out farmer icon) and discard the card."""
    side = zakat_side(state, card)
    for t, count in Counter(side.fruits).items():
        return_fruit(state, 0, t, count)
    state.norias[0] -= side.norias
    state.dirhems[0] -= side.dirhems
    if side.farmer:
        state.farmers[0][from_farmland] -= 1
        state.supply[0] += 1
    state.zakat_paid[card] = True


def sell_fruit(state: AlpujarrasState, p: int, ratio: int) -> None:
    """ALP-64: all remaining fruit goes back; dirhems += total // ratio."""
    held = state.fruit[p]
    state.dirhems[p] += sum(held) // ratio
    for t in range(C.NUM_FRUITS):
        state.fruit_supply[t] += held[t]
        held[t] = 0


def score(state: AlpujarrasState, p: int) -> int:
    """ALP-66: dirhems plus each token's dirhem side (fruit value - 1)."""
    return state.dirhems[p] + sum(t % 10 - 1 for t in state.tokens[p])


def zara_score(state: AlpujarrasState) -> int:
    """ZARA-21: Zara's dirhems plus her tokens' dirhem sides."""
    return state.zara_dirhems + sum(t % 10 - 1 for t in state.zara_tokens)


def solo_duties_met(state: AlpujarrasState) -> int:
    """ZARA-20's ten duties met so far: zakats paid plus fruit kinds delivered."""
    return sum(state.zakat_paid) + len({t // 10 for t in state.tokens[0]})


def solo_conditions_met(state: AlpujarrasState) -> bool:
    """ZARA-20: all five zakats paid and five tokens of five different fruits."""
    kinds = {t // 10 for t in state.tokens[0]}
    return all(state.zakat_paid) and len(kinds) == C.NUM_FRUITS
