"""An Alpujarras strategy a decent human would recognise, as a one-turn lookahead.

The sensible complete turns open to the player are played out on a copy of the game
(`view.determinize`: the crop bag's order and the die rolls resampled from public facts) and the
position after each is scored by a value function; the agent plays the best turn and keeps its
plan for the turn's later decisions (keyed by player and game step, so that one agent object can
play every seat, as MCTS rollouts do). Turns that irrigate a field are planned again once the
crop token drawn is known. One agent serves every player count: `view.num_players == 1` is the
solo game against Zara.

**The plan of the multiplayer game** (`position_value`, in dirhems: the score so far plus what
the holdings should still earn):

- *score*: dirhems plus the dirhem sides of the delivery tokens earned;
- *deliveries within reach*: the market actions still open (the markets ahead plus the end track,
  five at most) are matched greedily with the tokens in the towns; a token counts by what it
  pays (dirhem side plus the town's next award) times the share of its fruit held (to a power,
  so nearly complete sets count most), less without a farmer in its farmland yet. A planned
  delivery takes its farmer to the town, so it no longer counts for the harvests, and a token
  within reach counts only 80%: fruit is kept for deliveries, and deliveries are made;
- *fruit left over* is worth what the end track pays for it;
- *majorities before the harvests*: each farmland where the player leads (or nearly leads; ties
  count with 3-4 players) is worth its primary fruit at every harvest space still ahead;
- *goals*: a goal card not yet completed is worth most of its dirhems when met now, and part of
  them by progress, for as many goals as there are harvest visits left (plus the end track);
- *norias* are worth spending (five buy a farmer, a fruit and two dirhems), nothing at the end;
- *tempo*: every standard space still ahead of the mule is a possible future stop, so the mule
  steps forward no further than pays (the rearmost mule moves next).

On the end track nothing more can be earned and the value is the final score; a finished game is
scored by its result.

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

**The search** takes human shortcuts: the harvest comes first on a harvest space; free icons
(place, irrigate, norias, fruit) are always resolved; a gained fruit is one of the two kinds
needed most (a swap gives back one of the two needed least; the need is measured with the norias
set aside, since the value counts on them for exactly such swaps); the mule considers the six
nearest free standard spaces, the next two market or harvest spaces and the furthest free end
space; icons resolved in another order reach the same position once (transpositions), and in the
multiplayer game orders that reach no new position are not followed at all: the fruit icon is
taken after the other free icons, a place icon before the move icon, and a farmer placed right
after an irrigation only in a farmland the channel touches (the solo search keeps every order).
Norias are spent after the icons, or before them when the icons would overflow the cap; a
placement spends as many norias as it can; a turn spends at most twice on a standard space and
three times elsewhere, with one farmer move and two fruit swaps (swaps only where a delivery, goal
or zakat can use them). Multiplayer turns are searched without noria spends first, then the
spends are added to the three best turns; a decision expands at most `MAX_NODES` positions.

**Speed** (the heuristic is a self-play training opponent): a multiplayer turn is valued just
before its END_TURN, which elsewhere than on the end track changes nothing the value reads; what
the turn cannot change (`TurnFacts`: the track's facts, the other seats' farmers, the towns'
tokens and the goals that read tokens until the player delivers) is worked out once per decision,
and the deliveries, fruit and majorities part of the value once per distinct mule position, fruit
and farmers. A multiplayer decision typically takes 3-5 ms of one core in self-play (2-4
players) and 10-20 ms against random seats (2-4 players; their games leave the heuristic more
farmers and channels to choose from), a solo one about 35 ms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import (
    CHANNEL0,
    DELIVER0,
    DO_HARVEST,
    DO_MOVE,
    DO_PLACE,
    DO_TAKE_NORIAS,
    END_TURN,
    FARMLAND0,
    FRUIT0,
    SPEND0,
    Phase,
)
from huerta.envs.alpujarras.effects import harvest_farmlands, score, ties_count, zara_score
from huerta.envs.alpujarras.goals import GOAL_CHECKS, ZAKAT_FRUIT, zakat_side
from huerta.envs.alpujarras.state import AlpujarrasState
from huerta.envs.core.view import PlayerView

from ..base import TurnPlanner

MAX_NODES = 5000  # states expanded per decision, a bound for pathological positions
NEAR_TARGETS = 6  # nearest free standard spaces the mule considers
SPECIAL_TARGETS = 2  # next market/harvest spaces the mule considers
FRUIT_CHOICES = 2  # fruit kinds considered for each gain or swap
SPEND_BEAM = 3  # multiplayer: best turns that noria spends are added to
ROLL_SAMPLES = 6  # solo: Zara's futures each turn is judged over
MAX_SPENDS = 2  # noria spends per turn on a standard space
MAX_SPENDS_SPECIAL = 3  # on a market or harvest space or the end track
MAX_SWAPS = 2  # fruit swaps per turn (only where a delivery, goal or zakat can use them)

_P_MOVE = int(Phase.MOVE)
_P_ACTION = int(Phase.ACTION)
_P_PLACE_FARMLAND = int(Phase.PLACE_FARMLAND)
_P_GAIN_FRUIT = int(Phase.GAIN_FRUIT)
_P_SWAP_RETURN = int(Phase.SWAP_RETURN)
_P_SWAP_GAIN = int(Phase.SWAP_GAIN)
_SPEND_SWAP = SPEND0
_SPEND_MOVE = SPEND0 + 1
_F = range(C.NUM_FARMLANDS)
_T = range(C.NUM_FRUITS)


@dataclass(frozen=True)
class Weights:
    """The value function's constants, in dirhems (see the module docstring)."""

    tempo: float = 1.2  # per standard space still ahead of the mule
    delivery: float = 0.8  # share of a token within reach that counts
    delivery_power: float = 1.6  # readiness = (fruit held / fruit asked) ** power
    no_farmer: float = 0.6  # factor for a token whose farmland holds no own farmer yet
    sale: float = 0.25  # per fruit left over (the end track's ratio)
    harvest_fruit: float = 0.6  # per primary fruit a harvest is expected to pay
    goal_met: float = 0.85  # share of a goal met now
    goal_progress: float = 0.45  # share of a goal by progress squared
    noria: float = 0.45  # per noria while the player still acts
    empty_supply: float = 1.0  # penalty when no farmer is left in supply


DEFAULT = Weights()


# --- facts of the track ----------------------------------------------------------------------


@dataclass(frozen=True)
class TrackFacts:
    """Per mule position (index pos + 1, pos = -1 for the start): what lies ahead."""

    standards: tuple[int, ...]  # standard spaces ahead
    markets: tuple[int, ...]  # market spaces ahead
    harvests: tuple[int, ...]  # harvest spaces ahead
    specials: tuple[tuple[tuple[int, str], ...], ...]  # (standard spaces before it, kind)


@lru_cache(maxsize=256)
def track_facts(layout: tuple[int, ...], four: bool) -> TrackFacts:
    """What lies ahead of every position on the track of `layout`."""
    track = C.build_track(layout, four)
    standards, markets, harvests, specials = [], [], [], []
    for pos in range(-1, len(track)):
        ahead = track[pos + 1:]
        standards.append(sum(1 for s in ahead if s.kind == C.STANDARD))
        markets.append(sum(1 for s in ahead if s.kind == C.MARKET))
        harvests.append(sum(1 for s in ahead if s.kind == C.HARVEST))
        seq, before = [], 0
        for s in ahead:
            if s.kind == C.STANDARD:
                before += 1
            elif s.kind in (C.MARKET, C.HARVEST):
                seq.append((before, s.kind))
                before = 0
        specials.append(tuple(seq))
    return TrackFacts(tuple(standards), tuple(markets), tuple(harvests), tuple(specials))


def _facts(state: AlpujarrasState) -> TrackFacts:
    return track_facts(tuple(state.layout), state.num_players == 4)


def _on_end(state: AlpujarrasState, piece: int) -> bool:
    s = state.pos[piece]
    return s >= 0 and state.track[s].kind == C.END


# --- the multiplayer value -------------------------------------------------------------------


def town_tokens(state: AlpujarrasState) -> list[tuple[int, int, int, int]]:
    """(kind, fruit asked, town, gain) of every delivery token in the towns, the gain being its
    dirhem side plus the town's next award."""
    out = []
    awards = state.awards
    for town, tokens in enumerate(state.towns):
        award = awards[town]
        award = 0 if award == C.AWARD_GONE else \
            C.AWARDS[state.award_ids[town]][0 if award == C.AWARD_GREEN else 1]
        for tok in tokens:
            value = tok % 10
            out.append((tok // 10, value, town, value - 1 + award))
    return out


@lru_cache(maxsize=8)
def _readiness_table(power: float) -> tuple[tuple[float, ...], ...]:
    """[fruit held][fruit asked]: (held / asked) ** power, 1 once enough is held."""
    return tuple(
        tuple(1.0 if have >= asked else (have / asked) ** power for asked in range(10))
        for have in range(C.FRUIT_CAP + 1)
    )


def delivery_potential(state: AlpujarrasState, me: int, fruit: list[int], deliveries: int,
                       w: Weights = DEFAULT, kinds_done: set[int] | None = None,
                       farmers: list[int] | None = None,
                       tokens: list[tuple[int, int, int, int]] | None = None) -> float:
    """The tokens within reach, matched greedily with the market actions left; consumes the fruit
    it plans for from `fruit` (a copy). `kinds_done` (solo) excludes kinds already delivered;
    `tokens` is `town_tokens(state)` where the caller has it.

    A token counts by what it pays (dirhem side plus the town's next award) times the share of
    its fruit held to the power `delivery_power`, times `no_farmer` without a farmer in its
    farmland; each choice uses up the fruit and a farmer of that farmland. A delivery whose
    fruit is all held also takes its farmer out of `farmers` (a copy of the farmland farmers, if
    given): that farmer will leave for the town and no longer count at harvests."""
    if deliveries <= 0:
        return 0.0
    planned = farmers
    farmers = list(state.farmers[me])
    ready = _readiness_table(w.delivery_power)
    no_farmer = w.no_farmer
    if tokens is None:
        tokens = town_tokens(state)
    options = []  # [value now, gain, town, kind, fruit asked]
    for kind, value, town, gain in tokens:
        have = fruit[kind]
        if not have or (kinds_done is not None and kind in kinds_done):
            continue
        options.append([gain * ready[have][value] * (1.0 if farmers[town] else no_farmer),
                        gain, town, kind, value])
    total = 0.0
    while deliveries and options:
        best = options[0]
        k = 0
        for j in range(1, len(options)):  # the first best, as max() picks
            if options[j][0] > best[0]:
                best = options[j]
                k = j
        if best[0] <= 0.0:
            break
        del options[k]
        total += best[0]
        deliveries -= 1
        _, _, town, kind, value = best
        if planned is not None and fruit[kind] >= value and planned[town] > 0:
            planned[town] -= 1
        fruit[kind] -= min(fruit[kind], value)
        farmers[town] -= 1
        for o in options:  # only the same kind and the same farmland change
            if o[3] == kind or o[2] == town:
                have = fruit[o[3]]
                if not have or (kinds_done is not None and o[3] == kind):
                    o[0] = 0.0
                    continue
                o[0] = o[1] * ready[have][o[4]] * (1.0 if farmers[o[2]] > 0 else no_farmer)
    return total


def goal_progress(state: AlpujarrasState, me: int) -> list[float]:
    """Per goal id (0-9), how far `me` is towards it, in [0, 1]."""
    return [_goal_progress(state, me, goal) for goal in range(C.NUM_GOALS)]


def _goal_status(state: AlpujarrasState, me: int, goal: int) -> tuple[bool, float]:
    """(met now, progress in [0, 1]) of goal `goal` for `me`, one goal at a time, so that the
    value reads only the goals still on open cards; whether it is met is the rules' own check."""
    return GOAL_CHECKS[goal](state, me), _goal_progress(state, me, goal)


def _goal_progress(state: AlpujarrasState, me: int, goal: int) -> float:
    """How far `me` is towards goal `goal`, in [0, 1] (1 where the requirement is met)."""
    if goal == 0:
        return max(state.fruit[me]) / 5.0
    if goal == 1:
        return sum(1 for x in state.fruit[me] if x) / 5.0
    if goal in (4, 5):
        farmers = state.farmers[me]
        if goal == 5:
            return min(max(farmers), 3) / 3.0
        two = sorted((min(x, 2) for x in farmers), reverse=True)
        return (two[0] + two[1]) / 4.0
    if goal in (8, 9):
        towns = state.town_farmers[me]
        if goal == 8:
            return min(sum(1 for x in towns if x >= 1), 4) / 4.0
        two = sorted((min(x, 2) for x in towns), reverse=True)
        return (two[0] + two[1]) / 4.0
    if goal in (2, 3):
        kinds = [0] * C.NUM_FRUITS
        for t in state.tokens[me]:
            kinds[t // 10] += 1
        if goal == 2:
            return max(kinds) / 3.0
        return min(sum(1 for k in kinds if k), 3) / 3.0
    values = [0] * 6
    for t in state.tokens[me]:
        values[t % 10] += 1
    if goal == 6:
        return sum(1 for v in C.TOKEN_VALUE_RANGE if values[v]) / 4.0
    return min(max(values[2], values[3]), 3) / 3.0


def _majority_chance(mine: int, other: int, ties_count: bool) -> float:
    """How likely a farmland pays `mine` at the coming harvests against the best `other`."""
    if mine == 0:
        return 0.0
    margin = mine - other
    if ties_count:
        return (0.05, 0.25, 0.7, 0.95)[max(-2, min(margin, 1)) + 2]
    return (0.0, 0.1, 0.3, 0.8, 0.95)[max(-2, min(margin, 2)) + 2]


class TurnFacts:
    """What `position_value` reads that seat `me`'s own turn cannot change, worked out once per
    decision instead of once per position: the track's facts, the most farmers any other seat
    has in each farmland (only the actor's farmers move in a turn), whether ties win harvests,
    each goal card's goal and reward, and while the actor has delivered nothing (only the
    actor's deliveries change the towns and the tokens and town farmers held) the tokens in the
    towns (`town_tokens`) and the goals that read tokens and town farmers. Positions of one turn
    often share their fruit and farmers, so the value's holdings part is kept per mule position,
    fruit and farmers as well (`holdings`, for the weights `weights`)."""

    __slots__ = ("cards", "delivered", "facts", "goals", "holdings", "others", "ties", "tokens",
                 "weights")

    def __init__(self, state: AlpujarrasState, me: int) -> None:
        self.facts = _facts(state)
        self.tokens = town_tokens(state)
        self.delivered = len(state.tokens[me])
        n = state.num_players
        self.others = [max(state.farmers[q][f] for q in range(n) if q != me) for f in _F]
        self.ties = ties_count(state)
        cards = []
        for card in range(C.NUM_GOAL_CARDS):
            goal = C.card_goal(card, state.goal_sides[card])
            cards.append((card, goal, C.GOAL_REWARDS[goal]))
        self.cards = tuple(cards)
        self.goals = {goal: _goal_status(state, me, goal) for _, goal, _ in cards
                      if goal in _DELIVERY_GOALS}
        self.holdings: dict[tuple, float] = {}
        self.weights: Weights | None = None


_DELIVERY_GOALS = frozenset((2, 3, 6, 7, 8, 9))  # goals read tokens and town farmers only


def position_value(state: AlpujarrasState, me: int, w: Weights = DEFAULT,
                   turn: TurnFacts | None = None) -> float:
    """How good `state` is for seat `me` of a multiplayer game, in dirhems (module docstring).
    `turn` (the `TurnFacts` of a position earlier in the same turn of `me`) saves working them
    out again."""
    if state.terminal:
        keys = state.ranking_keys()
        mine = keys[me]
        best_other = max(k for p, k in enumerate(keys) if p != me)
        margin = mine[0] - best_other[0]
        return (1000.0 if mine > best_other else -1000.0) + margin
    value = float(score(state, me))
    pos = state.pos[me]
    if state.track.is_end[pos]:
        return value + 0.01 * pos  # nothing more to earn; further along wins ties
    if turn is None:
        turn = TurnFacts(state, me)
    facts = turn.facts
    i = pos + 1
    harvests = facts.harvests[i]
    value += w.tempo * facts.standards[i]
    same_towns = len(state.tokens[me]) == turn.delivered
    if same_towns:
        if turn.weights is not w:
            turn.holdings.clear()
            turn.weights = w
        key = (i, *state.fruit[me], *state.farmers[me])
        holdings = turn.holdings.get(key)
    else:
        holdings = None
    if holdings is None:
        holdings = _holdings_value(state, me, w, turn, i, same_towns)
        if same_towns:
            turn.holdings[key] = holdings
    value += holdings
    # goals, one per harvest visit or end arrival
    done = state.goals_done[me]
    known = turn.goals if same_towns else {}
    worth = []
    for card, goal, reward in turn.cards:
        if done[card]:
            continue
        status = known.get(goal)
        met, progress = _goal_status(state, me, goal) if status is None else status
        if met:
            worth.append(reward * w.goal_met)
        else:
            worth.append(reward * w.goal_progress * progress ** 2)
    worth.sort(reverse=True)
    value += sum(worth[:harvests + 1])
    value += w.noria * state.norias[me]
    if state.supply[me] == 0:
        value -= w.empty_supply
    return value


def _holdings_value(state: AlpujarrasState, me: int, w: Weights, turn: TurnFacts, i: int,
                    same_towns: bool) -> float:
    """`position_value`'s part for the deliveries within reach, the fruit left over and the
    farmland majorities (mule position index `i`)."""
    facts = turn.facts
    harvests = facts.harvests[i]
    fruit = list(state.fruit[me])
    mine = list(state.farmers[me])  # less the farmers that planned deliveries take to town
    deliveries = min(C.MAX_MARKET_ACTIONS - state.markets_used[me], facts.markets[i] + 1)
    value = w.delivery * delivery_potential(state, me, fruit, deliveries, w, farmers=mine,
                                            tokens=turn.tokens if same_towns else None)
    value += w.sale * sum(fruit)
    # farmland majorities before the harvests
    if harvests:
        ties = turn.ties
        others = turn.others
        held = state.fruit[me]
        for f in _F:
            if not mine[f]:
                continue
            unit = w.harvest_fruit if held[C.PRIMARY[f]] < C.FRUIT_CAP else 0.3
            value += harvests * unit * _majority_chance(mine[f], others[f], ties)
    return value


# --- the solo value --------------------------------------------------------------------------


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
    die_done = _on_end(state, state.die)
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
    facts = _facts(state)
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
    if not _on_end(state, 0):
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
    if not _on_end(state, state.die):
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


# --- the search ------------------------------------------------------------------------------


def _move_targets(state: AlpujarrasState, legal: list[int]) -> list[int]:
    """The mule's candidate stops: the nearest free standard spaces, the next market and harvest
    spaces, and the furthest free end space."""
    track = state.track
    near, special, ends = [], [], []
    for s in legal:
        kind = track[s].kind
        if kind == C.STANDARD:
            if len(near) < NEAR_TARGETS:
                near.append(s)
        elif kind == C.END:
            ends.append(s)
        elif len(special) < SPECIAL_TARGETS:
            special.append(s)
    return near + special + ends[-1:]


def _key(s: AlpujarrasState, me: int, spends: int, swaps: int, moved: bool) -> tuple:
    """What distinguishes two ACTION-phase states of the same turn (transpositions)."""
    return (
        s.pos[me], s.double_turns, s.pend_place, s.pend_move, s.pend_irrigate, s.pend_norias,
        s.pend_fruit, s.market_left, s.card_left, s.harvest_left, s.p2_first_farmland,
        s.p2_first_fruit, spends, swaps, moved,
        tuple(s.farmers[me]), tuple(s.fruit[me]), s.norias[me], s.dirhems[me], s.supply[me],
        tuple(s.channels), tuple(s.tokens[me]), tuple(s.goals_done[me]), tuple(s.zakat_paid),
    )


def _action_choices(s: AlpujarrasState, legal: list[int], spends: int, swaps: int,
                    moved: bool, spend: bool) -> list[int]:
    """The ACTION-phase choices worth searching among the `legal` actions (see the module
    docstring); without `spend` norias are spent only where the icons would overflow the cap."""
    if DO_HARVEST in legal:
        return [DO_HARVEST]
    me = s.current_player
    icons = s.pend_place or s.pend_move or s.pend_irrigate or s.pend_norias or s.pend_fruit
    # free icons left: placing, norias, channels (and the fruit icon, taken after the others:
    # earlier it reaches no new position)
    others = fruit = False
    for a in legal:
        if a in (DO_PLACE, DO_TAKE_NORIAS) or CHANNEL0 <= a < DELIVER0:
            others = True
            break
        if FRUIT0 <= a < CHANNEL0:
            fruit = True
    free = others or fruit
    multi = not s.solo  # the solo search keeps every order (its documented figures)
    fruit_later = multi and others and s.pend_fruit
    special = s.track.kinds[s.pos[me]] != C.K_STANDARD  # markets, harvests, the end track
    out = []
    for a in legal:
        if a == END_TURN:
            if not free:
                out.append(a)
        elif a == DO_MOVE:
            if not multi or DO_PLACE not in legal:  # placing first can move the one placed
                out.append(a)
        elif a in (DO_PLACE, DO_TAKE_NORIAS) or a >= CHANNEL0:
            out.append(a)
        elif a >= FRUIT0:
            if not fruit_later:
                out.append(a)
        elif SPEND0 <= a < END_TURN:
            if spends >= (MAX_SPENDS_SPECIAL if special else MAX_SPENDS):
                continue
            norias = s.norias[me]
            overflow = norias + s.pend_norias > C.NORIA_CAP or (s.pend_irrigate and norias >= 4)
            if (icons or not spend) and not overflow:
                continue
            if a == _SPEND_SWAP:
                if not special or swaps >= MAX_SWAPS:
                    continue
            elif a == _SPEND_MOVE:
                if moved:
                    continue
            elif a > _SPEND_MOVE and a + 1 < END_TURN and a + 1 in legal:
                continue  # a placement spends as many norias as it can
            out.append(a)
    return out


# per channel: the farmlands whose farmers or fields it touches (its norias, its crop)
_TOUCHING = tuple(
    frozenset(ch.farmlands) | (frozenset() if ch.field is None else frozenset((ch.field[0],)))
    for ch in C.CHANNELS
)
_FRUIT_PHASES = (_P_GAIN_FRUIT, _P_SWAP_RETURN, _P_SWAP_GAIN)


def _spent(a: int, phase: int, spends: int, swaps: int, moved: bool) -> tuple[int, int, bool]:
    """The turn's (noria spends, swaps, farmer moved) after action `a` in `phase`."""
    if SPEND0 <= a < END_TURN and phase == _P_ACTION:
        return spends + 1, swaps + (a == _SPEND_SWAP), moved or a == _SPEND_MOVE
    return spends, swaps, moved


def _fruit_choices(s: AlpujarrasState, legal: list[int], need: list[float]) -> list[int]:
    """The two fruit kinds needed most (to gain) or least (to give back in a swap)."""
    kinds = [a - FRUIT0 for a in legal]
    kinds.sort(key=lambda t: need[t], reverse=s.phase != _P_SWAP_RETURN)
    return [FRUIT0 + t for t in kinds[:FRUIT_CHOICES if s.solo else 1]]


def fruit_need(state: AlpujarrasState, me: int, value) -> list[float]:
    """How much one more fruit of each kind is worth to `me` now, by `value(state, me)`. The
    norias are set aside while it is measured: the value counts on them to swap a missing fruit
    in, and the swap's gain is among the choices this ranking makes."""
    norias = state.norias[me]
    state.norias[me] = 0
    base = value(state, me)
    out = []
    for t in _T:
        if state.fruit[me][t] >= C.FRUIT_CAP:
            out.append(-1.0)
            continue
        state.fruit[me][t] += 1
        out.append(value(state, me) - base)
        state.fruit[me][t] -= 1
    state.norias[me] = norias
    return out


def complete_turns(
    state: AlpujarrasState, me: int, limit: int = MAX_NODES, before_end: bool = False,
    need: list[float] | None = None, spend: bool = True,
) -> Iterator[tuple[list[int], AlpujarrasState]]:
    """The sensible ways to finish `me`'s current turn: (actions, resulting state). A turn ends
    when the turn counter moves on or the game ends; the mule's move is the first action when the
    turn has not started yet. With `before_end` the states are given just before the final
    END_TURN (the last action), so that its chance (the die, Zara) can be sampled. With `need`
    (a value per fruit kind) a fruit gained is one of the two kinds needed most, and a fruit
    swapped away one of the two needed least. Without `spend` norias are spent only where the
    icons would overflow the cap (the agent adds spends to the best turns afterwards).

    The states yielded may be the caller's `state` itself for a turn with one way to finish;
    callers that keep `state` pass a copy."""
    start = state.turns
    nodes = 0
    seen: set[tuple] = set()
    stack: list[tuple[list[int], AlpujarrasState, int, int, bool]] = [([], state, 0, 0, False)]
    while stack:
        actions, s, spends, swaps, moved = stack.pop()
        while True:  # a node with one choice goes on to its child at once
            if s.terminal or s.turns != start:
                yield actions, s
                break
            nodes += 1
            if nodes > limit:
                return
            legal = s.legal_mask().nonzero()[0].tolist()
            phase = s.phase
            if phase == _P_MOVE:
                choices = _move_targets(s, legal)
            elif phase == _P_ACTION:
                key = _key(s, me, spends, swaps, moved)
                if key in seen:
                    break
                seen.add(key)
                choices = _action_choices(s, legal, spends, swaps, moved, spend)
            elif phase in _FRUIT_PHASES and need is not None:
                choices = _fruit_choices(s, legal, need)
            elif phase == _P_PLACE_FARMLAND and len(actions) > 1 and actions[-1] == DO_PLACE \
                    and CHANNEL0 <= actions[-2] < DELIVER0 and not s.solo:
                # a placement right after an irrigation reaches a new position only where the
                # channel touches the farmland (placing first reaches the others)
                touching = _TOUCHING[actions[-2] - CHANNEL0]
                choices = [a for a in legal if a - FARMLAND0 in touching]
            else:
                choices = legal
            last = len(choices) - 1
            if last == 0 and not (before_end and phase == _P_ACTION and choices[0] == END_TURN):
                a = choices[0]
                s.apply(a)
                actions = [*actions, a]
                spends, swaps, moved = _spent(a, phase, spends, swaps, moved)
                continue
            for k, a in enumerate(reversed(choices)):
                if before_end and a == END_TURN and phase == _P_ACTION:
                    yield [*actions, a], s
                    continue
                child = s if k == last else s.clone()  # the parent is not needed after its children
                child.apply(a)
                stack.append(([*actions, a], child, *_spent(a, phase, spends, swaps, moved)))
            break


def spend_turns(
    state: AlpujarrasState, actions: list[int], me: int, need: list[float],
) -> Iterator[tuple[list[int], AlpujarrasState]]:
    """The turns that add optional noria spends to `actions` (a turn of `me` from `state`
    ended by END_TURN, where `me` still holds norias in the action phase), as `complete_turns`
    gives them (the state before the final END_TURN); none for another turn. The multiplayer
    searches add these to their best turns without spends."""
    if actions[-1] != END_TURN:
        return
    pre = state.clone()
    for a in actions[:-1]:
        pre.apply(a)
    if pre.phase != _P_ACTION or not pre.norias[me]:
        return
    for more, result in complete_turns(pre, me, before_end=True, need=need,
                                       limit=MAX_NODES // SPEND_BEAM):
        yield actions[:-1] + more, result


class AlpujarrasHeuristic(TurnPlanner):
    """Plays the best complete turn by `position_value` (solo: `solo_value`); ties go to the
    agent's generator. Serves every player count, the solo game included."""

    name = "heuristic"
    title = "the Alpujarras heuristic"
    game = "alpujarras"

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT,
                 solo_weights: SoloWeights = SOLO, **options) -> None:
        super().__init__(seed, **options)
        self.weights = weights
        self.solo_weights = solo_weights
        self.first_values: dict[int, float] = {}  # last decision: best value per first action

    def _roll_samples(self, state: AlpujarrasState) -> list[list[int]]:
        """Die rolls to come, resampled `ROLL_SAMPLES` times, for the solo game: Zara's moves
        decide the stops before the next duty, so a turn is judged over several of her
        futures. Empty for multiplayer games (the 2-player die only blocks spaces)."""
        if not state.solo or not state.rolls:
            return []
        size = len(state.rolls)
        return [self.rng.integers(1, C.DIE_SIDES + 1, size=size).tolist()
                for _ in range(ROLL_SAMPLES)]

    def value(self, state: AlpujarrasState, me: int) -> float:
        """The value this agent gives `state` from seat `me`."""
        if state.solo:
            return solo_value(state, self.solo_weights)
        return position_value(state, me, self.weights)

    def _judge(self, actions: list[int], result: AlpujarrasState, me: int,
               samples: list[list[int]], value) -> float:
        """The value of a finished turn by `value(state, me)`. A turn given before its END_TURN
        is ended under every roll sample and the values averaged (solo); a multiplayer turn is
        ended only where the END_TURN changes what the value reads (the end track's sale and
        the game's end), since elsewhere it only hands the turn on and moves the die."""
        if actions[-1] == END_TURN and not result.terminal and result.phase == _P_ACTION:
            if samples:
                total = 0.0
                for rolls in samples:
                    after = result.clone()
                    after.rolls = list(rolls)
                    after.apply(END_TURN)
                    total += value(after, me)
                v = total / len(samples)
            elif result.solo or result.harvest_left or result.track.is_end[result.pos[me]]:
                after = result.clone()
                after.apply(END_TURN)
                v = value(after, me)
            else:
                v = value(result, me)
        else:
            v = value(result, me)
        return v + self.rng.random() * 1e-6  # random tie-break

    def best_turn(self, state: AlpujarrasState, me: int) -> tuple[float, list[int]]:
        """(value, actions) of the best complete turn from `state` (a determinized copy).

        Multiplayer turns are searched in two passes: every turn without optional noria spends,
        then the spends added to the `SPEND_BEAM` best of them. The solo game's trees are small
        and its spends decisive (swaps make deliveries), so it searches spends at once."""
        state.invalidate()  # the search never observes: clones need not copy the observation
        samples = self._roll_samples(state)
        solo = state.solo
        if solo:
            value = self.value
        else:
            turn = TurnFacts(state, me)
            weights = self.weights

            def value(s: AlpujarrasState, me: int) -> float:
                return position_value(s, me, weights, turn)
        need = fruit_need(state, me, value)
        before_end = not solo or bool(samples)
        scored = [
            (self._judge(actions, result, me, samples, value), actions)
            for actions, result in complete_turns(state.clone(), me, before_end=before_end,
                                                  need=need, spend=solo)
        ]
        firsts: dict[int, float] = {}
        self.first_values = firsts
        for v, actions in scored:
            if actions and v > firsts.get(actions[0], -np.inf):
                firsts[actions[0]] = v
        if not scored:
            return -np.inf, []
        scored.sort(key=lambda item: item[0], reverse=True)
        best_value, best_actions = scored[0]
        if solo:
            return best_value, best_actions
        for _, actions in scored[:SPEND_BEAM]:
            for spent, result in spend_turns(state, actions, me, need):
                v = self._judge(spent, result, me, samples, value)
                if v > firsts.get(spent[0], -np.inf):
                    firsts[spent[0]] = v
                if v > best_value:
                    best_value, best_actions = v, spent
        return best_value, best_actions

    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        state = view.determinize(self.rng)
        _, best_actions = self.best_turn(state, view.player)
        return _until_chance(state, best_actions)


def afterstate_turn(
    state: AlpujarrasState, me: int, judge: Callable[[list[AlpujarrasState]], np.ndarray],
    rng: np.random.Generator,
) -> list[int]:
    """The turn of `me` whose resulting position `judge` (positions -> a value each) rates
    best, searched as `AlpujarrasHeuristic.best_turn` searches (the same turns, the noria spends
    added to the `SPEND_BEAM` best), each turn judged once it has ended: the learned afterstate
    agent's search (`huerta.agents.afterstate`). A solo turn is judged by the mean over
    `ROLL_SAMPLES` of Zara's futures (die rolls drawn with `rng`). Returns the plan up to the
    first irrigation that draws a hidden crop token (`_until_chance`); empty when there is
    nothing to choose."""
    state = state.clone()
    state.invalidate()
    solo = state.solo
    samples = ([rng.integers(1, C.DIE_SIDES + 1, size=len(state.rolls)).tolist()
                for _ in range(ROLL_SAMPLES)] if solo and state.rolls else [[]])

    def ended(actions: list[int], result: AlpujarrasState) -> list[AlpujarrasState]:
        if actions[-1] != END_TURN or result.terminal or result.phase != _P_ACTION:
            return [result]
        futures = []
        for rolls in samples:
            after = result.clone()
            if rolls:
                after.rolls = list(rolls)
            after.apply(END_TURN)
            futures.append(after)
        return futures

    def rate(found: Iterator[tuple[list[int], AlpujarrasState]],
             ) -> tuple[list[list[int]], np.ndarray]:
        # each turn is ended as it is found: `complete_turns` goes on to play other actions
        # on the state it yields before END_TURN
        turns, positions = [], []
        for actions, result in found:
            turns.append(actions)
            positions.append(ended(actions, result))
        if not turns:
            return [], np.zeros(0)
        values = judge([p for group in positions for p in group])
        sizes = np.array([len(group) for group in positions])
        return turns, np.add.reduceat(values, np.cumsum(sizes) - sizes) / sizes

    value = solo_value if solo else position_value
    need = fruit_need(state, me, (lambda s, _: value(s)) if solo else value)
    turns, values = rate(complete_turns(state.clone(), me, before_end=True, need=need,
                                        spend=solo))
    if not turns:
        return []
    if not solo:  # the spends, added to the best turns without them
        for k in np.argsort(-values, kind="stable")[:SPEND_BEAM]:
            more, more_values = rate(spend_turns(state, turns[k], me, need))
            turns += more
            values = np.concatenate([values, more_values])
    return _until_chance(state, turns[int(np.argmax(values))])


def _until_chance(state: AlpujarrasState, actions: list[int]) -> list[int]:
    """The plan up to and including the first irrigation that draws a crop token (its kind is
    hidden, so the rest of the turn is planned again once it is known)."""
    for k, a in enumerate(actions):
        if CHANNEL0 <= a < DELIVER0 and C.CHANNELS[a - CHANNEL0].field is not None \
                and len(set(state.bag)) > 1:
            return actions[:k + 1]
    return actions


__all__ = [
    "AlpujarrasHeuristic", "Weights", "afterstate_turn", "complete_turns", "delivery_potential",
    "position_value", "solo_value", "track_facts",
]
