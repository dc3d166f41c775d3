"""The results pages are generated, not edited (issue 38): every figure in docs/results/*.json
records how it was measured (commands, commit, cores, date, wall seconds, the versions of the
code it measures), each page's markdown and every block the README and docs pages embed is what
`scripts/results.py --render` writes from the JSON, and every figure measured on other code than
today's is marked stale on its page. Nothing is measured here: versions are digests of the code,
computed in a moment."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from results_pages import BLOCKS, PAGES, parsers  # noqa: E402
from results_pages.model import Code, Measurement, Page, Table  # noqa: E402
from results_pages.provenance import REQUIRED, load_records  # noqa: E402
from results_pages.render import (  # noqa: E402
    page_markdown,
    rendered_file,
    replace_blocks,
    shown_output,
)
from results_pages.runner import measure  # noqa: E402
from results_pages.stale import UNRECORDED, changes, mark, unmarked  # noqa: E402

ALL_RECORDS = {name: load_records(page) for name, page in PAGES.items()}


@pytest.fixture(params=list(PAGES), ids=str)
def page(request) -> Page:
    return PAGES[request.param]


def test_every_page_has_a_record_for_every_measurement_or_says_it_is_being_measured(page):
    """A finished page has every figure; a page being measured lacks at least one (or it must
    drop the flag), says how far it is, and lists the command of each figure still to come."""
    records = ALL_RECORDS[page.name]
    missing = [m.id for m in page.measurements if m.id not in records]
    if not page.in_progress:
        assert page.json_path.is_file(), f"no {page.json_path.relative_to(ROOT)}"
        assert not missing, (f"docs/results/{page.name}.json has no record of "
                             f"{', '.join(missing)}: python scripts/results.py {page.name} "
                             f"--only {' '.join(missing)}")
        return
    assert missing, (f"docs/results/{page.name}.json has a record of every measurement: the page "
                     "is finished, so drop its in_progress flag (baselines: BEING_MEASURED)")
    text = page.markdown_path.read_text(encoding="utf-8")
    done = len(page.measurements) - len(missing)
    assert f"**Being measured**: {done} of {len(page.measurements)} measurements" in text
    for measurement_id in missing:
        assert (f"- `{measurement_id}`: not measured yet; `python scripts/results.py {page.name} "
                f"--only {measurement_id}` measures it.") in text


def test_every_record_says_how_it_was_measured(page):
    for measurement_id, record in ALL_RECORDS[page.name].items():
        where = f"docs/results/{page.name}.json: {measurement_id}"
        assert set(REQUIRED) <= set(record), f"{where} lacks {set(REQUIRED) - set(record)}"
        assert record["commands"] and all(isinstance(c, str) and c for c in record["commands"])
        assert record["commit"], where
        assert isinstance(record["cores"], int) and record["cores"] >= 1, where
        datetime.fromisoformat(record["date"])  # a date, or a time, in ISO 8601
        assert record["wall_s"] is None or record["wall_s"] >= 0, where
        assert record["versions"] and all(isinstance(v, str) and v
                                          for v in record["versions"].values()), where
        assert record["figures"] or measurement_id == "benchmark-examples", where


def test_the_page_is_what_its_json_renders(page):
    expected = page_markdown(page, ALL_RECORDS[page.name])
    assert page.markdown_path.read_text(encoding="utf-8") == expected, (
        f"docs/results/{page.name}.md is not what its JSON renders: figures come from "
        f"measurements, text from scripts/results_pages/{page.name}.py; after editing either, "
        f"run python scripts/results.py {page.name} --render")


@pytest.mark.parametrize("file", sorted({block.file for block in BLOCKS}))
def test_every_embedded_block_is_what_the_json_renders(file):
    blocks = [block for block in BLOCKS if block.file == file]
    assert (ROOT / file).read_text(encoding="utf-8") == rendered_file(file, blocks, ALL_RECORDS), (
        f"{file}'s results blocks ({', '.join(b.name for b in blocks)}) are not what the "
        "results JSON renders: run python scripts/results.py all --render")


def test_every_figure_measured_on_other_code_is_marked_stale(page):
    problems = unmarked(page, ALL_RECORDS[page.name])
    assert not problems, "\n".join(problems)


def test_the_readme_shows_the_solo_comparison_as_the_records_say():
    """The README's solo claim says whether the learned constants' gain is shown, from the
    intervals themselves."""
    training = ALL_RECORDS["training"]
    learned, heuristic = training["solo-learned"]["figures"], training["solo-heuristic"]["figures"]
    assert learned["games"] == heuristic["games"] >= 1000 and learned["seed"] == heuristic["seed"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = learned["low"] > heuristic["high"]
    assert ("the gain is shown" in readme) == shown
    assert ("the gain is not shown" in readme) == (not shown)


# --- the machinery, on a page of its own -------------------------------------------------------
def _fake_page(tmp_path: Path) -> tuple[Page, Path]:
    """A page of one measurement: a Python one-liner that prints a figure, measuring a file of
    `tmp_path` (so the test can change the code it measures)."""
    measured = tmp_path / "measured.py"
    measured.write_text("ANSWER = 42\n")
    measurement = Measurement(
        "answer", "the answer, printed", ("python -c \"print('answer', 6 * 7)\"",),
        lambda folder, outputs: {"answer": int(outputs[0].split()[1])},
        (Code("the measured file (finca)", "finca", files=(str(measured),)),))
    table = Table((("answer", "what was printed"),), ("answer",),
                  lambda record: [[str(record["figures"]["answer"])]])
    return Page("fake", (measurement,), ("# Fake", table)), measured


def test_a_measurement_runs_and_its_record_says_how(tmp_path):
    page, _ = _fake_page(tmp_path)
    lines = []
    record = measure(page.measurements[0], echo=lines.append)
    assert record["figures"] == {"answer": 42}
    assert set(REQUIRED) <= set(record) and record["cores"] >= 1 and record["wall_s"] >= 0
    assert len(record["command_s"]) == 1 and 0 <= record["command_s"][0] <= record["wall_s"]
    assert record["versions"] == page.measurements[0].versions()
    assert any("answer 42" in line for line in lines)  # progress, as it ran
    text = page_markdown(page, {"answer": record})
    assert "| 42 |" in text and "answer: what was printed" in text
    assert " **stale** |" not in text and "**Stale**" not in text


def test_a_page_being_measured_shows_its_rows_to_come_and_how_far_it_is(tmp_path):
    """A page in progress renders a row for a measurement with no record (from the table's
    `pending`), says how many have a record, and lists the missing one's command; once the
    record lands the row is its figures."""
    from dataclasses import replace

    page, _ = _fake_page(tmp_path)
    table = replace(page.parts[1], pending=lambda measurement_id: [[f"({measurement_id})"]])
    page = replace(page, parts=(page.parts[0], table), in_progress=True)
    text = page_markdown(page, {})
    assert "**Being measured**: 0 of 1 measurements have a record" in text
    assert "| (answer) | *not measured yet* |" in text
    assert "*not measured yet*: a row the page still waits for" in text
    assert ("- `answer`: not measured yet; `python scripts/results.py fake --only answer` "
            "measures it.") in text
    record = measure(page.measurements[0], echo=lambda line: None)
    text = page_markdown(page, {"answer": record})
    assert "**Being measured**: 1 of 1" in text and "| 42 | `" in text
    assert "(answer)" not in text and "| *not measured yet* |" not in text
    bad = replace(page, parts=(page.parts[0], replace(table, pending=lambda m: [["a", "b"]])))
    with pytest.raises(ValueError, match="a row of 2 cells for 1 columns"):
        page_markdown(bad, {})


def test_a_changed_code_makes_its_figure_stale_until_marked_or_measured_again(tmp_path):
    page, measured = _fake_page(tmp_path)
    records = {"answer": measure(page.measurements[0], echo=lambda line: None)}
    assert unmarked(page, records) == [] and mark(page, records) == []
    measured.write_text("ANSWER = 43\n")
    (problem,) = unmarked(page, records)
    assert "'answer'" in problem and "the measured file (finca)" in problem
    assert "python scripts/results.py fake --only answer" in problem
    assert len(mark(page, records)) == 1 and unmarked(page, records) == []
    text = page_markdown(page, records)
    assert " **stale** |" in text and "**Stale**" in text and "the measured file (finca)" in text
    measured.write_text("ANSWER = 42\n")  # the code as measured: the mark goes
    mark(page, records)
    assert "stale" not in records["answer"]
    assert " **stale** |" not in page_markdown(page, records)


def test_a_figure_recorded_before_versions_is_stale():
    page, = [p for p in PAGES.values() if p.name == "speed"]
    record = {"versions": {name: UNRECORDED
                           for name in page.measurement("instructions").versions()}}
    assert len(changes(page.measurement("instructions"), record)) == 3


def test_a_missing_block_is_refused():
    with pytest.raises(ValueError, match="no block"):
        replace_blocks("no markers here", list(BLOCKS[:1]), ALL_RECORDS)


def test_the_parsers_read_the_printed_lines():
    ppo = ("update 73/73  steps 299008  steps/s 2045  games 1200  win rate 0.8\n"
           "trained 299008 steps in 146 s (2045 steps/s)\n"
           "greedy against random: 185/200 won = 92.5% [88.0%, 95.4%]\n"
           "greedy against heuristic: 18/200 won = 9.0% [5.8%, 13.8%]\n")
    assert parsers.ppo_masked(Path("."), [ppo]) == {
        "steps": 299008, "train_seconds": 146, "steps_per_s": 2045,
        "greedy": {"random": {"wins": 185, "games": 200},
                   "heuristic": {"wins": 18, "games": 200}}}
    line = ("mi_tierra 2p engine, 8 games a pass: old 78,115,791, new 77,571,801 instructions a "
            "pass (-0.70%)")
    assert parsers.instructions(Path("."), [line])["rows"] == [
        {"game": "mi_tierra", "players": 2, "mode": "engine", "games": 8, "old": 78115791,
         "new": 77571801}]


def test_a_tournament_summary_becomes_figures(tmp_path):
    out = tmp_path / parsers.TOURNAMENT_OUT
    out.mkdir()
    stats = [{"label": label, "games": 10, "wins": wins, "win_rate": wins / 10, "ci_low": 0.1,
              "ci_high": 0.9, "mean_score": 50.0, "mean_rank": 1.5}
             for label, wins in (("heuristic", 7.5), ("random", 2.5))]
    (out / "summary.json").write_text(json.dumps({"game": "finca", "players": 2,
                                                  "stats": stats}))
    figures = parsers.tournament(tmp_path, [])
    assert figures["agents"]["heuristic"]["wins"] == 7.5 and figures["players"] == 2


def test_an_example_shows_the_output_without_progress_bars_or_temporary_files():
    output = ("\nbenchmark finca heuristic: 0it [00:00, ?it/s]\n"
              "benchmark finca heuristic: 8it [00:00, 11.57it/s, rating 492 ±603]\n"
              "agent       rating\nheuristic    903.1\nwritten: out.json\n")
    assert shown_output(output) == "agent       rating\nheuristic    903.1"


def _summary(folder: Path, agent: str, opponent: str, wins: float, games: int = 10) -> None:
    folder.mkdir()
    stats = [{"label": label, "games": games, "wins": w, "win_rate": w / games, "ci_low": 0.1,
              "ci_high": 0.9, "mean_score": 50.0, "mean_rank": 1.5}
             for label, w in ((agent, wins), (opponent, games - wins))]
    (folder / "summary.json").write_text(json.dumps({"game": "finca", "players": 2,
                                                     "stats": stats}))


def test_a_baseline_reads_its_run_and_one_row_per_agent_it_trained(tmp_path):
    """The afterstate run's measurement plays two agents (the value alone and the learned
    search); each gets a row with its figures against each opponent, none mixed up."""
    from results_pages import baselines

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "eval.csv").write_text("steps,win_rate_vs_random\n500,0.9\n2000,1.0\n")
    wins = {("model", "random"): 9, ("model", "heuristic"): 6, ("model", "search"): 3,
            ("search-model", "random"): 10, ("search-model", "heuristic"): 8,
            ("search-model", "search"): 5}
    for (label, opponent), won in wins.items():
        _summary(tmp_path / f"{label}-vs-{opponent}", f"learned:{label}.npz", opponent, won)
    figures = baselines.parse("afterstate", "finca", tmp_path, [])
    assert figures["trained_steps"] == 2000
    assert {(label, opponent): result["wins"] for label, results in figures["results"].items()
            for opponent, result in results.items()} == wins
    record = {"figures": figures, "command_s": [754.0]}
    value, searched = baselines.baseline_rows(record)
    assert value[0] == "afterstate value" and searched[0] == baselines.LEARNED_SEARCH
    assert value[2] == "2,000 heuristic games" and value[3] == "12 min 34 s"
    assert [cell.split()[0] for cell in value[4:]] == ["90.0%", "60.0%", "30.0%"]
    assert [cell.split()[0] for cell in searched[4:]] == ["100.0%", "80.0%", "50.0%"]
    # every game's page has a row for each method that applies to it
    assert [m.id for m in baselines.methods_of("mi_tierra")] == [
        "ppo-random", "ppo-imitation", "afterstate", "rllib"]


def test_a_baseline_not_measured_yet_has_the_rows_its_run_will_give():
    """A page being measured shows each method's rows before its run: the afterstate run's two
    (the value alone and the learned search), each with its training command and no figures."""
    from results_pages import baselines

    value, searched = baselines.pending_rows("alpujarras", "afterstate-alpujarras")
    assert value[0] == "afterstate value" and searched[0] == baselines.LEARNED_SEARCH
    assert value[1] == "`huerta train alpujarras --method afterstate --seed 0`"
    assert all(len(row) == len(baselines.COLUMNS) and set(row[2:]) == {"-"}
               for row in (value, searched))
    (rllib,) = baselines.pending_rows("mi_tierra", "rllib-mi_tierra")
    assert rllib[:2] == ["RLlib PPO", "`huerta train mi_tierra --backend rllib --seed 0`"]
