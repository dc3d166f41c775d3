"""Balance check of Mi Tierra's data set: simulated games between simple policies.

    .venv/bin/python scripts/mi_tierra_balance.py                 # 300 games per count
    .venv/bin/python scripts/mi_tierra_balance.py --games 1000 --players 2 3 4

It plays seeded games with three kinds of policy and prints the figures quoted in
seeds/mi_tierra.md ("How the balance was checked"):

* `random`: a uniformly random legal action;
* `greedy`: a one-step lookahead on a simple worth (money, cake and cloth at their end value,
  goods at about half a market price, tiles and development cards) for every decision except
  placement, which it scores with rough estimates of what each space yields now;
* `specialist:<zone>`: the greedy policy that always puts its first worker of a round on one
  zone when it can; it is the test that no single action dominates (a specialist of a dominant
  action would beat greedy players clearly).

Reported: game length (rounds, agent steps), why games ended, final money and leftover goods,
cakes and cloth made, how often each placement is chosen, seat and specialist win rates.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import (
    CELL0,
    CHOICE0,
    PASS,
    PLACE_ACTION_ZONE,
    PLACE_DEV0,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    Decision,
    action_name,
    place,
)
from huerta.envs.mi_tierra.decisions import apf_products, can_bake, can_make_cloth
from huerta.envs.mi_tierra.farm import group_size
from huerta.envs.mi_tierra.market import can_sell_to
from huerta.envs.mi_tierra.state import MiTierraState

# Worth of one unit of each good to the greedy player: about half of what a market pays, more
# for wool, milk and eggs, which make cloth and cake.
WORTH = (2.0, 2.0, 2.0, 2.0, 5.0, 6.0, 5.0, 7.0, 7.0, 2.5, 3.0, 2.0)


def worth(s: MiTierraState, p: int) -> float:
    """The greedy player's measure of how well `p` is doing."""
    goods = s.goods[p]
    tiles = sum(1 for t in s.tiles[p] if t != C.EMPTY)
    return (s.money[p] + C.CAKE_VALUE * s.cake[p] + C.CLOTH_VALUE * s.cloth[p]
            + sum(WORTH[g] * goods[g] for g in range(C.NUM_GOODS)) + 4.0 * sum(s.devs[p])
            + 2.0 * tiles)


def _demand(s: MiTierraState) -> list[float]:
    out = [0.0] * C.NUM_GOODS
    for card_id in list(s.est) + list(s.closing):
        if card_id < 0:
            continue
        card = C.MARKET_CARDS[card_id]
        if card.kind == "simple":
            out[card.good] = max(out[card.good], card.price)
        elif card.kind == "pack":
            per_unit = card.price / sum(card.contents)
            for g, n in enumerate(card.contents):
                if n:
                    out[g] = max(out[g], per_unit)
        else:
            for g in range(C.NUM_GOODS):
                out[g] = max(out[g], float(C.card_unit_price(card, g, False)))
    return out


def _best_sale(s: MiTierraState, p: int) -> float:
    goods = s.goods[p]
    values = []
    for card_id in list(s.est) + list(s.closing):
        if card_id >= 0 and can_sell_to(goods, card_id):
            card = C.MARKET_CARDS[card_id]
            if card.kind == "pack":
                values.append(card.price)
            elif card.kind == "simple":
                values.append(min(card.limit, goods[card.good]) * card.price)
            else:
                values.append(sum(C.card_unit_price(card, g, False) * goods[g]
                                  for g in range(C.NUM_GOODS)))
    values.sort(reverse=True)
    best = values[0] + 0.5 * values[1] if len(values) > 1 else (values[0] if values else 0.0)
    black = 0.5 * sum(C.BM_SELL[g] * goods[g] for g in range(C.NUM_GOODS))
    return max(best, black)


def placement_value(s: MiTierraState, p: int, action: int) -> float:
    """Rough estimate of what a placement yields this round (higher is better)."""
    goods = s.goods[p]
    tiles = s.tiles[p]
    barns = sum(1 for t in tiles if t in C.BARN_CAPACITY)
    empty = tiles.count(C.EMPTY)
    demand = _demand(s)
    if action == PASS:
        return 0.0
    if CELL0 <= action < CHOICE0:
        c = action - CELL0
        crop = C.TILE_CROP[tiles[c]]
        return min(C.HARVEST_CAP, group_size(tiles, c)) * max(2.5, demand[crop])
    if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        return 6.0 - 0.5 * sum(s.devs[p]) if s.money[p] >= 6 else 0.0
    if action == PLACE_PAIR_FOREST:
        return 3.0 if empty and barns < 3 else 0.0
    zone = PLACE_ACTION_ZONE.get(action)
    crops = sum(1 for t in tiles if C.T_APPLE <= t <= C.T_GRAPE)
    if zone == C.Z_CROPS or action == PLACE_PAIR_CROPS:
        base = 3.0 + max(demand[:3]) / 3.0 if crops < 7 else 0.5
        return base - (1.0 if action == PLACE_PAIR_CROPS else 0.0)
    if zone == C.Z_EST_MARKET:
        return _best_sale(s, p)
    if zone == C.Z_FOREST:
        return 4.0 if empty and barns < 2 else 0.5
    if zone in (C.Z_SHEEP, C.Z_COW):
        return 6.0 if barns else 4.0
    if zone == C.Z_HENHOUSE:
        return 6.0 if goods[C.HEN] < 5 else 4.0
    if zone == C.Z_APF:
        made = apf_products(s, p)
        return sum(2 * WORTH[g] for g in made) - C.APF_COST if s.money[p] >= C.APF_COST else -1
    if zone == C.Z_BAKERY:
        return 30.0 if can_bake(s, p) else -1.0
    if zone == C.Z_CLOTH:
        return 30.0 if can_make_cloth(s, p) else -1.0
    if zone == C.Z_FLOUR_WINE:
        ok = s.money[p] >= C.FLOUR_WINE_COST and (goods[C.WHEAT] >= 3 or goods[C.GRAPE] >= 3)
        return 8.0 if ok else -1.0
    if zone == C.Z_SQUARE:
        return 4.0 if s.round < 8 and s.money[p] >= 4 else 0.0
    return 0.3  # Clock Tower, lower road


class Random:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, s: MiTierraState) -> int:
        legal = s.legal_actions()
        return legal[self.rng.integers(len(legal))]


class Greedy(Random):
    name = "greedy"

    def act(self, s: MiTierraState) -> int:
        p = s.current_player
        legal = s.legal_actions()
        noise = self.rng.random(len(legal))
        if s.decision == Decision.PLACE:
            values = [placement_value(s, p, a) + 0.5 * e for a, e in zip(legal, noise,
                                                                          strict=True)]
            return legal[int(np.argmax(values))]
        best, best_value = legal[0], -1e9
        for a, e in zip(legal, noise, strict=True):
            after = s.clone()
            after.apply(a)
            value = worth(after, p) + 0.01 * e
            if after.decision == Decision.MARKET_SALE and after.current_player == p:
                value += 2.0  # keep adding units to a sale
            if value > best_value:
                best, best_value = a, value
        return best


class Specialist(Greedy):
    """Greedy, but its first placement of every round goes to one zone whenever legal."""

    def __init__(self, seed: int, zone: int) -> None:
        super().__init__(seed)
        self.zone = zone
        self.name = f"specialist:{C.ZONE_KEYS[zone]}"

    def act(self, s: MiTierraState) -> int:
        if s.decision == Decision.PLACE and s.hut[s.current_player] == s.owned[
                s.current_player]:
            target = place(self.zone)
            if target in s.legal_actions():
                return target
        return super().act(s)


class Planner(Greedy):
    """Greedy, but placement follows a fixed plan toward cake ("baker": hens, cows, the Animal
    Products Factory, the Bakery) or cloth ("weaver": sheep, the factory, the Cloth Factory),
    selling in the market whenever money runs short."""

    def __init__(self, seed: int, plan: str) -> None:
        super().__init__(seed)
        self.plan = plan
        self.name = plan

    def _wishes(self, s: MiTierraState, p: int) -> list[int]:
        goods = s.goods[p]
        money = s.money[p]
        barns = sum(1 for t in s.tiles[p] if t in C.BARN_CAPACITY)
        apf = {animal: need for _, animal, need in C.APF_PRODUCTS}
        wishes = []
        if self.plan == "baker":
            if can_bake(s, p):
                wishes.append(C.Z_BAKERY)
            if money >= C.APF_COST and (goods[C.HEN] >= apf[C.HEN] or goods[C.COW] >= apf[C.COW]):
                wishes.append(C.Z_APF)
            if goods[C.HEN] < apf[C.HEN]:
                wishes.append(C.Z_HENHOUSE)
            if barns == 0:
                wishes.append(C.Z_FOREST)
            if goods[C.COW] < apf[C.COW] and barns:
                wishes.append(C.Z_COW)
        else:
            if can_make_cloth(s, p):
                wishes.append(C.Z_CLOTH)
            if money >= C.APF_COST and goods[C.SHEEP] >= apf[C.SHEEP]:
                wishes.append(C.Z_APF)
            if barns < 2:
                wishes.append(C.Z_FOREST)
            if goods[C.SHEEP] < apf[C.SHEEP] + 1 and barns:
                wishes.append(C.Z_SHEEP)
        if money < 8:
            wishes.append(C.Z_EST_MARKET)
        return wishes

    def act(self, s: MiTierraState) -> int:
        if s.decision == Decision.PLACE:
            legal = set(s.legal_actions())
            for zone in self._wishes(s, s.current_player):
                if place(zone) in legal:
                    return place(zone)
        return super().act(s)


@dataclass
class Figures:
    """What a batch of games measured."""

    rounds: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    ends: Counter = field(default_factory=Counter)
    money: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    leftover: list[int] = field(default_factory=list)
    cakes: list[int] = field(default_factory=list)
    cloths: list[int] = field(default_factory=list)
    placements: Counter = field(default_factory=Counter)
    wins: Counter = field(default_factory=Counter)  # by policy name, shared wins split
    seats: Counter = field(default_factory=Counter)
    seat_games: Counter = field(default_factory=Counter)
    games: int = 0


def play(n: int, policies: list, seed: int, figures: Figures) -> None:
    s = new_game(n, seed=seed)
    while not s.is_terminal and s.steps < 5000:
        policy = policies[s.current_player]
        action = policy.act(s)
        if s.decision == Decision.PLACE:
            figures.placements[(policy.name, _placement_name(action))] += 1
        s.apply(action)
    figures.games += 1
    figures.rounds.append(s.round)
    figures.steps.append(s.steps)
    reason = ("third permanent event" if s.end_triggered else
              "pile exhausted" if s.pile_ran_out else
              "round cap" if s.is_terminal else "step limit")
    figures.ends[reason] += 1
    winners = s.winners() if s.is_terminal else []
    for p in range(n):
        figures.money.append(s.money[p])
        figures.scores.append(s.scores()[p])
        figures.leftover.append(sum(s.goods[p]))
        figures.cakes.append(s.cake[p])
        figures.cloths.append(s.cloth[p])
        figures.seat_games[p] += 1
        if p in winners:
            figures.wins[policies[p].name] += 1 / len(winners)
            figures.seats[p] += 1 / len(winners)


def _placement_name(action: int) -> str:
    if CELL0 <= action < CHOICE0:
        return "CELL (work a field)"
    if PLACE_DEV0 <= action < PLACE_PAIR_FOREST:
        return "PLACE_DEV (any spot)"
    return action_name(action)


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


def summary(title: str, f: Figures) -> list[str]:
    lines = [f"### {title} ({f.games} games)"]
    lines.append(
        f"- rounds: mean {np.mean(f.rounds):.1f}, 10-90% {_pct(f.rounds, 10):.0f}-"
        f"{_pct(f.rounds, 90):.0f}; agent steps: mean {np.mean(f.steps):.0f}, max {max(f.steps)}"
    )
    ends = ", ".join(f"{k} {v / f.games:.0%}" for k, v in f.ends.most_common())
    lines.append(f"- game end: {ends}")
    lines.append(
        f"- final score: mean {np.mean(f.scores):.0f}, 10-90% {_pct(f.scores, 10):.0f}-"
        f"{_pct(f.scores, 90):.0f}, max {max(f.scores)}; money before the final sale: mean "
        f"{np.mean(f.money):.0f}, max {max(f.money)}"
    )
    lines.append(
        f"- goods left at the end: mean {np.mean(f.leftover):.1f}, max {max(f.leftover)}; cakes "
        f"per player {np.mean(f.cakes):.2f}, cloth {np.mean(f.cloths):.2f}"
    )
    seat = ", ".join(f"seat {p} {f.seats[p] / f.seat_games[p]:.0%}" for p in sorted(f.seat_games))
    lines.append(f"- wins by seat: {seat}")
    return lines


def placement_shares(f: Figures, policy: str, top: int = 8) -> str:
    counts = {a: v for (name, a), v in f.placements.items() if name == policy}
    total = sum(counts.values()) or 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])[:top]
    return ", ".join(f"{a} {v / total:.0%}" for a, v in ranked)


def run(players: list[int], games: int, specialists: bool) -> list[str]:
    out = []
    for n in players:
        for label, make in (("random", lambda seed, i: Random(seed * 10 + i)),
                            ("greedy", lambda seed, i: Greedy(seed * 10 + i))):
            f = Figures()
            for seed in range(games):
                play(n, [make(seed, i) for i in range(n)], seed, f)
            out += summary(f"{n} players, all {label}", f)
            out.append(f"- placements ({label}): {placement_shares(f, label)}")
        if specialists:
            rows = []
            for plan in ("baker", "weaver"):
                f = Figures()
                for seed in range(games):
                    seat = seed % n
                    pols = [Greedy(seed * 10 + i) for i in range(n)]
                    pols[seat] = Planner(seed * 10 + seat, plan)
                    play(n, pols, seed, f)
                made = f.cakes if plan == "baker" else f.cloths
                mine = [made[g * n + g % n] for g in range(games)]
                rows.append(f"{plan} {f.wins[plan] / games:.0%} ({np.mean(mine):.1f} "
                            f"{'cakes' if plan == 'baker' else 'cloth'} a game)")
            out.append(f"- planners against {n - 1} greedy players (win share; fair = "
                       f"{1 / n:.0%}): " + ", ".join(rows))
            out.append(f"- specialists against {n - 1} greedy players (win share; fair = "
                       f"{1 / n:.0%}):")
            rows = []
            for zone in range(len(C.ZONES)):
                if zone == C.Z_DEV:
                    continue
                f = Figures()
                for seed in range(games):
                    seat = seed % n
                    pols = [Greedy(seed * 10 + i) for i in range(n)]
                    pols[seat] = Specialist(seed * 10 + seat, zone)
                    play(n, pols, seed, f)
                name = f"specialist:{C.ZONE_KEYS[zone]}"
                rows.append(f"{C.ZONE_KEYS[zone]} {f.wins[name] / games:.0%}")
            out.append("  " + ", ".join(rows))
        out.append("")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--no-specialists", action="store_true")
    args = parser.parse_args(argv)
    print("\n".join(run(args.players, args.games, not args.no_specialists)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
