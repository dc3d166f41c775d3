"""The blocks other files embed, rendered from the results pages' records: the README's table
of what is measured, and the benchmark page's example outputs. Each is checked against the
records like a page (tests/test_results_pages.py)."""

from __future__ import annotations

from collections.abc import Callable

from .formats import game_name, interval, number, pct
from .model import Block, Record, Records
from .render import duration, output_block, short_commit

GAMES = ("finca", "alpujarras", "mi_tierra")


def _stale(record: Record) -> str:
    return " (stale)" if record.get("stale") else ""


def _rates(records: Records, ids: list[tuple[str, str]], label: str,
           with_interval: bool = False) -> str:
    """`Finca 99.0%, ...` for `label`'s win rate in each (game, measurement id) measured, and
    the games each was measured on."""
    parts, games = [], set()
    for game, measurement_id in ids:
        record = records.get(measurement_id)
        if record is None:
            continue
        agent = record["figures"]["agents"][label]
        games.add(agent["games"])
        text = f"{game_name(game)} {pct(agent['win_rate'])}"
        if with_interval:
            text += f" {interval(agent['low'], agent['high'])}"
        parts.append(text + _stale(record))
    if not parts:
        return "not measured yet"
    return ", ".join(parts) + f" of {'/'.join(map(str, sorted(games)))} games"


def _measured(records: Records, ids: tuple[str, ...], render: Callable[..., str]) -> str:
    """`render(*records of ids)`, marked stale where any of them is; "not measured yet" where
    one is missing."""
    chosen = [records.get(measurement_id) for measurement_id in ids]
    if any(record is None for record in chosen):
        return "not measured yet"
    stale = any(record.get("stale") for record in chosen)
    return render(*chosen) + (" (stale)" if stale else "")


def _speed_ratio(record: Record) -> str:
    rows = record["figures"]["rows"]
    c4 = next(r["steps_per_s"] for r in rows if r["name"] == "connect_four_v3")
    ratios = [r["steps_per_s"] / c4 for r in rows
              if r["mode"] == "env()" and r["name"] != "connect_four_v3"]
    return (f"{min(ratios):.1f}-{max(ratios):.1f} times PettingZoo's `connect_four_v3` in "
            f"`env()` steps per second, in one run")


def _train_speed(record: Record) -> str:
    rates = [r["steps_per_s"] for r in record["figures"]["rows"]]
    return (f"{min(rates):,.0f}-{max(rates):,.0f} learner steps per second on "
            f"{record['cores']} cores, every game")


def _solo(learned: Record, heuristic: Record) -> str:
    a, b = learned["figures"], heuristic["figures"]
    shown = a["low"] > b["high"]
    return (f"learned constants {pct(a['win_rate'])} {interval(a['low'], a['high'])}, the "
            f"heuristic {pct(b['win_rate'])} {interval(b['low'], b['high'])} of the same "
            f"{a['games']:,} deals: " + ("the gain is shown" if shown else
                                         "the intervals overlap, **the gain is not shown**"))


def _ladder_tops(record: Record) -> str:
    """Each game's two top rungs at 2 players with their ratings and 95% intervals: where the
    learned agent stands against the hand-written search ("above" only where the intervals
    separate)."""
    parts = []
    for game in GAMES:
        rungs = sorted((r for r in record["figures"]["rungs"]
                        if r["game"] == game and r["players"] == 2 and r["rating"] is not None),
                       key=lambda r: r["rating"], reverse=True)[:2]
        if len(rungs) < 2:
            continue
        first, second = (f"`{r['code']}` {r['rating']:.0f}"
                         + (f" [{r['low']:.0f}, {r['high']:.0f}]" if r["low"] is not None else "")
                         for r in rungs)
        separate = None not in (rungs[0]["low"], rungs[1]["high"]) and (
            rungs[0]["low"] > rungs[1]["high"])
        parts.append(f"{game_name(game)} {first}, above {second}" if separate else
                     f"{game_name(game)} {first}, then {second} (the intervals overlap)")
    return "; ".join(parts) + " (Elo, random = 0)"


def _make_run(record: Record) -> str:
    f = record["figures"]
    return (f"{duration(f['total_seconds'])} on {record['cores']} cores from a fresh clone: "
            f"set-up {duration(f['setup_seconds'])} (pip's cache warm), main job "
            f"{duration(f['main_job_seconds'])}")


def _benchmark_cost(record: Record) -> str:
    rows = record["figures"]["rows"]
    slowest = max(r["adaptive"]["wall_seconds"] for r in rows)
    covered = sum(r["covers"] for r in rows)
    return (f"a first-legal policy and the heuristic rated in every game in at most "
            f"{duration(slowest)} each on {record['cores']} cores; the adaptive interval holds "
            f"the full protocol's rating in {covered} of {len(rows)}")


def _ppo(record: Record) -> str:
    f = record["figures"]
    greedy = ", ".join(f"{pct(g['wins'] / g['games'])} against {name}"
                       for name, g in f["greedy"].items())
    return (f"{number(f['steps_per_s'], 0)} steps per second; greedy {greedy}, of "
            f"{f['greedy']['random']['games']} games each")


def readme_measured(pages: dict[str, Records]) -> str:
    """The README's table of what is measured, each figure from its record, linking to the
    page that says how it was measured."""
    agents, training, speed = pages.get("agents", {}), pages.get("training", {}), \
        pages.get("speed", {})
    rows = [
        ("the heuristic against random (2 players)",
         _rates(agents, [(g, f"heuristic-random-{g}-2p") for g in GAMES], "heuristic"),
         "agents", "the-heuristics"),
        ("the search agent against the heuristic",
         _rates(agents, [(g, f"search-heuristic-{g}") for g in GAMES], "search"),
         "agents", "the-search-rung"),
        ("the shipped learned agent against the heuristic",
         _rates(training, [(g, f"learned-heuristic-{g}") for g in GAMES], "learned", True),
         "training", "the-shipped-agents"),
        ("the solo game against Zara",
         _measured(training, ("solo-learned", "solo-heuristic"), _solo),
         "training", "the-solo-game"),
        ("the top of each 2-player ladder (every rung and player count on the page)",
         _measured(agents, ("ladder",), _ladder_tops), "agents", "the-ladder"),
        ("environment speed", _measured(speed, ("env-speed",), _speed_ratio),
         "speed", "environment-steps"),
        ("training speed", _measured(speed, ("train-speed",), _train_speed),
         "speed", "the-training-loop"),
        ("`make run` (set-up and the main job)", _measured(speed, ("make-run",), _make_run),
         "speed", "make-run-from-a-fresh-clone"),
        ("what a benchmark costs (default protocol, ±75 Elo)",
         _measured(speed, ("benchmark-cost",), _benchmark_cost),
         "speed", "what-a-benchmark-costs"),
        ("one-file masked PPO on the batched env (Finca, 300,000 steps, against `random`)",
         _measured(training, ("ppo-masked",), _ppo),
         "training", "one-file-masked-ppo-on-the-batched-env"),
    ]
    lines = ["| what | figure | where |", "|---|---|---|"]
    lines += [f"| {what} | {figure} | [{page}](docs/results/{page}.md#{anchor}) |"
              for what, figure, page, anchor in rows]
    return "\n".join(lines)


def benchmark_example(index: int):
    """The benchmark page's example output `index` (0: the heuristic, 1: a user's policy, 2:
    the leaderboard), with where and when it was printed."""

    def render(pages: dict[str, Records]) -> str:
        record = pages.get("agents", {}).get("benchmark-examples")
        if record is None:
            return "(not measured yet: `python scripts/results.py agents --only " \
                   "benchmark-examples`)"
        when = (f"As printed by `{record['commands'][index]}` at commit "
                f"`{short_commit(record)}` ({record['date'][:10]}; the measurement "
                "`benchmark-examples` of the [agents results](results/agents.md#examples)"
                f"{', now **stale**' if record.get('stale') else ''}):")
        return when + "\n\n" + output_block(record, index)

    return render


BLOCKS = (
    Block("README.md", "measured", readme_measured),
    *(Block("docs/benchmark.md", f"benchmark-example-{i}", benchmark_example(i))
      for i in range(3)),
)
