"""The documentation site: it builds with warnings as errors, its links hold, and its generated
pages say what the code says (scripts/docs_site.py, scripts/check_site_links.py, mkdocs.yml)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from script_modules import load_script

from huerta.envs.core.registry import game_names, get_game

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


docs_site = load_script("docs_site")
links = load_script("check_site_links")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built as `make docs` builds it (strict), into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return out


def test_the_site_builds_strict_and_every_local_link_resolves(site):
    problems, _ = links.broken_links(site)
    assert problems == []
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert {"index.html", "gymnasium.html", "agents.html", "training.html", "tournaments.html",
            "cli.html", "reference/cli.html", "reference/api.html", "results/index.html",
            "results/agents.html", "results/training.html", "results/speed.html"} <= pages
    assert {f"games/{game}.html" for game in game_names()} <= pages  # a page per game
    assert not any(page.startswith("game_notes/") for page in pages)  # notes, not pages
    home = (site / "index.html").read_text(encoding="utf-8")
    for game in game_names():  # the generated nav and games table link every game's page
        assert home.count(f'href="games/{game}.html"') >= 2, game


def test_the_link_checker_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "index.html").write_text(
        '<h1 id="top">t</h1><a href="page.html#here">ok</a><a href="#top">ok</a>'
        '<a href="missing.html">bad</a><a href="page.html#nowhere">bad</a>'
        '<img src="https://example.org/x.png">'
    )
    (tmp_path / "page.html").write_text('<p id="here">p</p>')
    problems, external = links.broken_links(tmp_path)
    assert len(problems) == 2
    assert "missing.html" in problems[0] and "nowhere" in problems[1]
    assert external == 1
    assert links.main([str(tmp_path)]) == 1


@pytest.mark.parametrize("game", list(docs_site.GAMES))
def test_a_game_page_shows_the_codes_tables_and_facts(game):
    page = docs_site.game_page(game)
    spec = get_game(game)
    tables = docs_site.load_table_script(game)
    # the action and observation tables are the very lines the specification's generator makes
    for name in ("actions", "obs_layout"):
        assert "\n".join(tables.TABLES[name]()) in page
    for title in ("At a glance", "Actions", "Observation", "Rewards and episode end",
                  "Hidden information and chance", "Gaps and decisions", "Rule clauses"):
        assert f"\n## {title}\n" in page
    assert f"`Discrete({spec.num_actions})`" in page
    assert f"`float32[{spec.observation_size}]`" in page
    for name, _, _ in spec.observation_layout:
        assert f"`{name}`" in page
    for option in spec.options:
        assert f"`{option}`" in page
    assert f"](../{docs_site.GAMES[game][2]})" in page  # the picture
    assert (ROOT / "docs" / docs_site.GAMES[game][2]).is_file()


def test_a_game_page_shows_the_tables_of_the_code_not_of_a_stale_document():
    tables = docs_site.load_table_script("finca")
    current = "\n".join(tables.TABLES["actions"]())
    stale = tables.GENERATED.doc.read_text(encoding="utf-8").replace("`DELIVER`", "`STALE`")
    assert current not in stale
    assert current in docs_site.fresh_spec_text("finca", stale)


def test_the_command_reference_has_every_commands_help():
    from huerta.training.cli import build_parser

    page = docs_site.cli_page()
    commands = ["demo", "bench", "play", "tournament", "benchmark", "leaderboard", "train",
                "export", "main", "replay", "serve"]
    for name in commands:
        assert f"\n## huerta {name}\n" in page
        assert f"usage: huerta {name}" in page
    assert set(commands) == set(build_parser()._subparsers._group_actions[0].choices)
    assert "--resume" in page and "--gif" in page


def test_readme_links_are_rewritten_for_the_page_they_land_on():
    text = "![p](docs/finca.png) [spec](seeds/mi_tierra.md#actions) [w](https://x.org) [a](#b)"
    assert docs_site.rewrite_links(text, "training.md") == (
        "![p](finca.png) [spec](games/mi_tierra.md#actions) [w](https://x.org) [a](#b)"
    )
    assert docs_site.rewrite_links("![p](docs/finca.png)", "games/finca.md") == (
        "![p](../finca.png)"
    )
    with pytest.raises(ValueError, match=r"no site page for the link 'scripts/x\.py'"):
        docs_site.rewrite_links("[s](scripts/x.py)", "index.md")


def test_an_include_line_takes_the_readme_section_without_its_heading():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = docs_site.readme_section("The two commands", "index.md")
    assert "## The two commands" not in section
    assert section.splitlines()[1].startswith("make run")
    assert section.strip().splitlines()[-1] in readme
    with pytest.raises(ValueError, match="has no section '## Nowhere'"):
        docs_site.readme_section("Nowhere", "index.md")


def test_sections_ignore_headings_inside_code_blocks():
    text = "# T\n## A\none\n```\n## not a heading\n```\n### sub\n## B\ntwo\n# Other\nthree\n"
    found = docs_site.sections(text)
    assert found == {"A": "one\n```\n## not a heading\n```\n### sub", "B": "two"}


def test_every_hand_written_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        if page.is_relative_to(docs_site.NOTES):  # placed in the game pages, not pages
            continue
        assert page.relative_to(ROOT / "docs").as_posix() in nav


def test_the_games_nav_comes_from_the_registry_not_a_hand_kept_list():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^  - Games: \[\]", config, re.M)
    assert "games/" not in config  # no game page is named by hand
    nav = docs_site.fill_nav([{"Home": "index.md"}, {"Games": []}, {"Agents": "agents.md"}])
    assert nav[1]["Games"] == [{get_game(g).display_name: f"games/{g}.md"} for g in game_names()]
    with pytest.raises(ValueError, match="must be empty"):
        docs_site.fill_nav([{"Games": [{"Finca": "games/finca.md"}]}])
    with pytest.raises(ValueError, match="no 'Games: \\[\\]' section"):
        docs_site.fill_nav([{"Home": "index.md"}])


def test_the_games_table_has_every_game():
    table = docs_site.games_table("index.md")
    for game in game_names():
        spec = get_game(game)
        assert f"[{spec.display_name}](games/{game}.md)" in table
        assert f"`{spec.env_module}`" in table and f"`{spec.gym_id}`" in table
    assert "](../games/finca.md)" in docs_site.games_table("results/index.md")


@pytest.mark.parametrize("game", game_names())
def test_a_game_page_says_how_it_plays_and_ends_with_its_version_history(game):
    page = docs_site.game_page(game)
    assert "\n## How it plays\n" in page
    history = page.index("\n## Version history\n")
    assert history > page.index("\n## Rule clauses\n")  # after the specification
    assert "| date | commit | change | effect on play |" in page[history:]
    assert "v0" in page[history:]


def test_a_game_without_notes_or_a_version_history_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(docs_site, "NOTES", tmp_path)
    with pytest.raises(ValueError, match=r"finca: no .*finca\.md"):
        docs_site.game_notes("finca")
    (tmp_path / "finca.md").write_text("## How it plays\n\nWindmills.\n")
    with pytest.raises(ValueError, match="no section '## Version history'"):
        docs_site.game_notes("finca")
