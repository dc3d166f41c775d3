"""The boards as JSON (huerta.web.boards): a seat's view carries nothing that seat cannot know,
a replay's view carries everything, every action's click target exists on the drawn board, and
the page draws with the pictures' colours.

The hiding is checked with `determinize(seat, rng)`, which resamples everything `seat` cannot
know (face-down tiles, the crop bag's order and the die rolls, the market pile, other players'
Clock Tower peeks, the development deck, the dice to come): the seat's view of the resampled
state must be identical, while the whole view changes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from game_cases import fewest_and_most

from huerta.envs.alpujarras import picture as alpujarras_picture
from huerta.envs.core.registry import game_specs, get_game
from huerta.envs.finca import picture as finca_picture
from huerta.envs.mi_tierra import components as MC
from huerta.envs.mi_tierra import picture as mi_tierra_picture
from huerta.envs.mi_tierra.actions import CHOICE0, Decision
from huerta.web import boards

STATIC = Path(boards.__file__).resolve().parents[1] / "static"
CASES = fewest_and_most()  # every game at its fewest and most players (the solo game included)


def random_states(game: str, players: int, seed: int, every: int = 7, limit: int = 400):
    """States along a random game (every `every`-th step)."""
    spec = get_game(game)
    state = spec.new_game(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal and state.steps < limit:
        if state.steps % every == 0:
            yield state.clone()
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))
    yield state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_seats_view_is_the_same_whatever_it_cannot_know(game, players):
    rng = np.random.default_rng(0)
    checked = differs = 0
    for seed in range(40):  # a random solo game is over in a few steps: more games
        if checked >= 30:
            break
        for state in random_states(game, players, seed):
            for seat in range(players):
                twin = state.determinize(seat, rng)
                view = boards.state_json(game, state, seat)
                assert boards.state_json(game, twin, seat) == view
                assert "hidden" not in view
                json.dumps(view)  # JSON-safe
                checked += 1
                if boards.state_json(game, twin, None) != boards.state_json(game, state, None):
                    differs += 1
    assert checked > 20
    assert differs > checked // 2  # the whole view shows what the seat's view hides


def _mi_tierra_with_a_peek(seed: int):
    """A random Mi Tierra game (3 players) up to a state where some seat knows pile cards."""
    state = get_game("mi_tierra").new_game(3, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal:
        if any(state.known[p] for p in range(3)) and state.pile:
            return state
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))
    return None


def test_mi_tierra_clock_tower_peeks_go_to_their_own_seat_only():
    state = next(s for s in map(_mi_tierra_with_a_peek, range(40)) if s is not None)
    peeker = next(p for p in range(3) if state.known[p])
    cards = {MC.MARKET_CARDS[c].code for c in state.known[peeker]}
    for seat in range(3):
        view = boards.state_json("mi_tierra", state, seat)
        players = view["players"]
        assert [("knowledge" in p) for p in players] == [p == seat for p in range(3)]
        assert players[peeker]["peeked"] == len(state.known[peeker])  # how many: public
        if seat == peeker:
            shown = " ".join(players[peeker]["knowledge"]["in_order"])
            assert all(code in shown for code in cards)
    whole = boards.state_json("mi_tierra", state, None)
    assert all("knowledge" in p for p in whole["players"])
    assert [label for label, _ in whole["hidden"]] == [
        "Market pile, top first", "Removed unseen at the set-up", "Development deck, top first"]


def test_mi_tierra_a_reordering_is_described_to_the_reorderer_only():
    found = 0
    for seed in range(60):
        state = get_game("mi_tierra").new_game(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal and found < 3:
            if state.decision == Decision.CLOCK_ORDER:
                q = state.current_player
                action = CHOICE0
                own = boards.board_module("mi_tierra").public_describe(state, action, q)
                assert own == state.describe(action) and MC.MARKET_CARDS[
                    state.reorder_left[0]].code in own
                for seat in range(3):
                    if seat == q:
                        continue
                    text = boards.board_module("mi_tierra").public_describe(state, action, seat)
                    assert "hidden" in text and MC.MARKET_CARDS[
                        state.reorder_left[0]].code not in text
                    view = boards.state_json("mi_tierra", state, seat)
                    assert not any("Clock Tower" in line for line in view["context"])
                assert any("Clock Tower" in line
                           for line in boards.state_json("mi_tierra", state, q)["context"])
                found += 1
            legal = np.flatnonzero(state.legal_mask())
            state.apply(int(legal[rng.integers(len(legal))]))
        if found >= 3:
            break
    assert found >= 3


def test_finca_face_down_tiles_only_in_the_whole_view():
    state = get_game("finca").new_game(3, seed=11)
    for seat in range(3):
        view = boards.state_json("finca", state, seat)
        assert all("beneath_tiles" not in c for c in view["communities"])
        assert [c["beneath"] for c in view["communities"]] == [len(s) - 1 for s in state.stacks]
    whole = boards.state_json("finca", state, None)
    assert [len(c["beneath_tiles"]) for c in whole["communities"]] == [
        len(s) - 1 for s in state.stacks]
    assert whole["hidden"][-1][0] == "Boxed, never played"


def test_alpujarras_the_bag_is_its_composition_only():
    state = get_game("alpujarras").new_game(2, seed=5)
    view = boards.state_json("alpujarras", state, 0)
    assert view["bag"] == [state.bag.count(k) for k in range(5)]
    assert "hidden" not in view and "rolls" not in json.dumps(view)
    whole = boards.state_json("alpujarras", state, None)
    assert [label for label, _ in whole["hidden"]] == ["Crop bag, next draw first",
                                                       "Die rolls to come"]


def drawn_target_kinds(game: str) -> set[str]:
    """The kinds of click target (`blade` of `blade:3`) that the game's board script, static/
    <board>.js, draws: the keys it hands to svg.js's `target(node, key)`."""
    source = (STATIC / boards.board_script(game)).read_text(encoding="utf-8")
    return set(re.findall(r"""\btarget\([^;]*?,\s*[`"']([a-z_]+)[:`"']""", source))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_targets_index_every_action_clicked_on_the_board(game, players):
    module = boards.board_module(game)
    kinds = drawn_target_kinds(game)  # what the page's script makes clickable
    assert kinds, f"{boards.board_script(game)} draws no click target"
    seen = set()
    states = (state for seed in range(10) for state in random_states(game, players, seed, 1, 200))
    for state in states:
        targets = boards.action_targets(game, state)
        for action in state.legal_actions():
            target = module.action_target(state, action)
            if target is not None:
                assert target.split(":")[0] in kinds
                assert action in targets[target]
                seen.add(target.split(":")[0])
    assert len(seen) >= 2


def test_every_game_has_a_board_for_the_page():
    """Every registered game has a board module and the page's script that draws it (the file
    the page imports, as /api/meta names it), with a colour per seat for its move list."""
    assert list(boards.BOARDS) == [spec.name for spec in game_specs()]
    for spec in game_specs():
        assert boards.board_module(spec.name).__name__ == f"huerta.web.boards.{spec.name}"
        script = STATIC / boards.board_script(spec.name)
        assert script.is_file(), f"{spec.name}: no {script}"
        assert "export function draw(" in script.read_text(encoding="utf-8"), script
        palette = boards.palettes()[spec.name]
        colours = [palette["background"], palette["ink"], *palette["player"]]
        assert len(palette["player"]) >= max(spec.player_counts), spec.name
        assert all(re.fullmatch(r"#[0-9a-fA-F]{6}", c) for c in colours), (spec.name, colours)


def test_the_page_draws_with_the_pictures_colours():
    palettes = boards.palettes()
    assert palettes["finca"]["fruit"] == list(finca_picture.FRUIT_COLOURS)
    assert palettes["finca"]["player"] == list(finca_picture.PLAYER_COLOURS)
    assert palettes["alpujarras"]["farmland"] == list(alpujarras_picture.FARMLAND_COLOURS)
    assert palettes["alpujarras"]["fruit"] == list(alpujarras_picture.FRUIT_COLOURS)
    assert palettes["mi_tierra"]["good"] == list(mi_tierra_picture.GOOD_COLOURS)
    assert palettes["mi_tierra"]["tile"] == list(mi_tierra_picture.TILE_COLOURS)
