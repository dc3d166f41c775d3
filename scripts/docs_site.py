"""MkDocs hooks that build the documentation site's generated parts from the project's own files.

mkdocs.yml names this file under `hooks:`. It does four things, so that no page of the site can
drift from the code or the README:

* **A page per game** (`games/<game>.md`), made at build time: the game's description (the
  docstring of its PettingZoo entry module, as PettingZoo's classic pages do), a picture, the
  declared facts of its `GameSpec`, a first example, the hand-written notes of
  `docs/game_notes/<game>.md` (how it plays), then its specification (`seeds/<game>.md`)
  section by section, every generated table re-made by the same function of
  `scripts/<game>_tables.py` that writes the specification's tables, and last the notes'
  version history. A registered game without notes or without a version history is an error.
* **The games' navigation and table**: the `Games` section of mkdocs.yml's `nav` is left empty
  there and filled here from the registry, one entry per game, and a line
  `<!-- games: table -->` in a page becomes the table of every game (players, PettingZoo entry
  module, Gymnasium ids), so no list of games is kept by hand.
* **The command-line reference** (`reference/cli.md`): the `--help` text of every `huerta`
  command, from the parser the command itself uses.
* **README sections in hand-written pages**: a line `<!-- include: README.md#Title -->` is
  replaced by the README's section `## Title` (without its heading), its links rewritten for the
  page (pictures under docs/ and the specifications under seeds/ become site links).

It also lays out `build/docs_src/huerta/` (links to envs/, agents/ and training/) so that
mkdocstrings reads the package under its import names; the editable install maps those names
with an import hook that static analysis cannot follow.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import posixpath
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def _games() -> dict[str, tuple[str, str, str]]:
    """game -> (title, PettingZoo entry module, picture under docs/), from every registered
    game's spec (`GameSpec.title`, `env_module`) and the docs' own convention for the picture
    (`docs/<game>.png`, which scripts/<game>_pictures.py draws)."""
    from huerta.envs.core.registry import game_specs

    return {spec.name: (spec.display_name, spec.env_module, f"{spec.name}.png")
            for spec in game_specs()}


GAMES: dict[str, tuple[str, str, str]] = _games()

# the specification's sections in the order a game page shows them; a section missing from a
# specification is skipped, one the page does not name is an error (so none is left out)
SPEC_SECTIONS = (
    "Actions",
    "Observation",
    "Rewards and episode end",
    "Hidden information and chance",
    "Gaps and decisions",
    "Where our data is a decision, not the printed game",
    "Rule clauses",
    "Scenario tests",
    "Component data",
    "How the balance was checked",
)

NOTES = ROOT / "docs" / "game_notes"  # docs/game_notes/<game>.md: hand-written, not pages
HISTORY = "Version history"  # the notes' section that closes a game page
NAV_GAMES = "Games"  # the nav section filled from the registry

GAMES_TABLE = "<!-- games: table -->"

INCLUDE = re.compile(r"^<!-- include: (?P<file>[\w./-]+)#(?P<title>[^>]+?) -->$", re.M)
LINK = re.compile(r"(!?\[[^\]]*\])\(([^)\s]+)\)")
CLI_WIDTH = "100"  # argparse wraps help to $COLUMNS; fixed so the page is the same everywhere


# --- sources ----------------------------------------------------------------------------------

def load_table_script(game: str) -> ModuleType:
    """scripts/<game>_tables.py as a module (scripts/ is not a package)."""
    name = f"{game}_tables"
    if name in sys.modules:
        return sys.modules[name]
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def sections(text: str, level: int = 2) -> dict[str, str]:
    """The `level` sections of a markdown text by title, each without its heading line (code
    blocks are skipped, so a `## ` inside one is not a heading)."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#+) (.*)", line)
        if heading and len(heading.group(1)) <= level:
            # a heading of this level opens a section; a higher one closes it
            current = (found.setdefault(heading.group(2).strip(), [])
                       if len(heading.group(1)) == level else None)
            continue
        if current is not None:
            current.append(line)
    return {title: "\n".join(lines).strip("\n") for title, lines in found.items()}


def rewrite_links(markdown: str, page_uri: str) -> str:
    """Links written relative to the repository root (as in the README) made relative to the site
    page `page_uri`: docs/X is the site's X, seeds/<game>.md the game's page; web links and
    anchors stay. Any other local link is an error, so none breaks silently."""
    page_dir = posixpath.dirname(page_uri)

    def fix(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"[a-z]+://|#|mailto:", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        seeds = re.fullmatch(r"seeds/(\w+)\.md", path)
        if path.startswith("docs/"):
            site_path = path[len("docs/"):]
        elif seeds and seeds.group(1) in GAMES:
            site_path = f"games/{seeds.group(1)}.md"
        else:
            raise ValueError(f"{page_uri}: no site page for the link {target!r}")
        relative = posixpath.relpath(site_path, page_dir or ".")
        return f"{label}({relative}{'#' + anchor if anchor else ''})"

    return LINK.sub(fix, markdown)


def readme_section(title: str, page_uri: str, file: str = "README.md") -> str:
    """Section `## title` of a markdown file at the repository root, links fixed for the page."""
    found = sections((ROOT / file).read_text(encoding="utf-8"))
    if title not in found:
        raise ValueError(f"{page_uri}: {file} has no section '## {title}'")
    return rewrite_links(found[title], page_uri)


# --- game pages -------------------------------------------------------------------------------

def _facts(game: str) -> list[str]:
    """The declared facts of a game (its GameSpec and registrations) as a two-column table."""
    import gymnasium

    import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
    from huerta.envs.core.registry import get_game
    from huerta.envs.core.rewards import REWARD_MODES

    spec = get_game(game)
    entry = GAMES[game][1]
    gym_ids = sorted(
        env_id for env_id, env_spec in gymnasium.registry.items()
        if env_id.startswith("huerta/") and env_spec.kwargs.get("game") == game
    )
    options = [f"`reward`: {', '.join(f'`{m}`' for m in REWARD_MODES)} (default `win_loss`)",
               f"`max_steps`: agent steps before truncation (default {spec.default_max_steps:,})"]
    for name, values in spec.options.items():
        numbers = all(isinstance(v, int) for v in values)
        shown = (f"{min(values)} to {max(values)}" if numbers and len(values) > 2
                 and list(values) == list(range(min(values), max(values) + 1))
                 else ", ".join(f"`{v}`" for v in values))
        options.append(f"`{name}`: {shown}")
    counts = ", ".join(str(n) for n in spec.player_counts)
    rows = [
        ("players", f"{counts} (`num_players`); agents `player_0` … in seat order"),
        ("PettingZoo", f"`from {entry.rsplit('.', 1)[0]} import {entry.rsplit('.', 1)[1]}`, "
                       f"`{entry.rsplit('.', 1)[1]}.env(num_players=...)` (AEC)"),
        ("Gymnasium", ", ".join(f"`{i}`" for i in gym_ids) + " (one learner, opponents inside)"),
        ("actions", f"`Discrete({spec.num_actions})` for every player count, with an exact mask"),
        ("observation", f"`float32[{spec.observation_size}]` in [0, 1] from the acting seat, "
                        f"and `action_mask` `int8[{spec.num_actions}]`"),
        ("observation blocks", ", ".join(f"`{name}`" for name, _, _ in spec.observation_layout)),
        ("options", "; ".join(options)),
        ("render modes", ", ".join(f"`{m}`" for m in spec.render_modes)),
        ("engine", f"`from huerta.envs.{game} import new_game`: "
                   f"`new_game(num_players, seed)` gives a state to `apply`, `clone`, "
                   "`determinize`"),
        ("specification", f"`{spec.spec_document}` (below, section by section)"),
    ]
    lines = ["| fact | value |", "| --- | --- |"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return lines


def _example(game: str) -> list[str]:
    entry = GAMES[game][1].rsplit(".", 1)[1]
    return [
        "```python",
        "import numpy as np",
        f"from huerta.envs import {entry}",
        "",
        f"env = {entry}.env(num_players=2)",
        "env.reset(seed=0)",
        "rng = np.random.default_rng(0)",
        "for agent in env.agent_iter():",
        "    obs, reward, terminated, truncated, info = env.last()",
        "    if terminated or truncated:",
        "        env.step(None)",
        "        continue",
        "    env.step(int(rng.choice(np.flatnonzero(obs[\"action_mask\"]))))",
        "print(info[\"scores\"], info[\"winners\"])",
        "```",
    ]


def fresh_spec_text(game: str, text: str | None = None) -> str:
    """seeds/<game>.md (or `text`) with every generated block re-made from the code now, so the
    page shows the code's tables even where the document were stale."""
    generated = load_table_script(game).GENERATED
    return generated.rewrite(generated.doc.read_text(encoding="utf-8") if text is None else text)


def game_notes(game: str) -> dict[str, str]:
    """The sections of docs/game_notes/<game>.md, links fixed for the game's page: each is
    placed before the specification, but the version history, which ends the page. A game
    without the file, or without a version history in it, is an error."""
    path = NOTES / f"{game}.md"
    shown = os.path.relpath(path, ROOT)
    if not path.is_file():
        raise ValueError(f"{game}: no {shown} (how it plays, version history)")
    found = sections(path.read_text(encoding="utf-8"))
    if HISTORY not in found:
        raise ValueError(f"{shown}: no section '## {HISTORY}'")
    return {title: rewrite_links(text, f"games/{game}.md") for title, text in found.items()}


def game_page(game: str) -> str:
    """The markdown of the site page of `game`."""
    title, entry, picture = GAMES[game]
    module = importlib.import_module(entry)
    doc = inspect.getdoc(module) or ""
    description = doc.split("\n\n", 1)[1] if "\n\n" in doc else ""
    spec_sections = sections(fresh_spec_text(game))
    unknown = set(spec_sections) - set(SPEC_SECTIONS)
    if unknown:
        raise ValueError(f"seeds/{game}.md: sections the game page does not place: {unknown}")
    notes = game_notes(game)
    lines = [f"# {title}", "", description, "",
             f"![{title}: a game between heuristic agents](../{picture})", "",
             "## At a glance", "", *_facts(game), "",
             "## A first game", "",
             "Random legal play through the AEC API (every game has the same interface):", "",
             *_example(game), ""]
    for name, text in notes.items():
        if name != HISTORY:
            lines += [f"## {name}", "", text, ""]
    for name in SPEC_SECTIONS:
        if name in spec_sections:
            lines += [f"## {name}", "", spec_sections[name], ""]
    lines += [f"## {HISTORY}", "", notes[HISTORY], ""]
    return "\n".join(lines)


def games_table(page_uri: str) -> str:
    """The table of every registered game, for the page `page_uri`: its page, player counts,
    PettingZoo entry module and Gymnasium ids (a variant's beside its game's)."""
    from huerta.envs.core.registry import get_game, gym_ids

    ids = gym_ids()
    page_dir = posixpath.dirname(page_uri) or "."
    lines = ["| game | players | PettingZoo | Gymnasium |", "|---|---|---|---|"]
    for game, (title, entry, _) in GAMES.items():
        spec = get_game(game)
        counts = sorted(spec.player_counts)
        players = f"{counts[0]}–{counts[-1]}" if len(counts) > 1 else str(counts[0])
        gym = ", ".join(f"`{i}`" for i, (_, kwargs) in ids.items() if kwargs["game"] == game)
        link = posixpath.relpath(f"games/{game}.md", page_dir)
        lines.append(f"| [{title}]({link}) | {players} | `{entry}` | {gym} |")
    return "\n".join(lines)


def games_nav() -> list[dict[str, str]]:
    """The nav entries of the game pages, in the registry's order."""
    return [{title: f"games/{game}.md"} for game, (title, _, _) in GAMES.items()]


def fill_nav(nav: list[Any]) -> list[Any]:
    """mkdocs.yml's nav with its empty `Games` section filled from the registry; a nav without
    that section, or one that lists games by hand there, is an error."""
    for item in nav:
        if isinstance(item, dict) and NAV_GAMES in item:
            if item[NAV_GAMES]:
                raise ValueError(f"mkdocs.yml: the nav's '{NAV_GAMES}' section must be empty "
                                 "(scripts/docs_site.py fills it from the game registry)")
            item[NAV_GAMES] = games_nav()
            return nav
    raise ValueError(f"mkdocs.yml: no '{NAV_GAMES}: []' section in the nav to fill")


# --- the command-line reference ---------------------------------------------------------------

def cli_page() -> str:
    """Every `huerta` command's --help, from the parser the command uses."""
    import argparse

    from huerta.training.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = CLI_WIDTH
    try:
        parser = build_parser()
        lines = ["# Command reference", "",
                 "The `--help` of `huerta` and of each of its commands, generated from the "
                 "parser the command itself uses. The [command line](../cli.md) page says what "
                 "the commands are for.", "", "```text", parser.format_help().rstrip(), "```", ""]
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for name, command in sub.choices.items():
            lines += [f"## huerta {name}", "", "```text", command.format_help().rstrip(),
                      "```", ""]
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(lines)


# --- the MkDocs hooks -------------------------------------------------------------------------

# made when MkDocs loads this file, before mkdocstrings (whose on_config runs before the hooks')
# checks its `paths`

def generated_pages() -> dict[str, str]:
    """Every generated page: site path -> markdown."""
    pages = {f"games/{game}.md": game_page(game) for game in GAMES}
    pages["reference/cli.md"] = cli_page()
    return pages


def _package_links() -> None:
    """build/docs_src/huerta/{envs,agents,training} -> the source folders, for mkdocstrings."""
    base = ROOT / "build" / "docs_src" / "huerta"
    base.mkdir(parents=True, exist_ok=True)
    for name in ("envs", "agents", "training"):
        link = base / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)


_package_links()


def on_config(config: Any) -> Any:
    config["nav"] = fill_nav(config["nav"])
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, content in generated_pages().items():
        files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if GAMES_TABLE in markdown:
        markdown = markdown.replace(GAMES_TABLE, games_table(page.file.src_uri))
    return INCLUDE.sub(
        lambda m: readme_section(m.group("title").strip(), page.file.src_uri, m.group("file")),
        markdown,
    )
