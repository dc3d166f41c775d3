"""G-04, G-06: the catalogue is the published edition's, tile by tile.

The reference below is a second, independent transcription of the printed tiles, written in the
column order of the public source that `shared/rules/finca_published_components.md` cites (the
`E_Fruittile_Pool` / `E_Fincatiles_Pool` tables of the repository locwilder/Finca: points, then
almond, fig, grape, lemon, olive, orange, then wild), not in our fruit order, so a slip in either
transcription shows up as a difference.
"""

from __future__ import annotations

from collections import Counter

import pytest

from huerta.envs.finca import components as C

# (points, almond, fig, grape, lemon, olive, orange, wild), one row per printed tile.
PRINTED_FRUIT_TILES = [
    (1, 1, 0, 0, 0, 0, 0, 0), (1, 0, 1, 0, 0, 0, 0, 0), (1, 0, 0, 1, 0, 0, 0, 0),
    (1, 0, 0, 0, 1, 0, 0, 0), (1, 0, 0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0, 1, 0),
    (2, 2, 0, 0, 0, 0, 0, 0), (2, 0, 2, 0, 0, 0, 0, 0), (2, 0, 0, 2, 0, 0, 0, 0),
    (2, 0, 0, 0, 2, 0, 0, 0), (2, 0, 0, 0, 0, 2, 0, 0), (2, 0, 0, 0, 0, 0, 2, 0),
    (3, 3, 0, 0, 0, 0, 0, 0), (3, 0, 3, 0, 0, 0, 0, 0), (3, 0, 0, 3, 0, 0, 0, 0),
    (3, 0, 0, 0, 3, 0, 0, 0), (3, 0, 0, 0, 0, 3, 0, 0), (3, 0, 0, 0, 0, 0, 3, 0),
    (4, 0, 0, 0, 0, 0, 0, 4), (4, 0, 0, 0, 0, 0, 0, 4), (4, 0, 0, 0, 0, 0, 0, 4),
    (4, 2, 2, 0, 0, 0, 0, 0), (4, 2, 0, 0, 0, 0, 2, 0), (4, 0, 0, 0, 2, 2, 0, 0),
    (4, 0, 2, 0, 2, 0, 0, 0), (4, 0, 0, 2, 0, 2, 0, 0), (4, 0, 0, 2, 0, 0, 2, 0),
    (5, 0, 0, 0, 0, 0, 0, 5), (5, 0, 0, 0, 0, 0, 0, 5), (5, 0, 0, 0, 0, 0, 0, 5),
    (5, 3, 0, 2, 0, 0, 0, 0), (5, 0, 3, 0, 0, 2, 0, 0), (5, 0, 0, 0, 3, 0, 2, 0),
    (5, 0, 2, 0, 0, 0, 3, 0), (5, 2, 0, 0, 0, 3, 0, 0), (5, 0, 0, 3, 2, 0, 0, 0),
    (6, 0, 0, 0, 0, 0, 0, 6), (6, 0, 0, 0, 0, 0, 0, 6), (6, 0, 0, 0, 0, 0, 0, 6),
    (6, 1, 1, 1, 1, 1, 1, 0), (6, 1, 1, 1, 1, 1, 1, 0), (6, 1, 1, 1, 1, 1, 1, 0),
]
SOURCE_FRUIT_ORDER = (C.ALMOND, C.FIG, C.GRAPE, C.LEMON, C.OLIVE, C.ORANGE)

# The ten finca tiles: the fruits each is decided by; "?" is the universal tile.
PRINTED_FINCA_TILES = [
    ("almond",), ("fig",), ("grape",), ("lemon",), ("olive",), ("orange",), ("?",),
    ("almond", "fig"), ("grape", "orange"), ("lemon", "olive"),
]


def _as_printed(tile: C.FruitTile) -> tuple[int, ...]:
    return (tile.value, *(tile.fixed[f] for f in SOURCE_FRUIT_ORDER), tile.wild)


def _finca_as_printed(tile: C.FincaTile) -> frozenset[str]:
    return frozenset(("?",) if tile.universal else (C.FRUITS[f] for f in tile.fruits))


def test_fruit_tiles_are_the_published_set_as_a_multiset():
    """G-04: every printed tile once per copy, nothing else; a difference names the tiles."""
    ours = Counter(_as_printed(t) for t in C.FRUIT_TILES)
    printed = Counter(PRINTED_FRUIT_TILES)
    assert len(C.FRUIT_TILES) == len(PRINTED_FRUIT_TILES) == C.NUM_FRUIT_TILES == 42
    assert ours - printed == Counter(), f"tiles not in the published set: {ours - printed}"
    assert printed - ours == Counter(), f"published tiles missing: {printed - ours}"


def test_finca_tiles_are_the_published_set():
    """G-06: the single-fruit tiles, A+F, G+R, L+O and the universal tile, as a set."""
    ours = {_finca_as_printed(t) for t in C.FINCA_TILES}
    assert len(C.FINCA_TILES) == C.NUM_FINCA_TILES == 10
    assert ours == {frozenset(t) for t in PRINTED_FINCA_TILES}
    assert sum(t.universal for t in C.FINCA_TILES) == 1


def test_published_shape_value_equals_fruits_and_wild_only_at_4_to_6():
    """The facts the published list states in words (value = fruits asked; `?` tiles only at
    values 4, 5 and 6, three each; the three 1-of-each tiles at 6; each fruit printed alike)."""
    assert all(t.value == t.size for t in C.FRUIT_TILES)
    wild_values = Counter(t.value for t in C.FRUIT_TILES if t.wild)
    assert wild_values == {4: 3, 5: 3, 6: 3}
    assert all(t.wild == t.value and not any(t.fixed) for t in C.FRUIT_TILES if t.wild)
    one_of_each = [t for t in C.FRUIT_TILES if t.fixed == (1,) * C.NUM_FRUITS]
    assert [t.value for t in one_of_each] == [6, 6, 6]
    assert Counter(t.value for t in C.FRUIT_TILES) == {1: 6, 2: 6, 3: 6, 4: 9, 5: 9, 6: 6}
    printed_per_fruit = {sum(t.fixed[f] for t in C.FRUIT_TILES) for f in range(C.NUM_FRUITS)}
    assert printed_per_fruit == {18}


@pytest.mark.parametrize("text", ["2X", "A2", "", "2A+", "-1F"])
def test_a_malformed_requirement_is_refused_with_its_text(text):
    with pytest.raises(ValueError, match="bad tile term"):
        C.parse_requirement(text)


def test_the_requirement_parser_reads_the_published_notation():
    assert C.parse_requirement("2A+3O") == ((0, 2, 3, 0, 0, 0), 0)
    assert C.parse_requirement("F+A+O+R+G+L") == ((1,) * 6, 0)
    assert C.parse_requirement("5?") == ((0,) * 6, 5)


def test_copies_of_one_printed_tile_are_interchangeable_in_every_observation():
    """The three `4?` tiles (and every other set of copies) differ only by id: a state where the
    face-up copy and a face-down copy trade places looks the same to every player, since nobody
    can tell them apart."""
    from huerta.envs.finca import new_game

    state = new_game(2, seed=0)
    where = {t: (c, i) for c, stack in enumerate(state.stacks) for i, t in enumerate(stack)}
    for kind, copies in enumerate(C.KIND_COPIES):
        ids = [t for t in range(C.NUM_FRUIT_TILES) if C.TILE_KIND[t] == kind]
        top = [t for t in ids if t in where and where[t][1] == len(state.stacks[where[t][0]]) - 1]
        hidden = [t for t in ids if t not in top]
        if copies > 1 and top and hidden:
            break
    else:
        pytest.fail("seed 0 deals no repeated tile both face up and unseen")
    a, b = top[0], hidden[0]
    swapped = state.clone()
    trade = {a: b, b: a}
    swapped.stacks = [[trade.get(t, t) for t in stack] for stack in swapped.stacks]
    swapped.boxed = [trade.get(t, t) for t in swapped.boxed]
    swapped.revealed[a], swapped.revealed[b] = swapped.revealed[b], swapped.revealed[a]
    swapped.invalidate()
    assert swapped.stacks != state.stacks
    for player in range(2):
        assert (swapped.observe(player) == state.observe(player)).all()
