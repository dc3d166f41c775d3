"""The baselines pages, one per game (pgx-style): every training method huerta has, each trained
by one command and seed on two cores and its model played against random, the heuristic and the
search rung, so that a researcher can place a new method among them with the same commands.

A method's measurement trains in a fresh folder (`run`), exports the best model where the
method exports one, and plays three tournaments of the trained agent, seats rotated on the same
deals. The afterstate run gives two rows: the value played by its one-turn search alone, and
the learned search (the same value driving the search agent, with the search settings the
shipped model declares, written by scripts/value_with_search.py), the method of the shipped
Finca and Alpujarras agents."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from . import measurements, parsers
from .formats import game_name, interval, pct
from .model import Code, Figures, Measurement, Page, Record, Table
from .render import duration

# the opponents every trained agent plays, with the games of each (seats rotated, paired deals)
OPPONENTS = (("random", 100), ("heuristic", 200), ("search", 200))
VALUE_SEARCH = "scripts/value_with_search.py"


@dataclass(frozen=True)
class Method:
    """A training method as a baseline: its `huerta train` flags (after GAME and before the
    seed), the agent code that plays what it trained (in the measurement's folder), and the
    modules whose code decides what it trains and how the agent plays."""

    id: str
    name: str
    flags: str
    agent: str
    modules: tuple[str, ...]
    export: bool = True  # `huerta export run --out model.npz` after training

    def train_command(self, game: str) -> str:
        return f"huerta train {game} {self.flags} --seed 0 --out run --no-progress".replace(
            "  ", " ")


PPO_MODULES = ("huerta.training.methods.ppo", "huerta.training.config",
               "huerta.training.methods.export", "huerta.agents.learned")
METHODS = (
    Method("ppo-random", "PPO from random weights", "--method ppo --imitation-games 0",
           "learned:model.npz", PPO_MODULES),
    Method("ppo-imitation", "PPO after imitation", "--method ppo", "learned:model.npz",
           (*PPO_MODULES, "huerta.training.methods.imitation")),
    Method("afterstate", "afterstate value", "--method afterstate", "learned:model.npz",
           ("huerta.training.methods.afterstate", "huerta.training.config",
            "huerta.training.methods.export", "huerta.agents.learned",
            "huerta.agents.learned_search")),
    Method("rllib", "RLlib PPO", "--backend rllib", "rllib:run",
           ("huerta.training.methods.rllib", "huerta.training.rllib.trainer",
            "huerta.agents.rllib_agent"), export=False),
)
LEARNED_SEARCH = "learned search"  # the second row of the afterstate run
SEARCH_AGENT = "learned:search-model.npz"


def has_afterstates(game: str) -> bool:
    """Whether the game's heuristic declares `afterstate_turn` (its choice of a turn or a
    decision by the positions it leaves), which the afterstate method needs."""
    from huerta.agents.afterstate import afterstate_games

    return game in afterstate_games()


def methods_of(game: str) -> tuple[Method, ...]:
    return tuple(m for m in METHODS if m.id != "afterstate" or has_afterstates(game))


def shipped_search_settings(game: str) -> str:
    """The search settings of the game's shipped learned model (its `about["search"]`), as
    the JSON scripts/value_with_search.py takes: the learned search row plays what ships. A
    shipped model that declares none (Mi Tierra's policy network) gives `{}`: the learned
    search with the game's search settings, its default and leaves the value's."""
    import numpy as np

    from huerta.agents.learned import shipped_model

    with np.load(shipped_model(game, 2), allow_pickle=False) as data:
        about = json.loads(str(data["about"])) if "about" in data.files else {}
    return json.dumps(about.get("search", {}), separators=(", ", ": "))


def tournament_command(game: str, agent: str, opponent: str, games: int) -> str:
    return (f"huerta tournament {game} --agents {agent},{opponent} --games {games} "
            f"--workers 2 --no-db --quiet --out {out_folder(agent, opponent)}")


def out_folder(agent: str, opponent: str) -> str:
    """The --out folder of one tournament: `model-vs-search`, `run-vs-random`."""
    return f"{Path(agent.partition(':')[2]).stem}-vs-{opponent}"


def agents_of_method(method: Method) -> tuple[str, ...]:
    return (method.agent, SEARCH_AGENT) if method.id == "afterstate" else (method.agent,)


def measurement(game: str, method: Method) -> Measurement:
    """Train `method` on `game` (2 players, seed 0), then play each agent it gives against
    every opponent of OPPONENTS."""
    commands = [method.train_command(game)]
    if method.export:
        commands.append("huerta export run --out model.npz")
    if method.id == "afterstate":
        commands.append(f"python {VALUE_SEARCH} {game} search-model.npz "
                        f"'{shipped_search_settings(game)}' --value model.npz")
    for agent in agents_of_method(method):
        commands += [tournament_command(game, agent, opponent, games)
                     for opponent, games in OPPONENTS]
    measured = Code(f"huerta train's {method.name} ({game})", game, modules=method.modules,
                    scripts=(VALUE_SEARCH,) if method.id == "afterstate" else ())
    play = Code(f"the tournament's games and counts ({game})", game,
                modules=measurements.PLAYS, files=measurements.TOURNAMENT_FILES,
                leave_out=measurements.AGENTS)
    return Measurement(
        f"{method.id}-{game}", f"{method.name}: trained on {game}, then played against "
        + ", ".join(o for o, _ in OPPONENTS), tuple(commands), partial(parse, method.id, game),
        (measured, *measurements.agents_of(game, [o for o, _ in OPPONENTS]), play),
        dear="a training run and its tournaments: 20 minutes to an hour or more")


def trained_steps(folder: Path) -> int:
    """How far the run trained: the last evaluation's `steps` in run/eval.csv (PPO: learner
    steps; afterstate: heuristic games recorded)."""
    with (folder / "run" / "eval.csv").open(encoding="utf-8") as file:
        return max(int(row["steps"]) for row in csv.DictReader(file))


def parse(method_id: str, game: str, folder: Path, outputs: list[str]) -> Figures:
    """The steps trained, the model's `about` of its run where it was exported, and each
    trained agent's figures against each opponent (its tournament summary)."""
    figures: Figures = {"method": method_id, "game": game,
                        "trained_steps": trained_steps(folder), "results": {}}
    if (folder / "model.npz").exists():
        figures["trained"] = parsers.model_about(folder, outputs)["trained"]
    for agent_folder in sorted(folder.glob("*-vs-*")):
        label, _, opponent = agent_folder.name.partition("-vs-")
        summary = parsers.tournament(folder, outputs, out=agent_folder.name)
        mine = next(v for k, v in summary["agents"].items() if k != opponent)
        figures["results"].setdefault(label, {})[opponent] = mine
    return figures


def trained_on(record: Record) -> str:
    """What the run trained on: env steps (after the imitation's games, where there was one),
    or the heuristic games an afterstate value was fitted on."""
    figures = record["figures"]
    steps = figures["trained_steps"]
    if figures["method"] == "afterstate":
        return f"{steps:,} heuristic games"
    imitated = (figures.get("trained") or {}).get("imitation_games")
    return f"{steps:,} env steps" + (f" after imitating {imitated:,} heuristic games"
                                      if imitated else "")


def result_cell(result: dict | None) -> str:
    if result is None:
        return "-"
    return f"{pct(result['win_rate'])} {interval(result['low'], result['high'])}"


def agent_rows(method: Method, game: str, cells) -> list[list[str]]:
    """One row per agent the method's run gives (the afterstate run: two): its name, the
    command that trains it, then `cells(agent)`, the rest of the row."""
    command = f"`{method.train_command(game).replace(' --out run --no-progress', '')}`"
    rows = []
    for agent in agents_of_method(method):
        searched = agent == SEARCH_AGENT
        rows.append([LEARNED_SEARCH if searched else method.name,
                     command + (" + the shipped search settings" if searched else ""),
                     *cells(agent)])
    return rows


def baseline_rows(record: Record) -> list[list[str]]:
    """The rows of a measured run: what it trained on, how long, and each agent's results."""
    figures = record["figures"]
    method = next(m for m in METHODS if m.id == figures["method"])

    def cells(agent: str) -> list[str]:
        results = figures["results"].get(Path(agent.partition(":")[2]).stem, {})
        return [trained_on(record), duration(record["command_s"][0]),
                *(result_cell(results.get(opponent)) for opponent, _ in OPPONENTS)]
    return agent_rows(method, figures["game"], cells)


def pending_rows(game: str, measurement_id: str) -> list[list[str]]:
    """The rows of a run not measured yet: what it will train, with every figure to come."""
    method = next(m for m in METHODS if f"{m.id}-{game}" == measurement_id)
    return agent_rows(method, game, lambda agent: ["-"] * (2 + len(OPPONENTS)))


COLUMNS = (
    ("method", "how the agent was trained (see the notes below the table)"),
    ("trained by", "the command that trains it (2 players, seed 0, into `run/`; the "
     "measurement's commands under the table export and play it)"),
    ("trained on", "PPO: learner env steps (after imitating the heuristic's games, where "
     "shown); afterstate: the heuristic games its value was fitted on"),
    ("wall time", "of the training command alone on the machine's cores, its periodic "
     "evaluations included"),
    (f"vs {OPPONENTS[0][0]}", f"the trained agent's share of {OPPONENTS[0][1]} games won "
     "against random (a shared victory counts 1/k), seats rotated on the same deals, and its "
     "95% Wilson interval, in %"),
    *((f"vs {opponent}", f"the same over {games} games against {opponent}")
      for opponent, games in OPPONENTS[1:]),
)

NOTES = {
    "ppo-random": "**PPO from random weights**: MaskablePPO (stable-baselines3) self-play "
    "against a pool of its own snapshots, the heuristic and random, from random weights.",
    "ppo-imitation": "**PPO after imitation**: the same, warm-started by imitating 2,000 of the "
    "heuristic's games (behaviour cloning), `huerta train`'s default for Mi Tierra.",
    "afterstate": "**afterstate value**: a network fitted on 2,000 of the heuristic's games to "
    "the chance that each turn's afterstate wins, played by the heuristic's one-turn search "
    "over the turns it considers (in Mi Tierra, over the choices of one decision: a "
    "placement, or the line a market turn starts); a step of policy improvement over the "
    "heuristic, `huerta train`'s default for Finca and Alpujarras.",
    "learned search": "**learned search**: the afterstate value driving the search agent "
    "(truncated rollouts compared by sequential halving, the value's choice as the default "
    "and its win chance scoring cut-off simulations), with the settings the shipped model "
    "declares (where it declares none, as Mi Tierra's policy network, the game's search "
    "settings: `{}`); the shipped `learned` agent of Finca and Alpujarras is this, trained by "
    "the same command ([the learned search](../learned-search.md)).",
    "rllib": "**RLlib PPO**: masked self-play PPO on Ray RLlib (the `ray` extra), its env "
    "runners one per core, from random weights.",
}


def page(game: str) -> Page:
    methods = methods_of(game)
    notes = [NOTES[m.id] for m in methods]
    if has_afterstates(game):
        notes.insert(3, NOTES["learned search"])
    else:
        notes.append(f"There is no afterstate row: {game_name(game)}'s heuristic declares no "
                     "`afterstate_turn`, which the afterstate method and the learned search "
                     f"need; `huerta train {game} --method afterstate` refuses it.")
    ids = tuple(f"{m.id}-{game}" for m in methods)
    return Page(
        f"baselines-{game}",
        tuple(measurement(game, m) for m in methods),
        (f"# Baselines: {game_name(game)}",
         f"What each of huerta's training methods reaches in {game_name(game)}, 2 players: "
         "trained by one command with seed 0 on two cores, then its trained agent played "
         "against random, the heuristic and the search rung (the ladder's top hand-written "
         "rung). A new method is placed among them by training it the same way and playing "
         "the same tournaments (the commands under the table); see [how to read a figure]"
         "(index.md#how-to-read-a-figure).",
         Table(COLUMNS, ids, baseline_rows, pending=partial(pending_rows, game)),
         "\n".join(f"- {note}" for note in notes),
         f"Every row is measured again by `python scripts/results.py baselines-{game} --only "
         f"ID` (IDs as listed under the table), or all of them by `python scripts/results.py "
         f"baselines-{game} --dear`; each is a training run and its tournaments, 20 minutes "
         "to over an hour on two cores."),
        in_progress=game in BEING_MEASURED)


# every game has a page. Those being measured show their rows still to come (each row is a
# training run and tournaments of 20 minutes to two hours, so a page's rows land over several
# sessions, each committed as it is measured): remove a game from here once its page has a
# record of every measurement (tests/test_results_pages.py checks that it has, and that a page
# being measured lacks one)
GAMES = ("finca", "alpujarras", "mi_tierra")
BEING_MEASURED: tuple[str, ...] = ()
PAGES = tuple(page(game) for game in GAMES)
