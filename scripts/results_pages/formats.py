"""How figures read in a table cell: percentages, intervals, ratings, game names."""

from __future__ import annotations

GAME_NAMES = {"finca": "Finca", "alpujarras": "Alpujarras", "alpujarras-solo": "Alpujarras solo",
              "mi_tierra": "Mi Tierra"}


def game_name(game: str) -> str:
    return GAME_NAMES.get(game, game)


def pct(rate: float | None, digits: int = 1) -> str:
    """A rate as a percentage: 0.99 -> 99.0%."""
    return "-" if rate is None else f"{100 * rate:.{digits}f}%"


def interval(low: float | None, high: float | None, scale: float = 100.0,
             digits: int = 1) -> str:
    """An interval in brackets: (0.975, 0.996) -> [97.5, 99.6]; with scale 1, ratings."""
    if low is None or high is None:
        return "-"
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def number(x: float | None, digits: int = 1) -> str:
    """A number with thousands separators: 12345.6 -> 12,345.6."""
    return "-" if x is None else f"{x:,.{digits}f}"


def wins_text(wins: float | None) -> str:
    """Games won: whole, or with the shared victories' fractions."""
    if wins is None:
        return "-"
    return f"{wins:g}" if wins != int(wins) else f"{int(wins)}"
