"""The code of the docs pages that teach an API by example runs as the page shows it: every
```python block of each page below, in order, in one namespace per page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["vector.md", "recipes.md"]


@pytest.mark.parametrize("page", PAGES)
def test_a_pages_python_blocks_run(page):
    text = (ROOT / "docs" / page).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, f"docs/{page} has no python block"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, f"docs/{page}", "exec"), namespace)
