"""Mi Tierra as a picture (the `rgb_array` render): the board's zones with their workers, the
development display and its five spots, the Established, Closing and Black markets, the events,
and every player's farm, goods, cards, money and score.

Only public information is drawn — the market pile appears as its size and the deck letters of its
top cards (the card backs), never its order; a Clock Tower peek or reordering is never shown — so
a picture of a game can be shown to every player. Pillow is imported only when a picture is asked
for; no display is needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.pictures import Canvas
from . import components as C
from .actions import STAGE_ZONE, Decision, Stage
from .farm import farm_items
from .render import decision_text, stage_text

if TYPE_CHECKING:
    from .state import MiTierraState

WIDTH, HEIGHT = 1400, 900
BACKGROUND = "#f4efe4"
INK = "#222222"
SOFT = "#5a5a5a"
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e08a00")
GOOD_COLOURS = (
    "#d9534f", "#e3c05c", "#8e5aa8", "#b5651d", "#eeeadd", "#ffffff", "#f6e7b0", "#f3ecd9",
    "#7b2d3b", "#d8d8d8", "#8b6b4a", "#f0a64a",
)
TILE_COLOURS = ("#e9e2cf", "#e8837a", "#ead27a", "#b48ac7", "#a1887f", "#8d6e63")
TILE_TEXT = ("", "apple", "wheat", "grape", "barn 2", "barn 3")
# The board zones drawn in the left block, in activation order, as (zone, column, row).
ZONE_GRID = (
    (C.Z_FOREST, 0, 0), (C.Z_SHEEP, 1, 0), (C.Z_SQUARE, 2, 0),
    (C.Z_CROPS, 0, 1), (C.Z_COW, 1, 1), (C.Z_HENHOUSE, 2, 1),
    (C.Z_APF, 0, 2), (C.Z_CLOCK, 1, 2), (C.Z_BAKERY, 2, 2),
    (C.Z_FLOUR_WINE, 0, 3), (C.Z_CLOTH, 1, 3), (C.Z_LOWER_ROAD, 2, 3),
)
ZONE_TITLES = {
    C.Z_FOREST: "1 Forest (barnyards)", C.Z_SHEEP: "2 Sheep Barnyard",
    C.Z_SQUARE: "3 Square (hire)", C.Z_CROPS: "4 Crops (fields)", C.Z_COW: "5 Cow Barnyard",
    C.Z_HENHOUSE: "6 Henhouse", C.Z_APF: "7 Animal Products $5", C.Z_CLOCK: "8 Clock Tower",
    C.Z_BAKERY: "9 Bakery $8", C.Z_FLOUR_WINE: "11 Flour & Wine $5",
    C.Z_CLOTH: "12 Cloth Factory $7", C.Z_LOWER_ROAD: "16 Lower road (go first)",
}


def render_rgb(state: MiTierraState) -> np.ndarray:
    """The whole public state as an RGB image of shape (900, 1400, 3), dtype uint8."""
    canvas = Canvas(WIDTH, HEIGHT, background=BACKGROUND)
    _title(canvas, state)
    _zones(canvas, state, left=14, top=78)
    _developments(canvas, state, left=548, top=78)
    _events(canvas, state, left=548, top=370)
    _markets(canvas, state, left=858, top=78)
    _context(canvas, state, left=858, top=340)
    _players(canvas, state, top=548)
    return canvas.to_array()


# --- small pieces ------------------------------------------------------------------------------

def _text_colour(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"


def _worker(canvas: Canvas, centre: tuple[float, float], player: int, radius: float = 11,
            label: str = "") -> None:
    """A worker disc in its player's colour (a label such as '2' for a pair)."""
    canvas.circle(centre, radius, fill=PLAYER_COLOURS[player], outline="#111111")
    if label:
        canvas.text(centre, label, size=13, fill="white", anchor="mm")


def _slot(canvas: Canvas, centre: tuple[float, float], owner: int, pair: bool,
          blocked: bool, number: str = "") -> None:
    """One worker space: empty ring, a worker (a pair shows '2'), or a blocked cross."""
    x, y = centre
    if blocked:
        canvas.circle(centre, 11, fill="#cfc8b8", outline="#9a9384")
        canvas.line((x - 6, y - 6, x + 6, y + 6), fill="#7a7466", width=2)
        canvas.line((x - 6, y + 6, x + 6, y - 6), fill="#7a7466", width=2)
    elif owner >= 0:
        _worker(canvas, centre, owner, label="2" if pair else "")
    else:
        canvas.circle(centre, 11, fill="#fbf8f1", outline="#9a9384")
        if number:
            canvas.text(centre, number, size=11, fill="#9a9384", anchor="mm")


def _chip(canvas: Canvas, x: float, y: float, good: int, count: int, size: int = 15) -> float:
    """A good as a small labelled chip with its count; returns the x after it."""
    fill = GOOD_COLOURS[good]
    canvas.rect((x, y - 10, x + 24, y + 10), fill=fill, outline="#6b6b6b")
    canvas.text((x + 12, y), C.GOOD_ABBREV[good], size=12, fill=_text_colour(fill), anchor="mm")
    canvas.text((x + 27, y), str(count), size=size, fill=INK, anchor="lm")
    return x + 30 + 9 * len(str(count))


def _box(canvas: Canvas, box: tuple[float, float, float, float], title: str,
         active: bool = False, closed: bool = False) -> None:
    fill = "#e4ddcd" if closed else "#fffaf0"
    canvas.rect(box, fill=fill, outline="#b8860b" if active else "#8c8472",
                width=4 if active else 1)
    canvas.text((box[0] + 7, box[1] + 5), title, size=14, fill=INK)


# --- the title ---------------------------------------------------------------------------------

def _title(canvas: Canvas, state: MiTierraState) -> None:
    n = state.num_players
    if state.terminal:
        winners = ", ".join(f"player_{w}" for w in state.winners())
        head = (f"Mi Tierra, {n} players: game over after round {state.round}. "
                f"{'Shared victory' if len(state.winners()) > 1 else 'Winner'}: {winners}")
    else:
        where = stage_text(state)
        who = ("a die roll is pending" if state.chance_pending else
               f"player_{state.current_player} to act ({decision_text(state)})")
        head = f"Mi Tierra, {n} players, round {state.round}, {where}: {who}"
    canvas.text((14, 10), head, size=21, fill=INK)
    order = "  ".join(f"{k + 1}. player_{p}" for k, p in enumerate(state.order))
    canvas.text((14, 44), f"Turn order: {order}", size=15, fill=INK)


# --- the board ---------------------------------------------------------------------------------

def _zones(canvas: Canvas, state: MiTierraState, left: int, top: int) -> None:
    canvas.text((left, top - 4), "Board: workers by colour (2 = a pair), X = blocked",
                size=15, fill=INK)
    two = state.num_players == 2
    strike = state.event_in_force() == C.STRIKE
    active_zone = STAGE_ZONE.get(Stage(state.stage), -1) if not state.terminal else -1
    if state.stage == Stage.LOWER_ROAD:
        active_zone = C.Z_LOWER_ROAD
    box_w, box_h = 172, 64
    for zone, col, row in ZONE_GRID:
        x = left + col * (box_w + 6)
        y = top + 20 + row * (box_h + 6)
        closed = strike and C.ZONES[zone].factory
        _box(canvas, (x, y, x + box_w, y + box_h), ZONE_TITLES[zone], zone == active_zone,
             closed)
        if closed:
            canvas.text((x + box_w - 8, y + 42), "closed", size=13, fill="#8b0000", anchor="rm")
        first = C.ZONE_FIRST_SPACE[zone]
        for k in range(C.ZONES[zone].spaces):
            i = first + k
            _slot(canvas, (x + 22 + 30 * k, y + 42), state.space_owner[i], state.space_pair[i],
                  two and i in C.BLOCKED_2P)
    # the Established market's numbered spaces and the Black Market, below the grid
    y = top + 20 + 4 * (box_h + 6)
    _box(canvas, (left, y, left + 2 * box_w + 6, y + box_h),
         "14 Established market (sell; space 1 first)", active_zone == C.Z_EST_MARKET
         or state.stage == Stage.EST_MARKET)
    first = C.ZONE_FIRST_SPACE[C.Z_EST_MARKET]
    for k in range(C.ZONES[C.Z_EST_MARKET].spaces):
        i = first + k
        _slot(canvas, (left + 22 + 30 * k, y + 42), state.space_owner[i], False,
              two and i in C.BLOCKED_2P, str(k + 1))
    bx = left + 2 * (box_w + 6)
    _box(canvas, (bx, y, bx + box_w, y + box_h), "15 Black Market",
         state.stage == Stage.BLACK_MARKET)
    for k, p in enumerate(state.bm_workers[:6]):
        _worker(canvas, (bx + 22 + 26 * k, y + 42), p)
    if not state.bm_workers:
        canvas.text((bx + 10, y + 42), "no worker", size=13, fill=SOFT, anchor="lm")
    # the chart of the Black Market, which names every good's chip
    y += box_h + 6
    inflation = state.event_in_force() == C.INFLATION
    canvas.text((left, y), "Black Market: the bank pays / sells for, per unit (goods by code)",
                size=13, fill=INK)
    col_w = (2 * box_w + 6 + box_w + 6) / 4
    for g in range(C.NUM_GOODS):
        buy = C.BM_BUY[g]
        sell = C.bm_price(g, False, inflation)
        price = f"{sell}/{C.bm_price(g, True, inflation)}" if buy is not None else f"{sell}"
        row, col = divmod(g, 4)
        _price_chip(canvas, left + col * col_w, y + 30 + 21 * row, g, price)


def _price_chip(canvas: Canvas, x: float, y: float, good: int, price: str) -> float:
    """A good's chip, its name and its Black Market prices; returns the x after them."""
    fill = GOOD_COLOURS[good]
    canvas.rect((x, y - 9, x + 22, y + 9), fill=fill, outline="#6b6b6b")
    canvas.text((x + 11, y), C.GOOD_ABBREV[good], size=11, fill=_text_colour(fill), anchor="mm")
    text = f"{C.GOODS[good]} {price}"
    canvas.text((x + 26, y), text, size=12, fill=INK, anchor="lm")
    return x + 34 + canvas.text_width(text, 12)


def _developments(canvas: Canvas, state: MiTierraState, left: int, top: int) -> None:
    canvas.text((left, top - 4), "10 Developments: $1 per card a spot touches", size=15,
                fill=INK)
    active = state.stage == Stage.DEVELOPMENTS
    canvas.rect((left, top + 20, left + 296, top + 280), fill="#fffaf0",
                outline="#b8860b" if active else "#8c8472", width=4 if active else 1)
    card_w, card_h = 116, 74
    cx, cy = left + 148, top + 150  # the centre of the 2x2 display
    touched: tuple[int, ...] = ()
    if state.decision == Decision.DEVELOPMENT and state.qpos < len(state.queue):
        touched = C.DEV_SPOT_TOUCHES[state.queue[state.qpos] - C.ZONE_FIRST_SPACE[C.Z_DEV]]
    for s, card in enumerate(state.display):
        col, row = s % 2, s // 2
        x = cx - card_w - 3 + col * (card_w + 6)
        y = cy - card_h - 3 + row * (card_h + 6)
        if card < 0:
            canvas.rect((x, y, x + card_w, y + card_h), fill="#e4ddcd", outline="#b0a890")
            canvas.text((x + card_w / 2, y + card_h / 2), "empty", size=13, fill=SOFT,
                        anchor="mm")
            continue
        dev = C.DEV_CARDS[card]
        reach = s in touched  # the acting worker's spot touches it: it may be taken now
        canvas.rect((x, y, x + card_w, y + card_h), fill="#f7e9c8",
                    outline="#d62728" if reach else "#8c6d1f", width=4 if reach else 2)
        canvas.text((x + 6, y + 5), dev.numeral, size=16, fill="#8b0000")
        for k, line in enumerate(_wrap(dev.name, 14)):
            canvas.text((x + 6, y + 28 + 18 * k), line, size=14, fill=INK)
    two = state.num_players == 2
    first = C.ZONE_FIRST_SPACE[C.Z_DEV]
    spots = {"N": (cx, cy - card_h - 22), "S": (cx, cy + card_h + 22),
             "W": (cx - card_w - 20, cy), "E": (cx + card_w + 20, cy), "C": (cx, cy)}
    for k, name in enumerate(C.DEV_SPOTS):
        i = first + k
        x, y = spots[name]
        _slot(canvas, (x, y), state.space_owner[i], False, two and i in C.BLOCKED_2P)
        if state.space_owner[i] < 0 and not (two and i in C.BLOCKED_2P):
            canvas.text((x, y), name, size=12, fill="#7a7466", anchor="mm")
    canvas.text((left + 6, top + 262), f"development deck: {len(state.dev_deck)} cards",
                size=13, fill=SOFT)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return lines


def _events(canvas: Canvas, state: MiTierraState, left: int, top: int) -> None:
    canvas.rect((left, top, left + 296, top + 162), fill="#fffaf0", outline="#8c8472")
    canvas.text((left + 7, top + 5), "Events", size=15, fill=INK)
    event = state.event_in_force()
    text = C.EVENT_NAMES[event] if event >= 0 else "none"
    colour = "#8b0000" if event >= 0 else SOFT
    canvas.text((left + 10, top + 32), f"in force: {text}", size=15, fill=colour)
    if event >= 0:
        effect = {C.INFLATION: "milk, flour, wine +$1 everywhere",
                  C.STRIKE: "the four factories are closed",
                  C.FRUIT_FLY: "no apple or grape harvest"}.get(event, "")
        canvas.text((left + 10, top + 54), effect, size=13, fill=INK)
    canvas.text((left + 10, top + 80), "permanent events seen:", size=14, fill=INK)
    for k in range(C.PERMANENTS_TO_END):
        x = left + 176 + 24 * k
        filled = k < state.perms_seen
        canvas.circle((x, top + 88), 8, fill="#b8860b" if filled else "#fbf8f1",
                      outline="#6b5a1e")
    if state.end_triggered:
        end = "the game ended" if state.terminal else "this is the last round"
        canvas.text((left + 10, top + 104), f"the third came: {end}", size=13, fill="#8b0000")
    a = sum(1 for card in state.pile if not C.IS_DECK_B[card])
    b = len(state.pile) - a
    backs = "".join("B" if C.IS_DECK_B[card] else "A" for card in state.pile[::-1][:4])
    canvas.text((left + 10, top + 124), f"market pile: {len(state.pile)} cards ({a} A, {b} B)",
                size=14, fill=INK)
    canvas.text((left + 10, top + 142), f"top card backs: {backs or '-'}", size=13, fill=SOFT)


# --- markets -----------------------------------------------------------------------------------

def card_lines(card_id: int, inflation: bool) -> tuple[str, str]:
    """A market card's two lines of text (what it takes, and what it pays), shared with the web
    board."""
    card = C.MARKET_CARDS[card_id]
    if card.kind == "simple":
        price = C.card_unit_price(card, card.good, inflation)
        return f"{C.GOODS[card.good]}", f"${price} each, max {card.limit}"
    if card.kind == "pack":
        parts = " + ".join(f"{n} {C.GOODS[g]}" for g, n in enumerate(card.contents) if n)
        return parts, f"${C.pack_payout(card, inflation)} the bundle"
    return "generic: anything", f"${C.GENERIC_RESOURCE_PRICE} a resource, " \
        f"${C.GENERIC_ANIMAL_PRICE} an animal"


def _market_card(canvas: Canvas, x: float, y: float, card_id: int, label: str,
                 inflation: bool, selling: bool) -> None:
    w, h = 128, 74
    if card_id < 0:
        canvas.rect((x, y, x + w, y + h), fill="#e4ddcd", outline="#b0a890")
        canvas.text((x + w / 2, y + h / 2), f"{label}: empty", size=12, fill=SOFT, anchor="mm")
        return
    card = C.MARKET_CARDS[card_id]
    fill = {"simple": "#e8f1e0", "pack": "#e3ecf6", "generic": "#f3e8f3"}[card.kind]
    canvas.rect((x, y, x + w, y + h), fill=fill, outline="#d62728" if selling else "#5f7f55",
                width=4 if selling else 2)
    canvas.text((x + 6, y + 4), f"{label}  {card.code}", size=12, fill=SOFT)
    first, second = card_lines(card_id, inflation)
    lines = _wrap(first, 19)
    for k, line in enumerate(lines[:2]):
        canvas.text((x + 6, y + 22 + 16 * k), line, size=13, fill=INK)
    for k, line in enumerate(_wrap(second, 19)[:2]):
        canvas.text((x + 6, y + 22 + 16 * (len(lines[:2]) + k)), line, size=12, fill="#8b0000")


def _markets(canvas: Canvas, state: MiTierraState, left: int, top: int) -> None:
    inflation = state.event_in_force() == C.INFLATION
    selling = state.sale_slot if state.decision == Decision.MARKET_SALE else -1
    canvas.text((left, top - 4), "Established markets E0-E3 (card code; sold cards are "
                "replaced)", size=15, fill=INK)
    for m, card in enumerate(state.est):
        col, row = m % 4, m // 4
        _market_card(canvas, left + col * 134, top + 20 + row * 80, card, f"E{m}", inflation,
                     selling == m)
    y = top + 20 + 80 * ((len(state.est) + 3) // 4) + 14
    canvas.text((left, y), "Closing markets C0-C3 (still sold to this round, then discarded)",
                size=15, fill=INK)
    for m, card in enumerate(state.closing):
        _market_card(canvas, left + m * 134, y + 24, card, f"C{m}", inflation, selling == 4 + m)
    if inflation:
        canvas.text((left, y + 110), "Inflation: the prices shown include +$1 on milk, flour "
                    "and wine", size=13, fill="#8b0000")


def _context(canvas: Canvas, state: MiTierraState, left: int, top: int) -> None:
    """What is being decided now, in a few public facts, and a legend of the farm tiles."""
    canvas.rect((left, top, WIDTH - 14, top + 182), fill="#fffaf0", outline="#8c8472")
    canvas.text((left + 7, top + 5), "Now", size=15, fill=INK)
    lines = []
    if state.terminal:
        scores = state.scores()
        lines.append("final scores: " + ", ".join(f"player_{p} {scores[p]}"
                                                  for p in range(state.num_players)))
        lines.append("(cake $49, cloth $47, leftover goods 3 for $1)")
    elif state.chance_pending:
        lines.append("a die is about to be rolled")
    else:
        p = state.current_player
        d = Decision(state.decision)
        lines.append(f"player_{p}: {decision_text(state)}")
        if state.die_face and Stage.FOREST <= state.stage <= Stage.HENHOUSE:
            lines.append(f"die rolled: {state.die_face}")
        if d == Decision.MARKET_SALE and state.sale_slot >= 0:
            slot = state.sale_slot
            name = f"E{slot}" if slot < 4 else f"C{slot - 4}"
            lines.append(f"selling to market {name}")
        if d == Decision.BLACK_MARKET:
            lines.append(f"bought {state.bm_buys} of {C.BM_BUYS_PER_WORKER} this visit")
        if d == Decision.PLACE:
            lines.append(f"workers still to place: {state.hut[p]}")
    lines.append(f"cards sold or discarded so far: {len(state.discard)}")
    for k, line in enumerate(lines):
        canvas.text((left + 12, top + 32 + 21 * k), line, size=14, fill=INK)
    y = top + 150
    x = left + 12
    canvas.text((x, y - 34), "farm cells are numbered 0-11 as the CELL_k actions name them",
                size=12, fill=SOFT)
    canvas.text((x, y), "farm:", size=13, fill=INK, anchor="lm")
    x += 40
    for tile in range(1, len(TILE_TEXT)):
        canvas.rect((x, y - 10, x + 58, y + 10), fill=TILE_COLOURS[tile], outline="#6b6b6b")
        canvas.text((x + 29, y), TILE_TEXT[tile], size=12, fill=_text_colour(TILE_COLOURS[tile]),
                    anchor="mm")
        x += 64


# --- players -----------------------------------------------------------------------------------

def _players(canvas: Canvas, state: MiTierraState, top: int) -> None:
    n = state.num_players
    width = (WIDTH - 28) // n
    scores = state.scores()
    position = {p: k + 1 for k, p in enumerate(state.order)}
    winners = state.winners() if state.terminal else []
    for p in range(n):
        x = 14 + p * width
        acting = p == state.current_player and not state.terminal and not state.chance_pending
        canvas.rect((x, top, x + width - 10, HEIGHT - 10), fill="#ffffff",
                    outline=PLAYER_COLOURS[p], width=6 if acting else 2)
        _worker(canvas, (x + 20, top + 20), p, radius=10)
        label = f"player_{p}" + ("  (to act)" if acting else "") + (
            "  winner" if p in winners else "")
        canvas.text((x + 36, top + 20), label, size=18, fill=INK, anchor="lm")
        canvas.text((x + width - 22, top + 20), f"score {scores[p]}", size=20, fill="#8b0000",
                    anchor="rm")
        hut = state.hut[p]
        canvas.text((x + 12, top + 44),
                    f"${state.money[p]}   turn {position[p]}   workers {state.owned[p]} "
                    f"(hut {hut})" + ("  passed" if state.retired[p] and
                                      state.stage == Stage.PLACEMENT else ""),
                    size=15, fill=INK)
        canvas.text((x + 12, top + 66), f"cake {state.cake[p]} (${C.CAKE_VALUE})   cloth "
                    f"{state.cloth[p]} (${C.CLOTH_VALUE})   goods {farm_items(state, p)}",
                    size=14, fill=INK)
        _goods(canvas, state, p, x + 12, top + 96, width - 30)
        owned = [C.DEV_CARDS[d] for d in range(C.NUM_DEV_CARDS) if state.devs[p][d]]
        chars = max(24, (width - 30) // 8)
        lines = _wrap("cards: " + (", ".join(f"{d.numeral} {d.name}" for d in owned) or "-"),
                      chars)
        if len(lines) > 2:  # many cards: their numerals only
            lines = _wrap("cards: " + " ".join(d.numeral for d in owned), chars)
        for k, line in enumerate(lines[:2]):
            canvas.text((x + 12, top + 146 + 18 * k), line, size=13, fill=INK)
        _farm(canvas, state, p, x + 12, top + 186, min(width - 34, 380))


def _goods(canvas: Canvas, state: MiTierraState, p: int, x0: float, y: float,
           width: float) -> None:
    x = x0
    held = [(g, n) for g, n in enumerate(state.goods[p]) if n]
    if not held:
        canvas.text((x, y), "no goods, no animals", size=13, fill=SOFT, anchor="lm")
    for g, n in held:
        if x > x0 + width - 50:
            x, y = x0, y + 24
        x = _chip(canvas, x, y, g, n, size=14)
    return


def _farm(canvas: Canvas, state: MiTierraState, p: int, x0: float, y0: float,
          width: float) -> None:
    """The 3x4 farm: fields and barnyards (with their animals), farm workers, the henhouse."""
    cell_w = min(72, (width - 78) / C.FARM_COLS)
    cell_h = 40 if cell_w > 60 else 38
    for c in range(C.FARM_CELLS):
        r, k = divmod(c, C.FARM_COLS)
        x = x0 + k * cell_w
        y = y0 + r * cell_h
        tile = state.tiles[p][c]
        canvas.rect((x, y, x + cell_w - 3, y + cell_h - 3), fill=TILE_COLOURS[tile],
                    outline="#6b6b6b")
        text = TILE_TEXT[tile]
        if tile in C.BARN_CAPACITY:
            count = state.barn_count[p][c]
            kind = state.barn_kind[p][c]
            text = f"{count} {'cow' if kind == C.COW else 'sheep'}" if count else \
                f"barn {C.BARN_CAPACITY[tile]}"
        if text:
            canvas.text((x + (cell_w - 3) / 2, y + 11), text, size=12,
                        fill=_text_colour(TILE_COLOURS[tile]), anchor="mm")
        if tile in C.BARN_CAPACITY and state.barn_count[p][c]:
            canvas.text((x + (cell_w - 3) / 2, y + 25), f"of {C.BARN_CAPACITY[tile]}", size=11,
                        fill="white", anchor="mm")
        if state.farm_workers[p][c]:
            _worker(canvas, (x + (cell_w - 3) / 2, y + 25), p, radius=7)
        number = SOFT if tile == C.EMPTY else _text_colour(TILE_COLOURS[tile])
        canvas.text((x + 3, y + cell_h - 5), str(c), size=11, fill=number, anchor="ld")
    hx = x0 + C.FARM_COLS * cell_w + 6
    canvas.rect((hx, y0, hx + 66, y0 + 3 * cell_h - 3), fill="#fbeed3", outline="#6b6b6b")
    canvas.text((hx + 33, y0 + 14), "henhouse", size=12, fill=INK, anchor="mm")
    canvas.text((hx + 33, y0 + 48), f"{state.goods[p][C.HEN]}", size=22, fill="#b5651d",
                anchor="mm")
    canvas.text((hx + 33, y0 + 76), f"hens of {C.HENHOUSE_CAPACITY}", size=11, fill=SOFT,
                anchor="mm")
