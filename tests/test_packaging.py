"""Packaging: the wheel builds without a warning from our configuration (every folder of package
data declared) and carries the shipped learned agents and the web page's files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_builds_without_packaging_warnings_and_ships_its_data(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
         "--wheel-dir", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "BuildBackendWarning" not in output.replace("Editable installation", ""), output[-3000:]
    assert "absent from the `packages` configuration" not in output
    (wheel,) = tmp_path.glob("huerta-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("huerta/agents/models/") and n.endswith(".npz") for n in names)
    assert "huerta/web/static/index.html" in names
    assert "huerta/envs/openspiel.py" in names
