"""Memory: Mi Tierra's shared mask table stays within its documented bound and gives the same
masks through every turnover; `huerta bench` reports each env row's peak RSS, measured in a
fresh process whose figure is its own (not its parent's)."""

from __future__ import annotations

import random
import sys
import tracemalloc

import numpy as np
import pytest

import huerta.envs.mi_tierra.state as mt_state
from huerta.envs.core.registry import get_game
from huerta.envs.mi_tierra.decisions import legal_actions
from huerta.training.bench import (
    benchmark,
    format_table,
    measure_in_fresh_process,
    peak_rss_kib,
)

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the figures come from Linux's /proc/self/status")


def _random_legal_sets(count: int, seed: int = 0) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    sets = {tuple(sorted(rng.sample(range(mt_state.N_ACTIONS), rng.randint(1, 40))))
            for _ in range(count)}
    return sorted(sets)


def test_mask_table_keeps_two_generations_and_recent_masks(monkeypatch):
    monkeypatch.setattr(mt_state, "_MASK_GENERATION", 50)
    table = mt_state._MaskTable()
    hot = (0, 7, 63)
    hot_masks = table[hot]
    turnovers, size = 0, len(table)
    for i, legal in enumerate(_random_legal_sets(1000)):
        mask, mask8 = table[legal]
        assert np.flatnonzero(mask).tolist() == list(legal)
        assert mask8.dtype == np.int8 and np.array_equal(mask8, mask)
        assert not mask.flags.writeable and not mask8.flags.writeable
        assert len(table) <= 50 and len(table) + len(table.old) <= 100
        turnovers += len(table) < size  # the young generation started again
        size = len(table)
        if i % 40 == 0:  # used now and then: survives every turnover, never rebuilt
            assert table[hot] is hot_masks
    assert table[hot] is hot_masks
    assert turnovers > 15  # about one per 50 new sets


def test_mask_table_memory_stays_within_the_documented_bound():
    """Three generations' worth of distinct sets: at most two generations stay, and their
    Python memory is within the ~21 MB that state.py documents."""
    generation = mt_state._MASK_GENERATION
    sets = [list(legal) for legal in _random_legal_sets(3 * generation + 1000, seed=1)]
    tracemalloc.start()
    try:
        table = mt_state._MaskTable()
        start, _ = tracemalloc.get_traced_memory()
        for legal in sets:
            table[tuple(legal)]  # a key of its own, as legal_mask makes one
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    entries = len(table) + len(table.old)
    assert generation < entries <= 2 * generation
    assert held - start <= 21e6, (held - start) / entries


def test_mi_tierra_masks_are_exact_through_turnovers(monkeypatch):
    """Random games with a tiny table (many turnovers): every mask is the legal set."""
    monkeypatch.setattr(mt_state, "_MASK_GENERATION", 64)
    monkeypatch.setattr(mt_state, "_MASKS", mt_state._MaskTable())
    spec = get_game("mi_tierra")
    rng = random.Random(5)
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        state = spec.new_game(players, seed=seed)
        while not state.is_terminal and state.steps < 400:
            legal = legal_actions(state)
            assert np.flatnonzero(state.legal_mask()).tolist() == sorted(legal)
            assert np.flatnonzero(state.action_mask()).tolist() == sorted(legal)
            state.apply(legal[rng.randrange(len(legal))])
            assert len(mt_state._MASKS) + len(mt_state._MASKS.old) <= 128


@linux_only
def test_fresh_process_rss_is_its_own_not_its_parents():
    """A child's `ru_maxrss` starts from its parent's peak on Linux; the bench must not report
    this (large) test process's size for a small game process."""
    ballast = np.ones(200 * 2**20 // 8)  # 200 MiB, touched
    assert peak_rss_kib() > 200 * 1024
    row = measure_in_fresh_process("finca", 2, 0.2)
    del ballast
    assert row["steps"] > 0 and row["games"] > 0
    assert 10 * 1024 < row["rss_peak_kib"] < 150 * 1024
    assert 0 <= row["rss_play_kib"] < row["rss_peak_kib"]


@linux_only
def test_bench_reports_peak_rss_for_every_env_row():
    results = benchmark(games=("mi_tierra",), players=(2,), seconds=0.2, memory=False)
    env_rows = [r for r in results if r.mode == "env()"]
    assert [r.name for r in env_rows][-1] == "mi_tierra"
    for r in env_rows:
        assert r.rss_mib is not None and r.rss_mib > 10
        assert r.rss_play_mib is not None and 0 <= r.rss_play_mib < r.rss_mib
    engine = next(r for r in results if r.mode == "engine")
    assert engine.rss_mib is None
    table = format_table(results)
    assert "RSS MiB" in table.splitlines()[0] and "+play" in table.splitlines()[0]
    in_process = benchmark(games=("mi_tierra",), players=(2,), seconds=0.1, memory=False,
                           fresh=False)
    assert all(r.rss_mib is None for r in in_process)
