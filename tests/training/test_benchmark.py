"""`huerta benchmark`: anchored ratings against the ladder, for codes, user code and models.

Small game counts throughout (a few Finca games per rung), so the intervals are wide; what is
checked is that the scale is anchored (random lands at 0, the heuristic at its reference, a
second run inside the first's interval), that every AGENT form plays, that bad AGENT inputs are
one clear line, and that the JSON holds the table's numbers.
"""

from __future__ import annotations

import json
import math
import re
import sys
import textwrap

import numpy as np
import pytest

from huerta.agents.base import Agent
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names, own_player_counts
from huerta.training.cli import main
from huerta.training.evaluation.anchored import AnchoredFit, pair_table
from huerta.training.evaluation.benchmark import benchmark
from huerta.training.evaluation.benchmark_table import RATING_LEGEND, RUNG_LEGEND, format_benchmark
from huerta.training.evaluation.ladder import (
    BENCHMARK_SEED,
    ladder,
    load_ladder_file,
    reference_ratings,
)

GAMES = 12  # per rung: 6 deals x 2 seats

pytestmark = pytest.mark.usefixtures("quick_ladder")  # random and heuristic only


def run(argv, capsys) -> tuple[int, str, str]:
    """main(argv) in this process: (exit status, stdout, stderr); never a traceback."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


@pytest.fixture
def user_folder(tmp_path, monkeypatch):
    """A current folder for user modules, with sys.path restored afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return tmp_path


def write_module(folder, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")
    return name


FIRST_LEGAL = """
    import numpy as np

    VALUE = 3

    def first_legal(observation):
        return int(np.flatnonzero(observation["action_mask"])[0])

    def say_hello(observation):
        return "hello"

    class Seeded:
        def __init__(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def reset(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act(self, observation, view=None):
            legal = np.flatnonzero(observation["action_mask"])
            return int(legal[self.rng.integers(len(legal))])
"""


# --- the fit ---------------------------------------------------------------------------------


def test_the_fit_recovers_a_known_rating_and_keeps_a_clean_sweep_finite():
    # 60 wins and 40 losses against an anchor at 100, in 100 separate deals
    games = [(d, [0, 1], [0, 1] if d < 60 else [1, 0]) for d in range(100)]
    fitted = AnchoredFit(pair_table(games, 2), {1: 100.0}).fit()[0]
    assert fitted.rating == pytest.approx(100 + 400 * math.log10(60.5 / 40.5), abs=0.01)
    assert fitted.low < fitted.rating < fitted.high
    sweep = [(d, [0, 1], [0, 1]) for d in range(50)]
    fitted = AnchoredFit(pair_table(sweep, 2), {1: 0.0}).fit()[0]
    # the prior's one virtual draw: 50.5 points of 51
    assert fitted.rating == pytest.approx(400 * math.log10(50.5 / 0.5), abs=0.01)
    assert math.isfinite(fitted.high) and fitted.low > 0


def test_games_of_one_deal_widen_the_interval():
    """The same 100 outcomes, once as 100 deals and once as 25 deals of 4 identical games
    (what seat rotations of a deal can look like): the second interval is wider."""
    rng = np.random.default_rng(3)
    wins = rng.random(25) < 0.5
    independent = [(d, [0, 1], [0, 1] if rng.random() < 0.5 else [1, 0]) for d in range(100)]
    clustered = [(d, [0, 1], [0, 1] if wins[d] else [1, 0]) for d in range(25) for _ in range(4)]
    a = AnchoredFit(pair_table(independent, 2), {1: 0.0}).fit()[0]
    b = AnchoredFit(pair_table(clustered, 2), {1: 0.0}).fit()[0]
    assert b.design_effect > 2 > a.design_effect
    assert b.high - b.low > 1.5 * (a.high - a.low)


def test_an_agent_without_games_against_the_ladder_is_not_rated():
    games = [(0, [0, 1], [0, 1]), (1, [2, 3], [1, 0])]
    fitted = AnchoredFit(pair_table(games, 4), {1: 0.0}).fit()
    assert set(fitted) == {0}


# --- the ladder ------------------------------------------------------------------------------


# every game at its own player counts (the solo game's ladder keeps win rates: the next test)
@pytest.mark.parametrize(("game", "players"), [(game, n) for game in game_names()
                                               for n in own_player_counts(game)])
def test_random_is_zero_and_the_heuristic_is_on_the_ladder(game, players):
    rungs = ladder(game, players)
    assert rungs[0].code == "random" and rungs[0].rating == 0.0
    heuristic = reference_ratings(game, players).get("heuristic")
    assert heuristic is not None and heuristic > 200  # it beats random nearly always


def test_the_solo_ladder_keeps_win_rates():
    rungs = {r.code: r for r in ladder("alpujarras", 1)}
    assert rungs["random"].win_rate == 0.0 and rungs["random"].games == 200
    assert 0.05 < rungs["heuristic"].win_rate < 0.4


# --- anchored ratings ------------------------------------------------------------------------


def test_random_benchmarked_against_the_ladder_lands_at_zero():
    result = benchmark("finca", "random", games=GAMES, full=True)
    assert result.low < 0.0 < result.high
    assert [r.code for r in result.rungs][:2] == ["random", "heuristic"]
    assert all(r.games == GAMES for r in result.rungs)


def test_the_heuristic_lands_at_its_reference_and_again_with_other_deals():
    reference = reference_ratings("finca", 2)["heuristic"]
    first = benchmark("finca", "heuristic", games=8)
    assert first.low <= reference <= first.high
    second = benchmark("finca", "heuristic", games=8, seed=BENCHMARK_SEED + 500)
    assert first.low <= second.rating <= first.high
    assert second.rating != first.rating  # other deals, other games


def test_games_are_rounded_up_to_whole_deals_and_every_rival_seat_counts():
    a = benchmark("finca", "random", players=3, games=4, full=True)
    assert a.deals == 2 and all(r.games == 6 for r in a.rungs)  # 2 deals x 3 seats
    assert all(r.wins + r.draws + r.losses == 2 * r.games for r in a.rungs)  # 2 rivals a game


# --- every AGENT form ------------------------------------------------------------------------


def test_a_user_function_is_benchmarked_from_the_command_line(user_folder, capsys):
    module = write_module(user_folder, "bench_user_policy", FIRST_LEGAL)
    out_json = user_folder / "result.json"
    code, out, err = run(["benchmark", "finca", f"{module}:first_legal", "--games", "4",
                          "--quiet", "--no-db", "--json", str(out_json)], capsys)
    assert code == 0, err
    assert f"{module}:first_legal" in out and "heuristic" in out
    assert RATING_LEGEND in out and RUNG_LEGEND in out
    data = json.loads(out_json.read_text())
    assert data["agent"]["kind"] == "module" and len(data["agent"]["version"]) == 12


def test_a_user_class_and_object_and_workers(user_folder):
    module = write_module(user_folder, "bench_user_class", FIRST_LEGAL)
    one = benchmark("finca", f"{module}:Seeded", games=4)
    two = benchmark("finca", f"{module}:Seeded", games=4, workers=2)  # imported in the workers
    assert one.to_json() == two.to_json()

    class FirstLegal(Agent):
        def act(self, observation, view=None):
            return int(np.flatnonzero(observation["action_mask"])[0])

    result = benchmark("finca", FirstLegal(), games=4, full=True)
    assert result.agent.kind == "object" and result.agent.code.endswith("FirstLegal")
    assert sum(r.games for r in result.rungs) == 8
    with pytest.raises(InvalidConfigError, match="does not pickle"):
        benchmark("finca", lambda obs: 0, games=2, workers=2)


def test_a_model_file_is_benchmarked(user_folder, capsys):
    from sb3_contrib import MaskablePPO

    from huerta.training.selfplay import SelfPlayEnv

    env = SelfPlayEnv("finca", 2, pool_dir=user_folder)
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32,
                policy_kwargs={"net_arch": [8]}).save(user_folder / "tiny.zip")
    code, out, err = run(["benchmark", "finca", "tiny.zip", "--games", "2", "--quiet",
                          "--no-db"], capsys)
    assert code == 0, err
    assert "ppo:tiny.zip" in out
    result = benchmark("finca", "ppo:tiny.zip", games=2)
    assert result.agent.kind == "registry" and len(result.agent.version) == 12


BAD_AGENTS = {
    "unknown-module": ("no_such_module_here:policy", "no module named 'no_such_module_here'"),
    "missing-function": ("{module}:nothing", "has no attribute 'nothing'"),
    "not-callable": ("{module}:VALUE", "is not callable"),
    "bad-answer": ("{module}:say_hello", "'hello'"),
    "missing-zip": ("missing_model.zip", "no trained model"),
    "not-an-agent": ("wizardry", "unknown agent 'wizardry'"),
    "bad-code-argument": ("heuristic:3", "heuristic (takes no argument)"),
}


@pytest.mark.parametrize("case", BAD_AGENTS, ids=list(BAD_AGENTS))
def test_a_bad_agent_is_one_clear_line(case, user_folder, capsys):
    module = write_module(user_folder, "bench_bad_inputs", FIRST_LEGAL)
    spec, message = BAD_AGENTS[case]
    spec = spec.format(module=module)
    code, out, err = run(["benchmark", "finca", spec, "--games", "2", "--quiet"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("huerta benchmark: error: ") and message in lines[0], err
    assert spec.split(":")[0] in lines[0]


def test_the_solo_game_is_a_win_rate_against_zara():
    result = benchmark("alpujarras-solo", "random", games=3)
    assert result.players == 1 and result.games == 3 and result.rating == 0.0
    table = result.table()
    assert "win %" in table and "heuristic (ladder)" in table
    assert result.to_json()["win_rate"] == 0.0


# --- tables and JSON -------------------------------------------------------------------------


def numbers(line: str) -> list[str]:
    return re.findall(r"[-+]?\d+(?:\.\d+)?", line.replace(",", " "))


def test_the_json_has_the_numbers_of_the_table(tmp_path, capsys):
    path = tmp_path / "bench.json"
    code, out, _ = run(["benchmark", "finca", "random", "--games", "4", "--quiet", "--no-db",
                        "--json", str(path)], capsys)
    assert code == 0
    data = json.loads(path.read_text())
    lines = out.splitlines()
    agent_table = lines.index(next(line for line in lines if line.startswith("agent ")))
    rung_table = lines.index(next(line for line in lines if line.startswith("rung ")))
    assert numbers(lines[agent_table + 2]) == [f"{data['rating']:.1f}", f"{data['low']:.1f}",
                                               f"{data['high']:.1f}", str(data["games"])]
    for k, rung in enumerate(data["rungs"]):
        line = lines[rung_table + 2 + k]
        assert line.startswith(rung["code"] + " ")
        assert numbers(line) == [
            f"{rung['rating']:.1f}", str(rung["games"]), str(rung["wins"]), str(rung["draws"]),
            str(rung["losses"]), f"{100 * rung['score_share']:.1f}",
            f"{100 * rung['share_low']:.1f}", f"{100 * rung['share_high']:.1f}",
            f"{rung['mean_margin']:+.1f}",
        ]


def test_columns_fit_a_long_agent_name():
    result = benchmark("finca", "random", games=2)
    result.agent = type(result.agent)("ppo:/very/long/path/to/a/training/run/best_model.zip",
                                      result.agent.version, "registry")
    lines = format_benchmark(result).splitlines()
    header, rule, row = lines[1:4]
    assert row.startswith(result.agent.code + " ") and len(row) == len(header) == len(rule)


# --- choosing rungs, and the shipped ladder ---------------------------------------------------


def test_rungs_pick_part_of_the_ladder_and_unknown_ones_are_named(tmp_path, capsys):
    out_json = tmp_path / "only_random.json"
    code, out, err = run(["benchmark", "finca", "heuristic", "--games", "2", "--rungs",
                          "random", "--quiet", "--no-db", "--json", str(out_json)], capsys)
    assert code == 0, err
    assert [r["code"] for r in json.loads(out_json.read_text())["rungs"]] == ["random"]
    code, out, err = run(["benchmark", "finca", "heuristic", "--rungs", "random,wizard",
                          "--no-db"], capsys)
    assert code == 2 and out == ""
    assert "wizard is not a rung" in err and "has: random, heuristic" in err


def test_the_shipped_ladder_has_learned_and_search_rungs_above_the_heuristic(monkeypatch):
    """The learned and search rungs were measured for every game's 2-player ladder (scripts/
    reference_ladder.py), the search rung measurably above the heuristic; where the shipped
    learned agent plays the learned search (its value file declares search settings) it was
    measured against the search rung and rated above it (Finca's interval clears the search
    rung; Alpujarras' 200 games still overlap it, docs/learned-search.md). $HUERTA_LADDER swaps
    the file."""
    from huerta.agents.learned import load_model, shipped_model
    from huerta.agents.learned_search import SearchConfig

    monkeypatch.delenv("HUERTA_LADDER")
    for game in game_names():
        rungs = {r.code: r for r in ladder(game, 2)}
        assert list(rungs)[:2] == ["random", "heuristic"]
        assert set(rungs) == {"random", "heuristic", "learned", "search"}
        heuristic, learned, search = rungs["heuristic"], rungs["learned"], rungs["search"]
        assert search.low > heuristic.rating  # measurably above the rung below
        assert learned.games and learned.rating > heuristic.rating
        about = getattr(load_model(shipped_model(game, 2)), "about", {})
        if SearchConfig.of(game, about) is not None:
            entry = load_ladder_file()["ladders"][game]["2"]["learned"]
            assert entry["opponents"] == ["search"], game
            assert learned.rating > search.rating, game
    assert [r.code for r in ladder("alpujarras", 1)] == ["random", "heuristic", "learned"]
