"""The agents page: the hand-written agents' strength (the heuristics against random, MCTS and
the search agent against the heuristics, the solo game's variants against Zara), the ladder's
reference ratings, and the examples the tournament and benchmark pages show."""

from __future__ import annotations

from . import measurements, parsers
from .formats import game_name, interval, number, pct, wins_text
from .model import Agent, Code, Measurement, Page, Record, Records, Table
from .render import output_block

GAMES = ("finca", "alpujarras", "mi_tierra")
TABLE_SIZES = (2, 3, 4)
MCTS = ("mcts:50", "mcts:200")

# the benchmark page's example: a user's policy in mymodule.py, benchmarked beside the heuristic
MY_POLICY = '''import numpy as np


def my_policy(observation):
    """The highest legal action id: a poor strategy, but a policy."""
    return int(np.flatnonzero(observation["action_mask"])[-1])
'''
BENCHMARK_EXAMPLES = (
    "huerta benchmark finca heuristic --rungs random,heuristic --games 200 --workers 2",
    "huerta benchmark finca mymodule:my_policy --rungs random,heuristic --workers 2",
    "huerta leaderboard finca",
)


def heuristic_id(game: str, players: int) -> str:
    return f"heuristic-random-{game}-{players}p"


def mcts_id(game: str, code: str) -> str:
    return f"{code.replace(':', '')}-heuristic-{game}"


def search_id(game: str) -> str:
    return f"search-heuristic-{game}"


def _ladder_measures() -> tuple[Agent, ...]:
    """Every rung of the shipped ladder, as what the ladder's figures measure."""
    from huerta.training.evaluation.ladder import LADDER_FILE, load_ladder_file

    ladders = load_ladder_file(LADDER_FILE)["ladders"]
    return tuple(Agent(code, game, label=parsers.ladder_rung_name(game, int(players), code))
                 for game, counts in ladders.items() for players, rungs in counts.items()
                 for code in rungs)


MEASUREMENTS = (
    *(measurements.tournament(
        heuristic_id(game, n), game, ["heuristic", *["random"] * (n - 1)],
        games=200 if n == 2 else 100, players=n,
        what=f"the heuristic against random seats, {game}, {n} players")
      for game in GAMES for n in TABLE_SIZES),
    *(measurements.tournament(
        mcts_id(game, code), game, [code, "heuristic"], games=40,
        what=f"MCTS with random rollouts ({code}) against the heuristic, {game}",
        dear="" if code == "mcts:50" else "MCTS at 200 iterations: an hour or more a game set")
      for game in GAMES for code in MCTS),
    *(measurements.tournament(
        search_id(game), game, ["search", "heuristic"], games=200,
        what=f"the search agent against the heuristic, {game}",
        dear="" if game == "finca" else "the search agent's games: 15-40 minutes a game")
      for game in GAMES),
    measurements.script(
        "search-timing", "scripts/search_timing.py", "--games 2",
        "seconds per searched decision of the search agent, each game",
        measures=tuple(Agent(code, game) for game in GAMES for code in ("search", "heuristic")),
        games=GAMES),
    measurements.script(
        "solo-variants", "scripts/alpujarras_solo_balance.py", "--games 200 --workers 2",
        "the heuristic and random against Zara in each variant of the solo game",
        measures=(Agent("heuristic", "alpujarras"), Agent("random", "alpujarras")),
        games=("alpujarras",)),
    Measurement("ladder", "the benchmark ladder's reference ratings (training/evaluation/"
                "ladder.json, measured by scripts/reference_ladder.py)", (), parsers.ladder,
                _ladder_measures()),
    measurements.tournament(
        "tournament-example", "finca", ["random", "heuristic", "mcts:50"], games=40,
        what="the tournaments page's example: three agents, every line-up of two",
        keep_output=True),
    Measurement("benchmark-examples", "the benchmark page's examples: the heuristic and a "
                "user's policy benchmarked, then the leaderboard of both",
                BENCHMARK_EXAMPLES, lambda folder, outputs: {}, (
                    *measurements.agents_of("finca", ["heuristic", "random"]),
                    Code("the benchmark's games, counts, ladder and leaderboard (finca)", "finca",
                         modules=measurements.PLAYS, leave_out=measurements.AGENTS,
                         files=(*measurements.BENCHMARK_FILES, measurements.LADDER_FILE,
                                "training/evaluation/leaderboard.py"))),
                files=(("mymodule.py", MY_POLICY),), keep_output=True),
)


def _agent(record: Record, label: str) -> dict:
    return record["figures"]["agents"][label]


def _scores(record: Record, first: str) -> str:
    """The mean score of `first`, then of the others."""
    agents = record["figures"]["agents"]
    others = [number(a["mean_score"]) for label, a in agents.items() if label != first]
    return f"{number(agents[first]['mean_score'])}; {', '.join(others)}"


def heuristic_rows(record: Record) -> list[list[str]]:
    figures, h = record["figures"], _agent(record, "heuristic")
    return [[game_name(figures["game"]), str(figures["players"]), str(h["games"]),
             f"{pct(h['win_rate'])} ({wins_text(h['wins'])})", interval(h["low"], h["high"]),
             _scores(record, "heuristic")]]


def versus_rows(record: Record) -> list[list[str]]:
    """A row of an agent against the heuristic: the agent's wins, interval and mean scores (a
    record that kept only the mean margin shows that)."""
    figures = record["figures"]
    label = next(label for label in figures["agents"] if label != "heuristic")
    a, h = _agent(record, label), _agent(record, "heuristic")
    if a["mean_score"] is None:
        scores = f"margin {figures['margin']:+.1f}"
    else:
        scores = f"{_scores(record, label)} ({a['mean_score'] - h['mean_score']:+.1f})"
    return [[game_name(figures["game"]), f"`{label}`", str(a["games"]),
             f"{pct(a['win_rate'])} ({wins_text(a['wins'])})", interval(a["low"], a["high"]),
             scores]]


def timing_rows(record: Record) -> list[list[str]]:
    return [[game_name(r["game"]), str(r["decisions"]), f"{r['mean']:.3f}", f"{r['p95']:.3f}",
             f"{r['max']:.3f}", f"{r['simulations']:.1f}"] for r in record["figures"]["rows"]]


def solo_rows(record: Record) -> list[list[str]]:
    return [[r["variant"], r["agent"], str(r["games"]), f"{pct(r['wins'] / r['games'])} "
             f"({r['wins']})", interval(r["low"], r["high"]), f"{r['duties']:.2f}",
             pct(r["complete"] / r["games"])] for r in record["figures"]["rows"]]


def ladder_rows(record: Record) -> list[list[str]]:
    rows = []
    for r in record["figures"]["rungs"]:
        if r["code"] == "random" and r["players"] > 1:
            continue  # 0 by definition at every count
        if r["players"] == 1:
            figure, low_high = pct(r["win_rate"]), interval(r["low"], r["high"])
        else:
            figure, low_high = number(r["rating"], 0), interval(r["low"], r["high"], 1, 0)
        rung_commit = f"`{r['commit'][:7]}`" if r.get("commit") else "no commit recorded"
        rows.append([game_name(r["game"]) + (" solo" if r["players"] == 1 else ""),
                     str(r["players"]), f"`{r['code']}`", figure, low_high,
                     str(r["games"] or "-"), ", ".join(r.get("opponents") or []) or "-",
                     f"{rung_commit} {r.get('date') or ''}".strip()])
    return rows


def example_outputs(records: Records) -> str:
    """The examples' printed outputs, as the tournament and benchmark pages show them."""
    parts = []
    for measurement_id, titles in (("tournament-example", ("The tournament",)),
                                   ("benchmark-examples", ("The heuristic benchmarked",
                                                           "mymodule:my_policy benchmarked",
                                                           "The leaderboard of both"))):
        record = records.get(measurement_id)
        if record is None:
            continue
        for i, title in enumerate(titles):
            parts.append(f"{title} (`{record['commands'][i]}`):\n\n{output_block(record, i)}")
    return "\n\n".join(parts)


PARTS = (
    "# Results: agents",
    "How strong the hand-written agents are. Win rates are of games won (a shared victory "
    "counts 1/k) with 95% Wilson intervals; tournaments rotate seats and play the same deals "
    "from every seat. See [how to read a figure](index.md#how-to-read-a-figure).",
    "## The heuristics",
    "Each game's heuristic against random seats, at every table size:",
    Table((("game", "the game"), ("players", "seats at the table, the others random"),
           ("games", "games the heuristic played"),
           ("heuristic wins", "its share of games won (games won)"),
           ("95% CI", "the Wilson interval of that share, in %"),
           ("mean score", "the heuristic's mean score; then each random seat's")),
          tuple(heuristic_id(g, n) for g in GAMES for n in TABLE_SIZES), heuristic_rows),
    "## MCTS against the heuristics",
    "Determinized MCTS with random rollouts, at 50 and 200 iterations a decision, against the "
    "heuristic. Random rollouts of a whole Alpujarras or Mi Tierra game say little about a move, "
    "which is why the search agent below is built on the heuristic instead.",
    Table((("game", "the game, 2 players"), ("agent", "the MCTS agent's code"),
           ("games", "games it played"), ("MCTS wins", "its share of games won (games won)"),
           ("95% CI", "the Wilson interval of that share, in %"),
           ("mean score", "MCTS's mean score; the heuristic's (the difference)")),
          tuple(mcts_id(g, c) for g in GAMES for c in MCTS), versus_rows),
    "## The search rung",
    "The search agent (`search`) against the heuristic, 2 players, on the same deals from "
    "both seats:",
    Table((("game", "the game, 2 players"), ("agent", "the agent's code"),
           ("games", "games it played"), ("search wins", "its share of games won (games won)"),
           ("95% CI", "the Wilson interval of that share, in %"),
           ("mean score", "its mean score; the heuristic's (the difference)")),
          tuple(search_id(g) for g in GAMES), versus_rows),
    "The time a decision takes (the budget is 24 simulations, capped at 0.9 s of wall time, "
    "so a loaded machine runs fewer simulations):",
    Table((("game", "the game, 2 games against the heuristic"),
           ("searched", "decisions that ran a search (the first of a turn with a choice)"),
           ("mean s", "seconds per such decision, the heuristic's own choice included"),
           ("95% s", "the 95th percentile of those seconds"), ("max s", "the longest"),
           ("sims", "simulations per search")),
          ("search-timing",), timing_rows),
    "## The solo game against Zara",
    "The heuristic over the same deals in every variant (a win needs all ten duties and more "
    "dirhems than Zara; random plays the default variant only). How the learned agent compares "
    "with the heuristic is on the [training results](training.md#the-solo-game).",
    Table((("variant", "the solo game's setting (double turns, zakat sides)"),
           ("agent", "the agent's code"), ("games", "deals played, seeds 0 upwards"),
           ("wins", "the share of deals won against Zara (deals won)"),
           ("95% CI", "the Wilson interval of that share, in %"),
           ("duties met", "mean duties met of the ten (five zakats, five kinds delivered)"),
           ("all ten met", "the share of deals that met all ten")),
          ("solo-variants",), solo_rows),
    "## The ladder",
    "The reference ratings of `huerta benchmark`'s fixed scale (Elo points, random = 0), "
    "shipped in `training/evaluation/ladder.json` and measured by "
    "`scripts/reference_ladder.py`; the page reads them from that file "
    "(`python scripts/results.py agents --only ladder`). Random is 0 at every player count, by "
    "definition. The solo game has no rating: its rungs are win rates against Zara over the "
    "published deals.",
    Table((("game", "the game"), ("players", "seats at the table"),
           ("rung", "the rung's agent code"),
           ("rating", "its reference rating in Elo points (the solo game: its win rate)"),
           ("95% interval", "profile-likelihood interval widened by a bootstrap over deals "
            "(the solo game: Wilson, in %)"),
           ("games", "games it was measured on"), ("against", "the rungs it played"),
           ("rung measured", "the commit and date the ladder file records for the rung")),
          ("ladder",), ladder_rows),
    "## Examples",
    "What the [tournaments](../tournaments.md) and [benchmark](../benchmark.md) pages show, as "
    "printed (those pages show the same outputs):",
    Table((("example", "what it shows"),), ("tournament-example", "benchmark-examples"),
          lambda record: [[record["what"]]]),
    example_outputs,
    "## History",
    "Not measured again, kept for the reasons they give (commits of 2026-11-29 to "
    "2026-12-03; no versions were recorded then):",
    "- The search agent's settings (`SEARCH` in `agents/heuristics/<game>/`) came from 30-game "
    "trials while it was built (`9512e55`; no command or intervals recorded): one turn of "
    "lookahead won 43-57% in Mi Tierra and three turns 70-87%; in Alpujarras, where the budget "
    "buys about 20 simulations, comparing all of the 10-30 first actions won 53-63% and the "
    "heuristic's best four 70%.\n"
    "- The heuristics' cost per decision, timed while they were written (`b9591a5`; no command "
    "recorded): a millisecond or so a move in Finca; in Alpujarras about 10 ms a turn against a "
    "random seat, 15-20 ms against three, and 3-5 ms in self-play.",
)

PAGE = Page("agents", MEASUREMENTS, PARTS)
