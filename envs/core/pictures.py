"""A small drawing surface over Pillow shared by every game's picture (the `rgb_array` render).

Pillow is imported when the first canvas is made, so environments without pictures never need it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .errors import HuertaError

# The smallest text a picture draws, in pixels at scale 1: a replay GIF stays readable (text of at
# least 11 px) at its default scale of 1, and at a scale s when s x the smallest size used >= 11.
MIN_TEXT_PX = 11


def pil() -> Any:
    """Pillow's (Image, ImageDraw, ImageFont) modules, imported on first use (an optional extra)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:
        raise HuertaError(
            "pictures (render_mode='rgb_array', replay GIFs) need Pillow: "
            "pip install 'huerta[render]'"
        ) from exc
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=32)
def font(size: int) -> Any:
    """Pillow's bundled scalable font at `size` pixels (no system fonts needed)."""
    _, _, image_font = pil()
    try:
        return image_font.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return image_font.load_default()


class Canvas:
    """An RGB image with the few drawing verbs the game pictures use."""

    def __init__(self, width: int, height: int, background: str = "white") -> None:
        image, image_draw, _ = pil()
        self.image = image.new("RGB", (width, height), background)
        self.draw = image_draw.Draw(self.image)
        self.smallest_text: int | None = None  # the smallest font size drawn so far

    def text(self, xy, text: str, size: int = 14, fill: str = "black", anchor: str = "la",
             stroke: str | None = None) -> None:
        kwargs = {"stroke_width": 2, "stroke_fill": stroke} if stroke else {}
        self.draw.text(tuple(xy), text, fill=fill, font=font(size), anchor=anchor, **kwargs)
        if text.strip():
            self.smallest_text = size if self.smallest_text is None else min(
                self.smallest_text, size)

    def text_width(self, text: str, size: int = 14) -> float:
        """How wide `text` is drawn at `size` pixels."""
        return float(font(size).getlength(text))

    def legend(self, x: float, y: float, items, right: float, size: int = 13,
               line_height: int = 20, ink: str = "#222222", gap: int = 14) -> float:
        """Flow legend items left to right from (x, y), wrapping before `right`; an item is
        (symbol, text) where `symbol` is None or a callable drawing a symbol centred at the point
        it gets (a 16-px square is left for it). Returns the y of the last row."""
        left = x
        for symbol, text in items:
            width = (20 if symbol else 0) + self.text_width(text, size)
            if x > left and x + width > right:
                x, y = left, y + line_height
            if symbol:
                symbol(self, x + 8, y)
                x += 20
            self.text((x, y), text, size=size, fill=ink, anchor="lm")
            x += self.text_width(text, size) + gap
        return y

    def circle(self, centre, radius: float, fill: str, outline: str | None = None) -> None:
        x, y = centre
        self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill,
                          outline=outline)

    def pieslice(self, centre, radius: float, start: float, end: float, fill: str,
                 outline: str | None = None) -> None:
        x, y = centre
        self.draw.pieslice((x - radius, y - radius, x + radius, y + radius), start, end,
                           fill=fill, outline=outline)

    def rect(self, box, fill: str | None = None, outline: str | None = None,
             width: int = 1) -> None:
        self.draw.rectangle(tuple(box), fill=fill, outline=outline, width=width)

    def line(self, xy, fill: str = "black", width: int = 1) -> None:
        self.draw.line(tuple(xy), fill=fill, width=width)

    def house(self, centre, size: float, fill: str) -> None:
        """A little house (a wooden finca): a square with a roof."""
        x, y = centre
        half = size / 2
        self.draw.rectangle((x - half, y - half / 2, x + half, y + half), fill=fill,
                            outline="#222222")
        self.draw.polygon([(x - half - 3, y - half / 2), (x, y - half * 1.4),
                           (x + half + 3, y - half / 2)], fill="#7a2e12", outline="#222222")

    def to_array(self) -> np.ndarray:
        """The picture as an (height, width, 3) uint8 array."""
        return np.asarray(self.image, dtype=np.uint8).copy()
