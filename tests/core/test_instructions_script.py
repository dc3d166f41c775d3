"""scripts/instructions.py, without valgrind: the loop it counts plays whole games of the version
its package view points at, and the view makes `import huerta` find that version."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    path = ROOT / "scripts" / "instructions.py"
    spec = importlib.util.spec_from_file_location("instructions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_counted_loop_plays_the_viewed_version(tmp_path: Path) -> None:
    script = _script()
    view = script.package_view(ROOT, tmp_path / "view")
    play = tmp_path / "play.py"
    # the loop (env() and engine modes, one game), then where huerta came from
    play.write_text(script.PLAY + "\nimport huerta.envs as h\nprint(h.__file__)\n")
    env = dict(os.environ, PYTHONPATH=str(view))
    for mode in ("0", "1"):
        run = subprocess.run([sys.executable, str(play), "mi_tierra", "2", "1", "1", mode],
                             env=env, capture_output=True, text=True, check=True)
        assert run.stdout.strip() == str(view / "huerta" / "envs" / "__init__.py")
