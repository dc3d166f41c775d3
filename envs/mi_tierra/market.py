"""The market deck: draws, events, Established slots, sales, Clock Tower knowledge.

The draw pile is deck A's remainder stacked on deck B (MIT-03, G-55), top last. Every draw updates
each player's private knowledge of the pile top (what it peeked at the Clock Tower): the drawn card
leaves it. A drawn event is resolved at once (MIT-85, MIT-86, G-54).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .farm import change_good, remove_animals
from .groups import MARKET, SEEN
from .ledger import gain

if TYPE_CHECKING:
    from .state import MiTierraState

CARDS = C.MARKET_CARDS


def draw(state: MiTierraState) -> int:
    """The top card of the pile (now public), or -1 when the pile is empty; an empty pile ends
    the game after the round (G-56)."""
    pile = state.pile
    if not pile:
        state.pile_ran_out = True
        state.touched |= MARKET
        return -1
    card = pile.pop()
    state.revealed[card] = True
    state.touched_cards.append(card)
    touched = MARKET
    for q, known in enumerate(state.known):
        if known:
            known.pop(0)  # the drawn card was the first one this player knew
            touched |= SEEN[q]
    depth = state.known_depth
    for q, known_set in enumerate(state.known_set):
        if known_set:
            if card in known_set:
                known_set.remove(card)
            depth[q] = depth[q] - 1 if known_set else 0
            touched |= SEEN[q]
    state.touched |= touched
    return card


def fill_slot(state: MiTierraState, slot: int) -> None:
    """Draw into Established slot `slot` until a market card lands there, resolving every event
    revealed on the way (G-54); the slot stays empty if the pile runs out."""
    while True:
        card = draw(state)
        if card < 0:
            state.est[slot] = -1
            return
        if C.IS_EVENT[card]:
            resolve_event(state, card)
            continue
        state.est[slot] = card
        return


def resolve_event(state: MiTierraState, card: int) -> None:
    """MIT-85, MIT-86, MIT-87, G-60, G-61, G-62, G-63, G-64: a new event ends the one in force; an
    instant event acts and is discarded; a permanent one stays in force, except the third, which
    ends the game after this round instead of being placed."""
    state.touched |= MARKET
    if state.event_card >= 0:
        state.discard.append(state.event_card)
        state.event_card = -1
    kind = CARDS[card].event
    if kind in C.PERMANENT_EVENTS:
        state.perms_seen += 1
        if state.perms_seen >= C.PERMANENTS_TO_END:
            state.end_triggered = True
            state.discard.append(card)
        else:
            state.event_card = card
        return
    state.discard.append(card)
    immune = C.EVENT_IMMUNITY[kind]
    for p in range(state.num_players):
        if state.devs[p][immune]:
            continue
        goods = state.goods[p]
        if kind == C.THIEVES:  # MIT-103: half of each kind, rounded down
            for animal in C.ANIMALS:
                lost = goods[animal] // 2
                if lost:
                    remove_animals(state, p, animal, lost)
        else:  # FROST, G-62: half of each crop resource, rounded down
            for crop in C.CROPS:
                lost = goods[crop] // 2
                if lost:
                    change_good(state, p, crop, -lost)


def inflation(state: MiTierraState) -> bool:
    """Whether Inflation is in force (MIT-104)."""
    return state.event_in_force() == C.INFLATION


def can_sell_to(goods: list[int], card: int) -> bool:
    """G-53: whether a player holding `goods` can sell at least one unit to market `card`."""
    c = CARDS[card]
    if c.kind == "simple":
        return goods[c.good] > 0
    if c.kind == "pack":
        contents = c.contents
        return all(goods[g] >= contents[g] for g in range(C.NUM_GOODS))
    return any(goods)  # generic: anything held


def sale_card(state: MiTierraState) -> int:
    """The card of the sale in progress (Established slot 0-3 or Closing slot 4-7)."""
    slot = state.sale_slot
    return state.est[slot] if slot < 4 else state.closing[slot - 4]


def sale_value(state: MiTierraState, card: int, units: list[int]) -> int:
    """What `card` pays for `units` (a pack pays its bundle price)."""
    c = CARDS[card]
    infl = inflation(state)
    if c.kind == "pack":
        return C.pack_payout(c, infl)
    return sum(C.card_unit_price(c, g, infl) * n for g, n in enumerate(units) if n)


def complete_sale(state: MiTierraState, player: int, units: list[int]) -> None:
    """MIT-79, MIT-80, G-49: pay `player`, take the goods, discard the card; an Established slot is
    refilled at once (events resolved), a Closing slot stays empty."""
    card = sale_card(state)
    gain(state, player, sale_value(state, card, units))
    for g, n in enumerate(units):
        if n:
            change_good(state, player, g, -n)
    state.discard.append(card)
    slot = state.sale_slot
    state.sale_slot = -1
    state.touched |= MARKET
    if slot < 4:
        state.est[slot] = -1
        fill_slot(state, slot)
    else:
        state.closing[slot - 4] = -1


# --- Clock Tower knowledge (MIT-45, MIT-46, G-35) -------------------------------------------------

def peek(state: MiTierraState, player: int) -> None:
    """`player` looks at the top min(4, pile) cards, in order."""
    pile = state.pile
    k = min(C.CLOCK_PEEK, len(pile))
    state.known[player] = [pile[-1 - i] for i in range(k)]
    state.known_set[player] = []
    state.known_depth[player] = 0
    state.touched |= SEEN[player]


def finish_reorder(state: MiTierraState, player: int) -> None:
    """Put the reordered cards back (the chosen ones first, then the rest in their order); the
    other players' knowledge of those positions becomes a set without order, because they cannot
    see whether or how the cards were rearranged."""
    order = state.reorder_done + state.reorder_left
    pile = state.pile
    touched = MARKET | SEEN[player]  # the deck letters of the top positions may have moved
    for i, card in enumerate(order):
        pile[-1 - i] = card
    state.known[player] = list(order)
    state.known_set[player] = []
    state.known_depth[player] = 0
    state.reorder_done = []
    state.reorder_left = []
    for q in range(state.num_players):
        if q != player and (state.known[q] or state.known_set[q]):
            state.known_set[q] = state.known[q] + state.known_set[q]
            state.known[q] = []
            state.known_depth[q] = len(order)
            touched |= SEEN[q]
    state.touched |= touched


def determinize_pile(state: MiTierraState, player: int, rng: np.random.Generator) -> None:
    """Deal the market cards `player` does not know again (G-35): pile positions it has not
    peeked and the removed A cards are shuffled among themselves, each position keeping its
    deck letter (card backs show A or B, MIT-03); cards it knows only as a set stay within the
    top positions where it knows them to be. Other players' knowledge is moved onto whatever now
    lies at the positions they know."""
    pile = state.pile
    size = len(pile)
    fixed = len(state.known[player])
    depth = state.known_depth[player] if state.known_set[player] else 0
    must_top = set(state.known_set[player])
    for is_b in (False, True):
        top = [k for k in range(fixed, depth) if C.IS_DECK_B[pile[-1 - k]] == is_b]
        rest = [k for k in range(max(fixed, depth), size) if C.IS_DECK_B[pile[-1 - k]] == is_b]
        cards = [pile[-1 - k] for k in top + rest]
        removed = [] if is_b else list(state.removed)
        # sorted before shuffling, so that the result depends only on what `player` knows
        pool = sorted(c for c in cards + removed if c not in must_top)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        pinned = sorted(c for c in cards if c in must_top)
        head = pinned + pool[: len(top) - len(pinned)]
        head = [head[i] for i in rng.permutation(len(head))]
        tail = pool[len(top) - len(pinned):]
        for k, card in zip(top, head, strict=True):
            pile[-1 - k] = card
        for k, card in zip(rest, tail, strict=False):
            pile[-1 - k] = card
        if not is_b:
            state.removed = tail[len(rest):]
    for q in range(state.num_players):
        if q == player:
            continue
        if state.known[q]:
            old = state.known[q]
            state.known[q] = [pile[-1 - i] for i in range(len(old))]
            if (state.reorder_left or state.reorder_done) and state.current_player == q:
                # q is reordering: its choices follow the cards now at the same positions
                moved = dict(zip(old, state.known[q], strict=True))
                state.reorder_left = [moved[c] for c in state.reorder_left]
                state.reorder_done = [moved[c] for c in state.reorder_done]
        if state.known_set[q]:
            state.known_set[q] = [pile[-1 - i] for i in range(len(state.known_set[q]))]
