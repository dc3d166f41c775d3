"""Build Mi Tierra states directly, for tests, puzzles and analysis.

`scenario(...)` starts from a seeded game, replaces whatever you give (money, goods, farms,
development cards, workers on the board, market cards, the pile, the display, the event in force)
and starts the round at `start` (placement by default). Dice are rolled by the test itself:
scenarios use explicit-chance mode unless `explicit_chance=False`, so a pending roll waits for
`state.apply_chance(face)`. Market cards are named by code ("A08", "EB2"); every card not named
goes to the discard pile, so the pile holds exactly the cards you list (top first).
"""

from __future__ import annotations

from typing import Any

from . import components as C
from .actions import Decision, Stage
from .flow import enter_stage
from .game import new_game
from .rules import advance
from .state import MiTierraState

_TILE = {"apple": C.T_APPLE, "wheat": C.T_WHEAT, "grape": C.T_GRAPE}
_GOOD = {name: g for g, name in enumerate(C.GOODS)}
_EVENT = {name: e for e, name in enumerate(C.EVENTS)}


def good(name: str | int) -> int:
    """A good index from its name ('cow') or index."""
    return name if isinstance(name, int) else _GOOD[name]


def space(zone: str, k: int = 0) -> int:
    """Board space index of the k-th space of `zone` (e.g. space('sheep', 1))."""
    z = C.ZONE_KEYS.index(zone)
    if not 0 <= k < C.ZONES[z].spaces:
        raise ValueError(f"zone {zone} has {C.ZONES[z].spaces} spaces, not {k + 1}")
    return C.ZONE_FIRST_SPACE[z] + k


class CardPicker:
    """Hands out physical market-card ids by code, each id at most once."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, code: str) -> int:
        for c in C.MARKET_CARDS:
            if c.code == code and c.card_id not in self.used:
                self.used.add(c.card_id)
                return c.card_id
        raise ValueError(f"no unused market card with code {code!r}")


def event_code(name: str) -> str:
    """The code of an event card, e.g. event_code('strike') -> 'EB2'."""
    kind = _EVENT[name]
    for c in C.MARKET_CARDS:
        if c.kind == "event" and c.event == kind:
            return c.code
    raise ValueError(name)


def scenario(
    num_players: int = 2,
    seed: int = 0,
    *,
    money: list[int] | None = None,
    stamps: list[int] | None = None,
    goods: dict[int, dict[str | int, int]] | None = None,
    fields: dict[int, dict[int, str]] | None = None,
    barns: dict[int, dict[int, tuple[int, str | None, int]]] | None = None,
    farm_workers: dict[int, list[int]] | None = None,
    devs: dict[int, list[int]] | None = None,
    owned: dict[int, int] | None = None,
    cake: dict[int, int] | None = None,
    cloth: dict[int, int] | None = None,
    board: dict[int, int | tuple[int, bool]] | None = None,
    bm_workers: list[int] | None = None,
    order: list[int] | None = None,
    est: list[str | None] | None = None,
    closing: list[str | None] | None = None,
    pile: list[str] | None = None,
    event: str | None = None,
    perms_seen: int | None = None,
    display: list[int] | None = None,
    dev_deck: list[int] | None = None,
    round: int = 1,
    start: Stage = Stage.PLACEMENT,
    explicit_chance: bool = True,
) -> MiTierraState:
    """A state about to run stage `start` of round `round` with the given pieces.

    fields: {player: {cell: 'apple'|'wheat'|'grape'}} (the printed apple at cell 5 stays);
    barns: {player: {cell: (capacity, 'sheep'|'cow'|None, count)}}; goods: {player: {good: n}}
    for resources and hens (sheep and cows live in barns); board: {space: player} or
    {space: (player, pair)} for workers already placed (in the order given); est / closing: card
    codes by slot (None = empty); pile: card codes, top first.
    """
    s = new_game(num_players, seed=seed, explicit_chance=explicit_chance)
    n = s.num_players
    s.round = round
    if money is not None:
        s.money = list(money)
    if stamps is not None:
        s.stamp = list(stamps)
        s.clock = max(stamps)
    for p, held in (goods or {}).items():
        for name, count in held.items():
            s.goods[p][good(name)] = count
    for p, cells in (fields or {}).items():
        for cell, kind in cells.items():
            s.tiles[p][cell] = _TILE[kind]
    for p, cells in (barns or {}).items():
        for cell, (capacity, kind, count) in cells.items():
            s.tiles[p][cell] = C.BARN_TILE[capacity]
            s.barn_kind[p][cell] = C.NO_KIND if kind is None or count == 0 else good(kind)
            s.barn_count[p][cell] = count
    for p in range(n):
        for kind in (C.SHEEP, C.COW):
            s.goods[p][kind] = sum(
                s.barn_count[p][c] for c in range(C.FARM_CELLS) if s.barn_kind[p][c] == kind
            )
    for p, cards in (devs or {}).items():
        for d in cards:
            s.devs[p][d] = True
    for p, count in (owned or {}).items():
        s.owned[p] = count
    for p, count in (cake or {}).items():
        s.cake[p] = count
    for p, count in (cloth or {}).items():
        s.cloth[p] = count
    if order is not None:
        s.order = list(order)
    _set_cards(s, est, closing, pile, event, perms_seen)
    _set_developments(s, display, dev_deck)
    for p, cells in (farm_workers or {}).items():
        for cell in cells:
            s.farm_workers[p][cell] = True
    for i, who in (board or {}).items():
        player, pair = who if isinstance(who, tuple) else (who, False)
        s.space_owner[i] = player
        s.space_pair[i] = pair
        s.space_seq[i] = s.place_counter
        s.place_counter += 1
    s.bm_workers = list(bm_workers or [])
    for p in range(n):
        s.hut[p] = s.owned[p] - s.workers_placed(p)
    s.decision = int(Decision.NONE)
    s.invalidate()  # (derived fields first: entering a stage reads the board's occupied bits)
    enter_stage(s, start)
    s.place_pos = 0
    s.invalidate()
    s.options = advance(s)
    return s


def _set_cards(
    s: MiTierraState,
    est: list[str | None] | None,
    closing: list[str | None] | None,
    pile: list[str] | None,
    event: str | None,
    perms_seen: int | None,
) -> None:
    if est is None and closing is None and pile is None and event is None:
        if perms_seen is not None:
            s.perms_seen = perms_seen
            s.end_triggered = perms_seen >= C.PERMANENTS_TO_END
        return
    pick = CardPicker()
    s.est = [pick(code) if code else -1 for code in (est or [None] * s.num_players)]
    s.closing = [pick(code) if code else -1 for code in (closing or [None] * 4)]
    s.closing += [-1] * (4 - len(s.closing))
    s.event_card = pick(event_code(event)) if event else -1
    top_first = [pick(code) for code in (pile or [])]
    s.pile = top_first[::-1]
    s.removed = []
    s.discard = [c for c in range(C.NUM_MARKET_CARDS) if c not in pick.used]
    s.revealed = [True] * C.NUM_MARKET_CARDS
    for c in s.pile:
        s.revealed[c] = False
    s.known = [[] for _ in range(s.num_players)]
    s.known_set = [[] for _ in range(s.num_players)]
    s.known_depth = [0] * s.num_players
    if perms_seen is None:
        perms_seen = 1 if event and _EVENT[event] in C.PERMANENT_EVENTS else 0
    s.perms_seen = perms_seen
    s.end_triggered = perms_seen >= C.PERMANENTS_TO_END


def _set_developments(s: MiTierraState, display: list[int] | None,
                      dev_deck: list[int] | None) -> None:
    if display is None and dev_deck is None:
        taken = {d for p in range(s.num_players) for d in range(C.NUM_DEV_CARDS) if s.devs[p][d]}
        s.display = [d if d not in taken else -1 for d in s.display]
        s.dev_deck = [d for d in s.dev_deck if d not in taken]
        return
    s.display = list(display) if display is not None else [-1] * len(C.DEV_SLOTS)
    used = {d for d in s.display if d >= 0}
    used |= {d for p in range(s.num_players) for d in range(C.NUM_DEV_CARDS) if s.devs[p][d]}
    if dev_deck is not None:
        s.dev_deck = list(dev_deck)[::-1]  # given top first
    else:
        s.dev_deck = [d for d in range(C.NUM_DEV_CARDS) if d not in used][::-1]
    listed = set(s.dev_deck) | used
    missing = [d for d in range(C.NUM_DEV_CARDS) if d not in listed]
    if missing:
        raise ValueError(f"development cards {missing} are nowhere: list them in dev_deck")


def scenario_dict(**kwargs: Any) -> dict[str, Any]:
    """`scenario(**kwargs).to_dict()`, handy for writing fixtures."""
    return scenario(**kwargs).to_dict()
