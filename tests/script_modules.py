"""Load a file of scripts/ as a module, for the tests of a script's functions.

scripts/ is not a package, so a script is loaded from its file; scripts/ goes on sys.path first,
as running the script puts it there, so that its imports of sibling scripts resolve. Imported by
name (`from script_modules import load_script`): pytest puts tests/ on sys.path because of
tests/conftest.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """scripts/<name>.py, run as a fresh module (not registered in sys.modules)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
