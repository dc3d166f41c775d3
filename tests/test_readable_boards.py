"""Boards a person can read: every abbreviation on a text board is in its legend, a fruit code
means one fruit in every game, Mi Tierra's farm grid is numbered as its CELL_k actions, the human
agent plays a lone legal action without asking and accepts a typed name, the replay GIF keeps its
text readable at the default scale, and Finca's player panels draw finca tiles, not labels."""

from __future__ import annotations

import inspect
import io
import re

import numpy as np
import pytest
from budgets import games
from game_cases import fewest_and_most
from script_modules import load_script

from huerta.agents.human import HumanAgent
from huerta.envs.core.legend import FRUIT_CODES, LEGEND_HEADING
from huerta.envs.core.pictures import MIN_TEXT_PX, Canvas
from huerta.envs.core.registry import get_game
from huerta.envs.core.view import PlayerView
from huerta.training.animation import CAPTION_SIZE, save_gif

CASES = fewest_and_most()  # every game at its fewest and most players (the solo game included)


def random_states(game: str, n: int, seed: int, every: int = 1):
    """The states of a uniformly random game, every `every`-th decision and the last one."""
    spec = get_game(game)
    state = spec.new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        if state.steps % every == 0 or state.is_terminal:
            yield state
        if state.is_terminal or state.steps >= spec.default_max_steps:
            return
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))


def abbreviations(text: str) -> set[str]:
    """Words that look like codes: one or two letters starting with a capital (A, Ap, P, TL) or
    capitals only, up to four (ALL, END, DGL, XIII)."""
    return {w for w in re.findall(r"[A-Za-z]+", text)
            if w[0].isupper() and (len(w) <= 2 or (w.isupper() and len(w) <= 4))}


@pytest.mark.parametrize(("game", "n"), CASES)
def test_every_abbreviation_on_a_text_board_is_in_its_legend(game, n):
    for seed in range(games(1, 3)):
        for state in random_states(game, n, seed, every=5):
            text = state.render_text()
            body, heading, legend = text.partition(f"\n{LEGEND_HEADING}\n")
            assert heading, f"{game}: no legend block at the end of the board"
            missing = abbreviations(body) - set(re.findall(r"[A-Za-z]+", legend))
            assert not missing, (sorted(missing), text)


def _codes() -> dict[str, set[str]]:
    """Every fruit or goods code any game shows, with the things it names."""
    from huerta.envs.alpujarras import components as alp
    from huerta.envs.alpujarras.render import FRUIT_CODES as ALP_CODES
    from huerta.envs.finca import components as fin
    from huerta.envs.mi_tierra import components as mit
    from huerta.envs.mi_tierra.render import TILE_CODES

    named: dict[str, set[str]] = {}
    pairs = [*zip(fin.FRUIT_LETTERS, fin.FRUITS, strict=True),
             *zip(ALP_CODES, alp.FRUITS, strict=True),
             *zip(mit.GOOD_ABBREV, mit.GOODS, strict=True),
             *((TILE_CODES[t], mit.GOODS[g]) for g, t in mit.CROP_TILE.items())]
    for code, name in pairs:
        named.setdefault(code, set()).add(name)
    return named


def test_a_fruit_code_means_one_fruit_in_every_game():
    named = _codes()
    assert {code: names for code, names in named.items() if len(names) > 1} == {}
    for fruit, code in FRUIT_CODES.items():  # the shared table is what the games show
        assert named[code] == {fruit}
    assert named["A"] == {"almond"} and named["O"] == {"olive"} and named["R"] == {"orange"}


def test_alpujarras_board_spells_fruit_with_the_shared_codes():
    from huerta.envs.alpujarras import new_game

    state = new_game(2, seed=1)
    state.fruit[0] = [1, 2, 3, 4, 5]
    line = next(ln for ln in state.render_text().splitlines() if ln.strip().startswith("P0:"))
    assert "fruit Ap1 Ch2 L3 R4 G5 " in line


def test_mi_tierra_farm_grid_is_numbered_as_the_cell_actions():
    from huerta.envs.mi_tierra import components as C
    from huerta.envs.mi_tierra import new_game
    from huerta.envs.mi_tierra.actions import action_name, cell, describe
    from huerta.envs.mi_tierra.render import TILE_CODES

    state = new_game(2, seed=3)
    tiles = [C.EMPTY, C.T_WHEAT, C.T_GRAPE, C.T_BARN2, C.T_BARN3, C.T_APPLE, C.EMPTY, C.T_GRAPE,
             C.T_WHEAT, C.EMPTY, C.T_BARN3, C.T_APPLE]
    state.tiles[1] = tiles
    state.barn_count[1][10], state.barn_kind[1][10] = 2, C.COW
    state.farm_workers[1][7] = 1
    text = state.render_text()
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip().startswith("P1:")) + 1
    cells = re.findall(r"(\d+) (\S+)", " ".join(lines[start:start + C.FARM_ROWS]))
    assert [int(k) for k, _ in cells] == list(range(C.FARM_CELLS))
    for k, code in cells:
        k = int(k)
        expected = TILE_CODES[tiles[k]] + (":2Co" if k == 10 else "") + ("*" if k == 7 else "")
        assert code == expected, (k, code)
        assert action_name(cell(k)) == f"CELL_{k}" and f"farm cell {k}" in describe(state, cell(k))


def _agent_with(answers: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(stdin=io.StringIO(answers), stdout=out), out


class _NoInput(io.StringIO):
    def readline(self, *args):
        raise AssertionError("the agent asked although only one action was legal")


@pytest.mark.parametrize("game", ["finca", "alpujarras"])
def test_human_plays_a_lone_legal_action_without_asking(game):
    state = next(s for s in random_states(game, 2, 4)
                 if not s.is_terminal and len(s.legal_actions()) == 1)
    only = state.legal_actions()[0]
    out = io.StringIO()
    agent = HumanAgent(stdin=_NoInput(), stdout=out)
    p = state.current_player
    obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
    assert agent.act(obs, PlayerView(state, p)) == only
    assert "only legal action" in out.getvalue() and state.describe(only) in out.getvalue()


def test_human_groups_a_long_list_and_accepts_a_typed_name():
    from huerta.envs.alpujarras import new_game

    state = new_game(3, seed=0)
    p = state.current_player
    legal = state.legal_actions()
    assert len(legal) > 20  # the mule's first move: every space of the track
    obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
    agent, out = _agent_with("mule to space\nspace 12\n")
    action = agent.act(obs, PlayerView(state, p))
    assert state.describe(action).startswith("move the mule to space 12 ")
    printed = out.getvalue()
    listing = printed.split("Legal actions:\n", 1)[1].split("action id", 1)[0]
    assert "move the mule to space ..." in listing
    assert len(listing.splitlines()) < len(legal) // 3  # grouped, several to a line
    assert "'mule to space' matches" in printed  # an ambiguous name is asked again


def test_human_still_says_why_bad_input_is_refused():
    from huerta.envs.finca import new_game

    state = new_game(2, seed=1)
    p = state.current_player
    obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
    agent, out = _agent_with("x\n99\nblade 3\n")
    action = agent.act(obs, PlayerView(state, p))
    assert state.describe(action).startswith("place a farmer on blade 3")
    assert "'x' is not a number" in out.getvalue() and "99 is not legal now" in out.getvalue()


def _smallest_text(game: str, n: int) -> int:
    """The smallest font size the game's pictures draw, over a random game."""
    smallest = []
    original = Canvas.to_array

    def spy(canvas: Canvas) -> np.ndarray:
        smallest.append(canvas.smallest_text)
        return original(canvas)

    Canvas.to_array = spy
    try:
        for state in random_states(game, n, seed=2, every=9):
            state.render_rgb()
    finally:
        Canvas.to_array = original
    return min(smallest)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_the_default_gif_keeps_text_readable(game, n):
    scale = inspect.signature(save_gif).parameters["scale"].default
    assert _smallest_text(game, n) * scale >= MIN_TEXT_PX
    assert CAPTION_SIZE * scale >= MIN_TEXT_PX


def test_the_readme_gif_keeps_text_readable():
    module = load_script("finca_pictures")
    assert min(_smallest_text("finca", n) for n in (2, 4)) * module.GIF_SCALE >= MIN_TEXT_PX


def test_finca_player_panels_draw_finca_tiles_not_labels(monkeypatch):
    from huerta.envs.finca import components as C
    from huerta.envs.finca import new_game
    from huerta.envs.finca.picture import FRUIT_COLOURS

    state = new_game(2, seed=1)
    pair = next(f for f, t in enumerate(C.FINCA_TILES) if len(t.fruits) == 2)
    universal = next(f for f, t in enumerate(C.FINCA_TILES) if t.universal)
    state.fincas_won[0] = [pair, universal]
    texts: list[str] = []
    discs: list[tuple[float, float, str]] = []
    slices: list[tuple[float, float]] = []
    text, circle, pieslice = Canvas.text, Canvas.circle, Canvas.pieslice

    def spy_text(canvas, xy, label, *args, **kwargs):
        texts.append(label)
        return text(canvas, xy, label, *args, **kwargs)

    def spy_circle(canvas, centre, radius, fill, outline=None):
        discs.append((*centre, fill))
        return circle(canvas, centre, radius, fill, outline)

    def spy_pieslice(canvas, centre, radius, start, end, fill, outline=None):
        slices.append(centre)
        return pieslice(canvas, centre, radius, start, end, fill, outline)

    monkeypatch.setattr(Canvas, "text", spy_text)
    monkeypatch.setattr(Canvas, "circle", spy_circle)
    monkeypatch.setattr(Canvas, "pieslice", spy_pieslice)
    state.render_rgb()
    labels = {C.FINCA_TILES[f].label() for f in (pair, universal)}
    assert not any(label in t for t in texts for label in labels)
    panel_top = 600  # the player panels fill the bottom of the picture
    panel = [(x, fill) for x, y, fill in discs if y > panel_top and x < 600]
    for f in C.FINCA_TILES[pair].fruits:
        assert any(fill == FRUIT_COLOURS[f] for _, fill in panel)
    assert sum(1 for _, y in slices if y > panel_top) == C.NUM_FRUITS  # the universal tile


def test_pictures_carry_a_legend(monkeypatch):
    """The pictures explain their symbols: Alpujarras the track icons and the award tokens,
    Finca the wild symbol and the finca tiles, Mi Tierra the goods' codes and the farm cells."""
    texts: list[str] = []
    text = Canvas.text

    def spy_text(canvas, xy, label, *args, **kwargs):
        texts.append(label)
        return text(canvas, xy, label, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", spy_text)
    get_game("alpujarras").new_game(3, seed=1).render_rgb()
    drawn = " ".join(texts)
    for icon in ("P place a farmer", "M move a farmer", "I irrigate", "N take a noria",
                 "F take a fruit", "D take a dirhem", "to the first delivery"):
        assert icon in drawn, icon
    texts.clear()
    get_game("finca").new_game(2, seed=1).render_rgb()
    assert "wild: any one kind" in texts and any(t.startswith("finca (5)") for t in texts)
    texts.clear()
    from huerta.envs.mi_tierra import components as C

    get_game("mi_tierra").new_game(2, seed=1).render_rgb()
    drawn = " ".join(texts)
    for good in C.GOODS:
        assert f"{good} " in drawn, good
    assert all(str(k) in texts for k in range(C.FARM_CELLS))


def test_human_sees_the_legend_once_a_game_and_again_on_a_question_mark():
    from huerta.envs.finca import new_game

    state = new_game(2, seed=1)
    p = state.current_player
    obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
    agent, out = _agent_with("blade 3\n?\nblade 4\n")
    agent.act(obs, PlayerView(state, p))
    first = out.getvalue()
    assert first.count("Legend:") == 1 and "? for the legend" in first
    out.truncate(0), out.seek(0)
    agent.act(obs, PlayerView(state, p))  # the second decision: the board without its legend,
    second = out.getvalue()               # then '?' prints the legend alone
    assert second.count("Legend:") == 1
    assert second.index("Legend:") > second.index("Legal actions:")
    agent.reset(seed=0)  # a new game shows it with the board again
    out.truncate(0), out.seek(0)
    agent.stdin = io.StringIO("blade 3\n")
    agent.act(obs, PlayerView(state, p))
    assert out.getvalue().index("Legend:") < out.getvalue().index("Legal actions:")
