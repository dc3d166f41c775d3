"""A small drawing surface over Pillow shared by every game's picture (the `rgb_array` render).

Pillow is imported when the first canvas is made, so environments without pictures never need it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .errors import HuertaError


def _pil() -> Any:
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
    _, _, image_font = _pil()
    try:
        return image_font.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return image_font.load_default()


class Canvas:
    """An RGB image with the few drawing verbs the game pictures use."""

    def __init__(self, width: int, height: int, background: str = "white") -> None:
        image, image_draw, _ = _pil()
        self.image = image.new("RGB", (width, height), background)
        self.draw = image_draw.Draw(self.image)

    def text(self, xy, text: str, size: int = 14, fill: str = "black", anchor: str = "la",
             stroke: str | None = None) -> None:
        kwargs = {"stroke_width": 2, "stroke_fill": stroke} if stroke else {}
        self.draw.text(tuple(xy), text, fill=fill, font=font(size), anchor=anchor, **kwargs)

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
