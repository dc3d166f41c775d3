"""The Alpujarras heuristic's value of a multiplayer position (`position_value`).

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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.effects import score, ties_count
from huerta.envs.alpujarras.goals import GOAL_CHECKS
from huerta.envs.alpujarras.state import AlpujarrasState

from .track import facts_of

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
        self.facts = facts_of(state)
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
