"""The results pages of docs/results/ (agents, training, speed, and each game's baselines):
what each measures and how it renders, one module per page, and the blocks the README and docs
pages embed from them; run by scripts/results.py, checked by tests/test_results_pages.py."""

from __future__ import annotations

from . import agents, baselines, speed, training
from .blocks import BLOCKS
from .model import Page

PAGES: dict[str, Page] = {page.name: page for page in (agents.PAGE, training.PAGE, speed.PAGE,
                                                         *baselines.PAGES)}

__all__ = ["BLOCKS", "PAGES"]
