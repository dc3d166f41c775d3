"""The notebooks are committed without outputs (CI executes them with `pytest --nbmake`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
sys.path.insert(0, str(ROOT / "scripts"))

import make_notebooks  # noqa: E402


def test_the_three_notebooks_exist():
    assert {p.name for p in NOTEBOOKS} >= {"quickstart.ipynb", "training.ipynb",
                                          "evaluation.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_stripped(path):
    cells = json.loads(path.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert code
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_notebook_is_what_its_generator_writes(path):
    """scripts/make_notebooks.py writes the notebooks: a cell edited in the .ipynb alone would
    be lost the next time it runs."""
    cells = json.loads(path.read_text())["cells"]
    made = make_notebooks.NOTEBOOKS[path.name]
    assert [(c["cell_type"], "".join(c["source"])) for c in cells] == [
        (c["cell_type"], c["source"]) for c in made]
