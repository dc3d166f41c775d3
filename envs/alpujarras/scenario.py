"""Build Alpujarras states directly, for tests, puzzles and analysis.

`scenario(...)` starts from a seeded game and applies what you give it; everything not given keeps
its seeded value, and the conservation invariants hold (fruit, farmers and tokens not assigned to
a player stay in the supply, the box or the towns). Chance can be forced: `draws` are the next crop
tokens in draw order and `rolls` the next die rolls in order.

The default segment order is fixed (`SCENARIO_LAYOUT`: go, MA, HA, MB, HB, MC, HC, MD, HD, end), so
track indices in tests are stable: on the 1-3 player side the markets are spaces 5, 13, 21, 29,
the harvests 9, 17, 25, 33 and the end spaces 34-36 (ratios 5, 4, 3).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import components as C
from . import turns
from .actions import Phase
from .game import new_game
from .state import AlpujarrasState

SCENARIO_LAYOUT = tuple(
    C.SEGMENT_NAMES.index(name)
    for name in ("GO", "MA", "HA", "MB", "HB", "MC", "HC", "MD", "HD", "END")
)


def _per_kind(value: dict[int, int] | list[int], size: int) -> list[int]:
    if isinstance(value, dict):
        return [value.get(i, 0) for i in range(size)]
    return list(value)


def scenario(
    num_players: int = 2,
    seed: int = 0,
    *,
    layout: tuple[int, ...] | None = SCENARIO_LAYOUT,
    positions: dict[int, int | tuple[int, int]] | None = None,
    farmers: dict[int, dict[int, int] | list[int]] | None = None,
    town_farmers: dict[int, dict[int, int] | list[int]] | None = None,
    card_farmers: dict[int, int] | None = None,
    supply: dict[int, int] | None = None,
    fruit: dict[int, dict[int, int] | list[int]] | None = None,
    norias: dict[int, int] | None = None,
    dirhems: dict[int, int] | None = None,
    tokens: dict[int, list[tuple[int, int]]] | None = None,
    towns: dict[int, list[tuple[int, int]]] | None = None,
    awards: dict[int, int] | None = None,
    goal_sides: list[int] | None = None,
    goals_done: dict[int, list[int]] | None = None,
    fields: dict[int, list[int]] | None = None,
    channels: list[int] | None = None,
    draws: list[int] | None = None,
    rolls: list[int] | None = None,
    zara_farmland: int | None = None,
    zara_farmers: dict[int, int] | list[int] | None = None,
    zara_tokens: list[tuple[int, int]] | None = None,
    zara_dirhems: int | None = None,
    double_turns: int | None = None,
    zakat_star: list[bool] | None = None,
    zakat_paid: list[bool] | None = None,
    current_player: int | None = None,
    resolve: bool = False,
) -> AlpujarrasState:
    """A state in the MOVE phase built from the given pieces.

    positions: {piece: space} or {piece: (space, spot)} (piece n is the die; -1 = start spots);
    farmers / town_farmers / fruit: {player: {index: count}}; tokens / towns: {who: [(fruit,
    value), ...]}; fields: {farmland: [crop or -1 per empty field]}; channels: filled ids.
    The acting player is `current_player` or the owner of the rearmost mule; with `resolve` the
    engine hands the turn on as after END_TURN (die and Zara turns are played).
    """
    s = new_game(num_players, seed=seed)
    n = s.num_players
    if layout is not None:
        s.layout = list(layout)
    s.track = C.build_track(tuple(s.layout), C.four_player_side(n))
    for i, where in (positions or {}).items():
        space, spot = (where, 0) if isinstance(where, int) else where
        s.pos[i] = space
        s.spot[i] = spot
    for p, where in (farmers or {}).items():
        s.farmers[p] = _per_kind(where, C.NUM_FARMLANDS)
    for p, where in (town_farmers or {}).items():
        s.town_farmers[p] = _per_kind(where, C.NUM_TOWNS)
    for p, count in (card_farmers or {}).items():
        s.card_farmers[p] = count
    for p, done in (goals_done or {}).items():
        s.goals_done[p] = [i in done for i in range(C.NUM_GOAL_CARDS)]
        s.card_farmers[p] = len(done)
    for p in range(n):
        placed = sum(s.farmers[p]) + sum(s.town_farmers[p]) + s.card_farmers[p]
        s.supply[p] = (supply or {}).get(p, C.FARMERS_PER_PLAYER - placed)
    for p, held in (fruit or {}).items():
        s.fruit[p] = _per_kind(held, C.NUM_FRUITS)
    s.fruit_supply = [
        C.FRUIT_PER_KIND - sum(s.fruit[p][t] for p in range(n)) for t in range(C.NUM_FRUITS)
    ]
    for p, k in (norias or {}).items():
        s.norias[p] = k
    for p, k in (dirhems or {}).items():
        s.dirhems[p] = k
    # tokens: players', Zara's and the towns' as given, the rest stays or goes to the box
    pool = Counter(C.ALL_TOKENS)
    def ints(toks: list[tuple[int, int]]) -> list[int]:
        return sorted(C.token(f, v) for f, v in toks)

    player_tokens = {p: ints(toks) for p, toks in (tokens or {}).items()}
    z_tokens = ints(zara_tokens or [])
    town_tokens = {w: ints(toks) for w, toks in (towns or {}).items()}
    for toks in [*player_tokens.values(), z_tokens, *town_tokens.values()]:
        pool.subtract(toks)
    if any(v < 0 for v in pool.values()):
        raise ValueError("scenario uses a delivery token more often than the game has it")
    for w in range(C.NUM_TOWNS):
        if w not in town_tokens:
            keep = []
            for t in s.towns[w]:
                if pool[t] > 0:
                    keep.append(t)
                    pool[t] -= 1
            town_tokens[w] = keep
    s.towns = [town_tokens[w] for w in range(C.NUM_TOWNS)]
    s.removed_tokens = sorted(pool.elements())
    for p in range(n):
        s.tokens[p] = player_tokens.get(p, [])
        s.markets_used[p] = len(s.tokens[p])
    s.zara_tokens = z_tokens
    for w, state in (awards or {}).items():
        s.awards[w] = state
    if goal_sides is not None:
        s.goal_sides = list(goal_sides)
    for f, crops in (fields or {}).items():
        s.fields[f] = list(crops)
    for c in channels or []:
        s.channels[c] = True
    # the crop bag: what the fields do not hold, the forced draws last (drawn first)
    bag = Counter({k: C.CROPS_PER_KIND for k in range(C.NUM_FRUITS)})
    for crops in s.fields:
        bag.subtract(k for k in crops if k >= 0)
    forced = list(draws or [])
    bag.subtract(forced)
    if any(v < 0 for v in bag.values()):
        raise ValueError("scenario uses more crop tokens of a kind than the bag has")
    rest = []
    for k in s.bag:
        if bag[k] > 0:
            rest.append(k)
            bag[k] -= 1
    s.bag = rest + list(reversed(forced))
    if rolls is not None:
        s.rolls = s.rolls[: max(0, len(s.rolls) - len(rolls))] + list(reversed(rolls))
    if s.solo:
        if zara_farmland is not None:
            s.zara_farmland = zara_farmland
        if zara_farmers is not None:
            s.zara_farmers = _per_kind(zara_farmers, C.NUM_FARMLANDS)
        s.zara_supply = C.FARMERS_PER_PLAYER - sum(s.zara_farmers)
        if zara_dirhems is not None:
            s.zara_dirhems = zara_dirhems
        if double_turns is not None:
            s.double_turns = double_turns
        if zakat_star is not None:
            s.zakat_star = list(zakat_star)
        if zakat_paid is not None:
            s.zakat_paid = list(zakat_paid)
    turns.clear_visit(s)
    s.phase = int(Phase.MOVE)
    if resolve:
        turns.advance(s)
    else:
        s.current_player = turns.rearmost(s) if current_player is None else current_player
        if s.current_player >= n or s.current_player < 0:
            s.current_player = 0
    s.invalidate()
    return s


def arrive(state: AlpujarrasState, space: int, player: int | None = None) -> AlpujarrasState:
    """Put `player`'s mule (default: the acting player) on `space` as if it had just moved
    there, with the visit's icons and duties set up and the phase ACTION."""
    p = state.current_player if player is None else player
    state.current_player = p
    turns.arrive(state, p, space)
    state.invalidate()
    return state


def scenario_dict(**kwargs: Any) -> dict[str, Any]:
    """`scenario(**kwargs).to_dict()`, handy for writing fixtures."""
    return scenario(**kwargs).to_dict()
