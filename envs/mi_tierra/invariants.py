"""Every invariant of a Mi Tierra state, recomputed from scratch (T-73 of the analysis).

Used by `MiTierraState.check_consistency` (and so by `from_dict`) and by the property tests after
every step of random games: nothing negative, workers conserved, every card in exactly one place,
barnyards single-kind and within capacity, private knowledge aligned with the pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import components as C
from .actions import Decision, Stage

if TYPE_CHECKING:
    from .state import MiTierraState


def consistency_problems(state: MiTierraState) -> list[str]:
    """Every broken invariant, as messages (empty when the state is sound)."""
    n = state.num_players
    if n not in C.PLAYER_COUNTS:
        return [f"num_players={n} not in {list(C.PLAYER_COUNTS)}"]
    problems = _shapes(state, n)
    if problems:
        return problems
    problems += _players(state, n)
    problems += _farms(state, n)
    problems += _cards(state, n)
    problems += _flow(state, n)
    return problems


def _shapes(state: MiTierraState, n: int) -> list[str]:
    expected = {
        "money": n, "stamp": n, "owned": n, "hut": n, "retired": n, "cake": n, "cloth": n,
        "studies_used": n, "goods": n, "tiles": n, "barn_kind": n, "barn_count": n,
        "farm_workers": n, "devs": n, "known": n, "known_set": n, "known_depth": n,
        "order": n, "est": n,
        "space_owner": C.NUM_SPACES, "space_pair": C.NUM_SPACES, "space_seq": C.NUM_SPACES,
        "closing": 4, "revealed": C.NUM_MARKET_CARDS, "display": len(C.DEV_SLOTS),
        "sale_units": C.NUM_GOODS,
    }
    out = [
        f"{name} has length {len(getattr(state, name))}, expected {size}"
        for name, size in expected.items() if len(getattr(state, name)) != size
    ]
    rows = {"goods": C.NUM_GOODS, "tiles": C.FARM_CELLS, "barn_kind": C.FARM_CELLS,
            "barn_count": C.FARM_CELLS, "farm_workers": C.FARM_CELLS, "devs": C.NUM_DEV_CARDS}
    for name, size in rows.items():
        if any(len(row) != size for row in getattr(state, name)):
            out.append(f"{name}: every row must have {size} entries")
    if sorted(state.order) != list(range(n)):
        out.append(f"order {state.order} is not a permutation of the seats")
    return out


def _players(state: MiTierraState, n: int) -> list[str]:
    out = []
    for p in range(n):
        if state.money[p] < 0:
            out.append(f"player {p}: negative money {state.money[p]}")
        if min(state.goods[p]) < 0 or state.cake[p] < 0 or state.cloth[p] < 0:
            out.append(f"player {p}: a negative good")
        owned = state.owned[p]
        if not C.START_WORKERS <= owned <= C.MAX_WORKERS:
            out.append(f"player {p}: owns {owned} workers, outside 3-5 (MIT-37, T-73)")
        if state.hut[p] < 0:
            out.append(f"player {p}: negative hut {state.hut[p]}")
        if state.hut[p] + state.workers_placed(p) != owned:
            out.append(
                f"player {p}: hut {state.hut[p]} + placed {state.workers_placed(p)} != owned "
                f"{owned} (workers not conserved)"
            )
    for i in range(C.NUM_SPACES):
        owner = state.space_owner[i]
        if owner >= n or owner < -1:
            out.append(f"space {i}: bad owner {owner}")
        if state.space_pair[i] and (owner < 0 or not C.ZONES[C.SPACE_ZONE[i]].pairs):
            out.append(f"space {i}: a pair where none can stand")
        if n == 2 and i in C.BLOCKED_2P and owner >= 0:
            out.append(f"space {i} is blocked with 2 players but occupied")
    occupied = sum(1 << i for i in range(C.NUM_SPACES) if state.space_owner[i] >= 0)
    if getattr(state, "occupied", occupied) != occupied:
        out.append("the occupied-space bits disagree with the board (call invalidate())")
    return out


def _farms(state: MiTierraState, n: int) -> list[str]:
    out = []
    for p in range(n):
        tiles = state.tiles[p]
        kinds = state.barn_kind[p]
        counts = state.barn_count[p]
        if tiles[C.PRINTED_APPLE_CELL] != C.T_APPLE:
            out.append(f"player {p}: the printed apple field is gone (G-17)")
        totals = {C.SHEEP: 0, C.COW: 0}
        for c in range(C.FARM_CELLS):
            tile = tiles[c]
            if not C.EMPTY <= tile <= C.T_BARN3:
                out.append(f"player {p} cell {c}: bad tile {tile}")
                continue
            if tile in C.BARN_CAPACITY:
                if counts[c] < 0 or counts[c] > C.BARN_CAPACITY[tile]:
                    out.append(f"player {p} cell {c}: {counts[c]} animals in a {tile} barnyard")
                if (counts[c] == 0) != (kinds[c] == C.NO_KIND):
                    out.append(f"player {p} cell {c}: barnyard kind and count disagree")
                if kinds[c] not in (C.NO_KIND, C.SHEEP, C.COW):
                    out.append(f"player {p} cell {c}: barnyard holds kind {kinds[c]} (MIT-35)")
                elif kinds[c] != C.NO_KIND:
                    totals[kinds[c]] += counts[c]
            elif counts[c] or kinds[c] != C.NO_KIND:
                out.append(f"player {p} cell {c}: animals outside a barnyard")
            if state.farm_workers[p][c] and not C.T_APPLE <= tile <= C.T_GRAPE:
                out.append(f"player {p} cell {c}: a worker on no crop field (G-25)")
        goods = state.goods[p]
        for kind, total in totals.items():
            if goods[kind] != total:
                out.append(f"player {p}: {C.GOODS[kind]} {goods[kind]} != {total} in barnyards")
        if not 0 <= goods[C.HEN] <= C.HENHOUSE_CAPACITY:
            out.append(f"player {p}: {goods[C.HEN]} hens, henhouse holds 6 (G-19)")
    return out


def _cards(state: MiTierraState, n: int) -> list[str]:
    out = []
    placed = [c for c in state.est if c >= 0] + [c for c in state.closing if c >= 0]
    places = state.pile + state.removed + placed + state.discard
    if state.event_card >= 0:
        places.append(state.event_card)
    if sorted(places) != list(range(C.NUM_MARKET_CARDS)):
        out.append("market cards: pile + removed + slots + discard + event are not each card "
                   "exactly once")
    for c in state.removed:
        if C.IS_DECK_B[c]:
            out.append(f"market card {c} from deck B was removed at setup (MIT-02)")
    hidden = set(state.pile) | set(state.removed)
    for c in range(C.NUM_MARKET_CARDS):
        if state.revealed[c] == (c in hidden):
            out.append(f"market card {c}: revealed flag is wrong")
    for c in placed:
        if C.IS_EVENT[c]:
            out.append(f"market card {c} is an event but sits in a market slot (MIT-85)")
    if state.event_card >= 0 and C.MARKET_CARDS[state.event_card].event not in \
            C.PERMANENT_EVENTS:
        out.append("an instant event is in force")
    owned = [d for p in range(n) for d in range(C.NUM_DEV_CARDS) if state.devs[p][d]]
    devs = state.dev_deck + [d for d in state.display if d >= 0] + owned
    if sorted(devs) != list(range(C.NUM_DEV_CARDS)):
        out.append("development cards: deck + display + owned are not each card exactly once")
    pile = state.pile
    for p in range(n):
        known, known_set = state.known[p], state.known_set[p]
        if known and known_set:
            out.append(f"player {p}: both ordered and unordered knowledge")
        if known != [pile[-1 - i] for i in range(min(len(known), len(pile)))] or \
                len(known) > min(C.CLOCK_PEEK, len(pile)):
            out.append(f"player {p}: peeked cards are not the top of the pile")
        depth = state.known_depth[p]
        if (depth == 0) != (not known_set) or not len(known_set) <= depth <= len(pile) or \
                not set(known_set) <= set(pile[len(pile) - depth:]):
            out.append(f"player {p}: peeked set does not lie within the top {depth} cards")
    if not 0 <= state.perms_seen <= C.PERMANENTS_TO_END:
        out.append(f"{state.perms_seen} permanent events seen")
    if state.end_triggered != (state.perms_seen >= C.PERMANENTS_TO_END):
        out.append("end flag disagrees with the permanent events seen (MIT-87)")
    return out


def _flow(state: MiTierraState, n: int) -> list[str]:
    out = []
    if state.terminal != (state.stage == Stage.GAME_OVER):
        out.append("terminal flag and stage disagree")
    if not state.terminal and not state.chance_pending:
        if state.decision == Decision.NONE:
            out.append("a live game with no decision pending")
        elif not 0 <= state.current_player < n:
            out.append(f"current_player {state.current_player} is not a seat")
    if state.reorder_left or state.reorder_done:
        p = state.current_player
        if state.decision != Decision.CLOCK_ORDER or not 0 <= p < n or \
                sorted(state.reorder_left + state.reorder_done) != sorted(state.known[p]):
            out.append("a Clock Tower reordering does not match the peeker's cards")
    if state.bm_buys > C.BM_BUYS_PER_WORKER:
        out.append("a Black Market worker bought more than 3 units (MIT-91)")
    return out
