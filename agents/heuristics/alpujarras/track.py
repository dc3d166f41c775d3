"""Facts of the Alpujarras track that the values read: what lies ahead of each mule position
(standard, market and harvest spaces), worked out once per track layout."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.state import AlpujarrasState


@dataclass(frozen=True)
class TrackFacts:
    """Per mule position (index pos + 1, pos = -1 for the start): what lies ahead."""

    standards: tuple[int, ...]  # standard spaces ahead
    markets: tuple[int, ...]  # market spaces ahead
    harvests: tuple[int, ...]  # harvest spaces ahead
    specials: tuple[tuple[tuple[int, str], ...], ...]  # (standard spaces before it, kind)


@lru_cache(maxsize=256)
def track_facts(layout: tuple[int, ...], four: bool) -> TrackFacts:
    """What lies ahead of every position on the track of `layout`."""
    track = C.build_track(layout, four)
    standards, markets, harvests, specials = [], [], [], []
    for pos in range(-1, len(track)):
        ahead = track[pos + 1:]
        standards.append(sum(1 for s in ahead if s.kind == C.STANDARD))
        markets.append(sum(1 for s in ahead if s.kind == C.MARKET))
        harvests.append(sum(1 for s in ahead if s.kind == C.HARVEST))
        seq, before = [], 0
        for s in ahead:
            if s.kind == C.STANDARD:
                before += 1
            elif s.kind in (C.MARKET, C.HARVEST):
                seq.append((before, s.kind))
                before = 0
        specials.append(tuple(seq))
    return TrackFacts(tuple(standards), tuple(markets), tuple(harvests), tuple(specials))


def facts_of(state: AlpujarrasState) -> TrackFacts:
    """The facts of `state`'s track (its layout, and whether it is the four-player track)."""
    return track_facts(tuple(state.layout), state.num_players == 4)


def on_end_track(state: AlpujarrasState, piece: int) -> bool:
    """Whether `piece` (a mule, or the die of the 2-player and solo games) is on the end track."""
    s = state.pos[piece]
    return s >= 0 and state.track[s].kind == C.END

