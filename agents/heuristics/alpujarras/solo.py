"""The Alpujarras heuristic's value of a solo position (`solo_value`).

**The plan of the solo game** (`solo_value`): a win needs all ten duties (a new fruit kind
delivered at every market and the end, a zakat paid at every harvest and the end) and more
dirhems than Zara, so the value is the log of the chance of winning. A duty still open on the
space the mule stands on must be met with what is held now; after it the next three duties are
checked in order against the holdings, each taking what it uses (the cheapest token of a kind
not yet delivered whose farmland holds a farmer; the zakat card closest to payable, after the
harvest's fruit): the items still missing in all, against the stops left to gather them (the
free standard spaces before the next duty, the double turns, about one stop per two spaces
later), give the chance to meet each. A noria swaps a spare fruit into a missing one; a kind
still to deliver with no token left dooms the game; a lone ready token may be taken by Zara.
The margin over Zara (her markets and harvests still to come against the tokens planned) adds
the chance to out-earn her, judged more loosely the further the end. Majorities over Zara's
farmers (fruit for the player, dirhems denied to her), norias, fruit and double turns add a
little. Zara's moves after the turn decide the stops before the next duty, so each solo turn is
judged over several of her futures (fresh die rolls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.effects import harvest_farmlands, score, zara_score
from huerta.envs.alpujarras.goals import ZAKAT_FRUIT, zakat_side
from huerta.envs.alpujarras.state import AlpujarrasState

from .track import facts_of, on_end_track

_F = range(C.NUM_FARMLANDS)
_T = range(C.NUM_FRUITS)

def _zakat_missing(state: AlpujarrasState, card: int, fruit: list[int], norias: int,
                   dirhems: int, farmers: int) -> int:
    """Items zakat card `card` asks for that the holdings lack (0 = payable)."""
    side = zakat_side(state, card)
    wanted = ZAKAT_FRUIT[card, 1 if state.zakat_star[card] else 0]
    missing = 0
    for t in _T:
        if wanted[t] > fruit[t]:
            missing += wanted[t] - fruit[t]
    missing += max(0, side.norias - norias) + max(0, side.dirhems - dirhems)
    if side.farmer and not farmers:
        missing += 1
    return missing


def _pay(fruit: list[int], state: AlpujarrasState, card: int) -> None:
    """Take the fruit zakat card `card` asks for out of `fruit` (a planning copy)."""
    wanted = ZAKAT_FRUIT[card, 1 if state.zakat_star[card] else 0]
    for t in _T:
        fruit[t] = max(0, fruit[t] - wanted[t])


def _best_zakat(state: AlpujarrasState, fruit: list[int], norias: int, dirhems: int,
                farmers: int, unpaid: list[int]) -> tuple[int, int]:
    """(missing items, card) of the unpaid zakat card closest to payable (cheaper cards first on
    a tie)."""
    best, best_card, cost = 99, -1, 99
    for card in unpaid:
        missing = _zakat_missing(state, card, fruit, norias, dirhems, farmers)
        side = zakat_side(state, card)
        size = len(side.fruits) + side.norias + side.dirhems + int(side.farmer)
        if (missing, size) < (best, cost):
            best, best_card, cost = missing, card, size
    return best, best_card


def _best_delivery(state: AlpujarrasState, fruit: list[int], farmers: list[int],
                   kinds_done: set[int]) -> tuple[int, int, int, int]:
    """(missing items, kind, value, town) of the new-kind token closest to deliverable: fruit
    lacking plus a farmer for its farmland; on a tie the token paying more."""
    best, best_kind, best_value, best_town = 99, -1, 0, -1
    for town, tokens in enumerate(state.towns):
        farmer = 0 if farmers[town] else 1
        for tok in tokens:
            kind, value = tok // 10, tok % 10
            if kind in kinds_done:
                continue
            missing = max(0, value - fruit[kind]) + farmer
            if missing < best or (missing == best and value > best_value):
                best, best_kind, best_value, best_town = missing, kind, value, town
    return best, best_kind, best_value, best_town


def _readiness(missing: float, stops: float, hit: float = 0.65) -> float:
    """The chance to gather `missing` items in about `stops` stops when a stop yields a wanted
    item with probability `hit`: a smooth normal approximation of the binomial tail."""
    if missing <= 0:
        return 1.0
    mean = hit * stops
    sd = math.sqrt(stops * hit * (1.0 - hit) + 0.3)
    z = (mean - missing + 0.5) / sd
    return max(0.01, 1.0 / (1.0 + math.exp(-1.7 * z)))


@dataclass(frozen=True)
class SoloWeights:
    """The solo value function's constants (see the module docstring)."""

    scale: float = 30.0  # value per unit of log-probability of winning
    window: int = 3  # duties judged by the holdings; later ones count `far_duty` each
    far_duty: float = 0.6
    risk: float = 0.85  # chance a lone ready token is still there (Zara takes the lowest ones)
    stop_rate: float = 0.45  # stops per standard space between later duties
    spread: float = 2.0  # dirhems of projected margin per unit of the win chance's logit
    double_turn: float = 0.8  # per double turn kept, beyond the stops it buys
    harvest_lead: float = 0.5  # per farmland led over Zara, per harvest ahead
    noria: float = 0.3
    fruit: float = 0.2
    hit: float = 0.65  # chance that a stop yields a wanted item (`_readiness`)


SOLO = SoloWeights()


def _first_stops(state: AlpujarrasState, special: int) -> tuple[float, int]:
    """(stops without double turns, standard spaces a double turn could stop on) before the next
    market or harvest space at `special` (-1: the end track)."""
    track = state.track
    me, die = state.pos[0], state.pos[state.die]
    die_done = on_end_track(state, state.die)
    end = special if special >= 0 else len(track)
    ahead = behind = 0
    for s in range(me + 1, end):
        if track[s].kind != C.STANDARD or s == die:
            continue
        if die_done or s > die:
            ahead += 1
        else:
            behind += 1
    free = 0.0 if ahead == 0 else 1.0 + 0.35 * (ahead - 1)
    return free, behind + ahead


def solo_value(state: AlpujarrasState, w: SoloWeights = SOLO) -> float:
    """How good `state` is for the player of the solo game (module docstring): the log of the
    chance that every duty still ahead is met and Zara is out-earned, plus small resource terms."""
    kinds_done = {t // 10 for t in state.tokens[0]}
    paid = sum(state.zakat_paid)
    margin = score(state, 0) - zara_score(state)
    if state.terminal:
        if not state.lost:
            return 1000.0 + margin
        return -1000.0 + 10.0 * (paid + len(kinds_done)) + 0.1 * margin
    facts = facts_of(state)
    track = state.track
    pos = state.pos[0]
    i = pos + 1
    logp = 0.0
    # every kind still to deliver needs a token left on the board
    lowest = [9] * C.NUM_FRUITS
    left = [0] * C.NUM_FRUITS
    for tokens in state.towns:
        for tok in tokens:
            left[tok // 10] += 1
            lowest[tok // 10] = min(lowest[tok // 10], tok % 10)
    for kind in _T:
        if kind not in kinds_done and left[kind] == 0:
            logp += math.log(0.02)
    # the duties ahead, in order; the end track asks a delivery and a zakat
    fruit = list(state.fruit[0])
    farmers = list(state.farmers[0])
    zara = state.zara_farmers
    leads = [f for f, pays in enumerate(harvest_farmlands(state, 0)) if pays]
    norias, dirhems = state.norias[0], state.dirhems[0]
    unpaid = [c for c in range(C.NUM_ZAKAT_CARDS) if not state.zakat_paid[c]]
    kinds = set(kinds_done)
    duties = list(facts.specials[i])
    if not on_end_track(state, 0):
        duties.append((facts.standards[i] - sum(b for b, _ in duties), C.END))
    next_special = next((s for s in range(i, len(track))
                         if track[s].kind in (C.MARKET, C.HARVEST)), -1)
    free, reachable = _first_stops(state, next_special)
    doubles = state.double_turns
    used = min(doubles, max(0, reachable - int(free)))
    stops = free + used
    planned = 0
    missing_total = 0
    logp += math.log(w.far_duty) * max(0, len(duties) - w.window)
    # (standard spaces before it, delivery, zakat, harvest first, met now): the duty of the visit
    # in progress (a delivery or zakat still open here) first, to be met with what is held now
    plan = [(before, kind in (C.MARKET, C.END), kind in (C.HARVEST, C.END), kind == C.HARVEST,
             False) for before, kind in duties[:w.window]]
    here = track.kinds[pos]
    deliver_now = state.market_left and here in (C.K_MARKET, C.K_END)
    zakat_now = state.card_left and here in (C.K_HARVEST, C.K_END)
    if deliver_now or zakat_now:
        plan.insert(0, (0, deliver_now, zakat_now, state.harvest_left, True))
    k = -1  # future duties seen
    for before, deliver, zakat, harvest, now in plan:
        if not now:
            k += 1
            if k == 1:
                stops += doubles - used
            if k:
                stops += w.stop_rate * before
        missing = 0
        risk = 1.0
        if deliver:
            m, best_kind, best_value, town = _best_delivery(state, fruit, farmers, kinds)
            if best_kind < 0:
                missing += 6
            else:
                fruit[best_kind] = max(0, fruit[best_kind] - best_value)
                farmers[town] = max(0, farmers[town] - 1)
                kinds.add(best_kind)
                planned += best_value - 1
                missing += m
                if k == 0 and not now and m == 0 and best_value == lowest[best_kind]:
                    risk = w.risk
        if zakat:
            if harvest:
                for f in leads:
                    if fruit[C.PRIMARY[f]] < C.FRUIT_CAP:
                        fruit[C.PRIMARY[f]] += 1
            m, card = _best_zakat(state, fruit, norias, dirhems, sum(farmers), unpaid)
            if card >= 0:
                _pay(fruit, state, card)
                side = zakat_side(state, card)
                norias = max(0, norias - side.norias)
                dirhems = max(0, dirhems - side.dirhems)
                unpaid.remove(card)
                missing += m
        cover = min(norias, missing, sum(fruit))  # a noria swaps a spare fruit into a missing one
        norias -= cover
        missing_total += missing - cover
        logp += math.log(_readiness(missing_total, 0.0 if now else stops, w.hit) * risk)
    # out-earning Zara: her markets and harvests still to come against the tokens planned
    die = state.pos[state.die]
    zara_markets = zara_harvests = 0
    if not on_end_track(state, state.die):
        zara_markets, zara_harvests = facts.markets[die + 1] + 1, facts.harvests[die + 1]
    zara_leads = sum(1 for f in _F if zara[f] > state.farmers[0][f])
    later = max(0, C.NUM_FRUITS - len(kinds))  # deliveries beyond the window
    projected = margin + planned + 1.5 * later + sum(fruit) / 3.0 + 0.15 * facts.standards[i] \
        - 1.5 * zara_markets - zara_leads * zara_harvests
    spread = w.spread + 0.25 * facts.standards[i]  # the margin is uncertain early on
    logp += -math.log1p(math.exp(-max(-30.0, min(30.0, projected / spread))))
    value = w.scale * logp
    value += w.harvest_lead * len(leads) * facts.harvests[i]
    value += w.noria * state.norias[0] + w.double_turn * doubles + w.fruit * sum(state.fruit[0])
    return value

