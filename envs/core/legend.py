"""Legends for the boards: what every abbreviation on a text board or a picture means.

The fruit codes are shared by every game so that a code never changes meaning between games: A is
always almond, O always olive, R always orange, and the fruits only Alpujarras grows get two-letter
codes (Ap apple, as in Mi Tierra's goods, and Ch cherry). Mi Tierra's goods keep their own
two-letter codes (Gr grape, Wh wheat, ...), none of which names anything else elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FRUIT_CODES: dict[str, str] = {
    "fig": "F", "almond": "A", "olive": "O", "orange": "R", "grape": "G", "lemon": "L",
    "apple": "Ap", "cherry": "Ch",
}
LEGEND_HEADING = "Legend:"
LEGEND_WIDTH = 100


def fruit_codes(fruits: Iterable[str]) -> tuple[str, ...]:
    """The shared code of each fruit name, in the order given."""
    return tuple(FRUIT_CODES[f] for f in fruits)


def legend_lines(entries: Sequence[tuple[str, str]], width: int = LEGEND_WIDTH) -> list[str]:
    """'Legend:' and the entries as 'KEY = meaning', separated by '; ' and word-wrapped to
    `width` characters (indented two spaces); a key is never split from its '=' (nor
    an 'a = b' inside a meaning)."""
    words: list[str] = []
    for k, (key, meaning) in enumerate(entries):
        tail = ";" if k < len(entries) - 1 else ""
        words.append(f"{key} =".replace(" ", "\u00a0"))  # kept whole: no break inside a key
        words.extend(f"{meaning}{tail}".replace(" = ", "\u00a0=\u00a0").split(" "))
    lines, line = [LEGEND_HEADING], ""
    for word in words:
        if line and len(line) + 1 + len(word) + 2 > width:
            lines.append("  " + line.replace("\u00a0", " "))
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append("  " + line.replace("\u00a0", " "))
    return lines
